// Checks the three files `topocoll-platform mlfm` writes, from the files alone (the XML SimGrid
// reads, not the generator's Network): only sharing policies SimGrid knows (SHARED, SPLITDUPLEX,
// FATPIPE); one single-host zone per server serverI.J.K, in the
// hostfile's order, D layers of D + 1 leaves; a zoneRoute for every ordered pair of servers
// (one symmetrical route for the two servers of a leaf) naming only declared zones, routers and
// links; between columns through spine {J, J'}, within a column between layers through spine
// {J, (J + K + 1) mod (D + 1)}, K the sender's slot, and within a leaf through no spine; each
// leaf with D links to spines; and the topology file giving each host its coordinates at levels
// column, layer, slot, which topocoll's loader reads as one group per column, leaf and server.
// Usage: mlfm_files_check PREFIX D LAST_LAYER_SERVERS
#include <algorithm>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "platform_xml_reader.hpp"
#include "topology/topology_file.hpp"

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok && ++failures <= 20) std::cerr << "FAILED: " << what << '\n';
}

struct Server {
  int layer = 0, column = 0, slot = 0;
  std::string zone() const {
    return "server" + std::to_string(layer) + "." + std::to_string(column) + "." + std::to_string(slot);
  }
};

std::string spine(int a, int b) {
  return "spine" + std::to_string(std::min(a, b)) + "." + std::to_string(std::max(a, b));
}

// The spines a route's links name: spineA.B itself and its links leafI.J-spineA.B.
std::set<std::string> spines_of(const topocoll::test::XmlElement& route) {
  std::set<std::string> spines;
  for (const auto* hop : route.children_named("link_ctn")) {
    const std::string id = hop->attribute("id");
    const auto at = id.find("spine");
    if (at != std::string::npos) spines.insert(id.substr(at));
  }
  return spines;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: mlfm_files_check PREFIX D LAST_LAYER_SERVERS\n";
    return 2;
  }
  const std::string prefix = argv[1];
  const int d = std::stoi(argv[2]), last = std::stoi(argv[3]);
  std::vector<Server> servers;
  for (int i = 0; i < d; ++i)
    for (int j = 0; j <= d; ++j)
      for (int k = 0; k < (i == d - 1 ? last : d); ++k) servers.push_back({i, j, k});

  std::vector<std::string> hostfile;
  {
    std::istringstream in(topocoll::test::read_text_or_exit(prefix + ".hosts"));
    for (std::string line; std::getline(in, line);) hostfile.push_back(line);
  }
  std::vector<std::string> expected_hosts;
  for (const Server& s : servers) expected_hosts.push_back(s.zone() + "-0");
  expect(hostfile == expected_hosts, "the hostfile lists serverI.J.K-0 by layer, column, slot");

  std::string error;
  const auto root = topocoll::test::parse_xml(topocoll::test::read_text_or_exit(prefix + ".xml"), &error);
  expect(root.has_value(), "the platform is well-formed XML: " + error);
  if (!root) return 1;
  const auto zones = root->children_named("zone");
  expect(zones.size() == 1, "one top-level zone");
  if (zones.empty()) return 1;
  const auto& world = *zones.front();

  std::map<std::string, std::string> router_of;
  std::vector<std::string> zone_order;
  for (const auto* c : world.children_named("cluster")) {
    expect(c->attribute("radical") == "0-0", "zone " + c->attribute("id") + " holds one host");
    expect(c->attribute("prefix") == c->attribute("id") + "-", "zone " + c->attribute("id") + "'s host is ID-0");
    router_of[c->attribute("id")] = c->attribute("router_id");
    zone_order.push_back(c->attribute("id"));
  }
  std::vector<std::string> expected_zones;
  for (const Server& s : servers) expected_zones.push_back(s.zone());
  expect(zone_order == expected_zones, "one zone per server, in the hostfile's order");

  std::set<std::string> links;
  std::map<std::string, int> spine_ports_of_leaf;
  const std::set<std::string> simgrid_policies = {"SHARED", "SPLITDUPLEX", "FATPIPE"};
  for (const auto* c : world.children_named("cluster")) {
    expect(simgrid_policies.count(c->attribute("sharing_policy")) && simgrid_policies.count(c->attribute("bb_sharing_policy")),
           "zone " + c->attribute("id") + " uses SimGrid's sharing policies");
  }
  for (const auto* link : world.children_named("link")) {
    const std::string id = link->attribute("id");
    expect(simgrid_policies.count(link->attribute("sharing_policy")) == 1,
           "link " + id + " has a sharing policy SimGrid knows, not " + link->attribute("sharing_policy"));
    links.insert(id);
    const auto at = id.find("-spine");
    if (at != std::string::npos) ++spine_ports_of_leaf[id.substr(0, at)];
  }
  expect(spine_ports_of_leaf.size() == static_cast<std::size_t>(d * (d + 1)), "D(D+1) leaves linked to spines");
  for (const auto& [leaf, ports] : spine_ports_of_leaf) expect(ports == d, leaf + " has D spine ports");
  int spines = 0;
  for (int a = 0; a <= d; ++a)
    for (int b = a + 1; b <= d; ++b) spines += links.count(spine(a, b)) ? 1 : 0;
  expect(spines == d * (d + 1) / 2, "D(D+1)/2 spines spineA.B");

  // route[src][dst]: the zoneRoute from src to dst (a symmetrical one both ways).
  std::map<std::pair<std::string, std::string>, const topocoll::test::XmlElement*> route;
  for (const auto* r : world.children_named("zoneRoute")) {
    const std::string src = r->attribute("src"), dst = r->attribute("dst");
    expect(router_of.count(src) && router_of.count(dst), "a zoneRoute joins two server zones");
    expect(r->attribute("gw_src") == router_of[src] && r->attribute("gw_dst") == router_of[dst],
           "a zoneRoute goes through its zones' routers");
    for (const auto* hop : r->children_named("link_ctn")) {
      expect(links.count(hop->attribute("id")) == 1, "zoneRoute " + src + " -> " + dst + " names declared links");
    }
    expect(route.emplace(std::pair{src, dst}, r).second, "one route " + src + " -> " + dst);
    if (r->attribute("symmetrical") == "YES") expect(route.emplace(std::pair{dst, src}, r).second, "one route back");
  }
  for (const Server& a : servers) {
    for (const Server& b : servers) {
      if (a.zone() == b.zone()) continue;
      const auto it = route.find({a.zone(), b.zone()});
      expect(it != route.end(), "a route " + a.zone() + " -> " + b.zone());
      if (it == route.end()) continue;
      std::set<std::string> expected;
      if (a.column != b.column) expected = {spine(a.column, b.column)};
      if (a.column == b.column && a.layer != b.layer) expected = {spine(a.column, (a.column + a.slot + 1) % (d + 1))};
      expect(spines_of(*it->second) == expected, a.zone() + " -> " + b.zone() + " goes through the paper's spine");
      const bool same_leaf = a.layer == b.layer && a.column == b.column;
      expect((it->second->attribute("symmetrical") == "YES") == same_leaf,
             a.zone() + " -> " + b.zone() + ": only a leaf's own routes are symmetrical");
    }
  }

  const std::string json = topocoll::test::read_text_or_exit(prefix + ".topology.json");
  for (const Server& s : servers) {
    const std::string entry = "\"" + s.zone() + "-0\": [\"column" + std::to_string(s.column) + "\", \"layer" +
                              std::to_string(s.layer) + "\", \"slot" + std::to_string(s.slot) + "\"]";
    expect(json.find(entry) != std::string::npos, "the topology file has " + entry);
  }
  const auto topology = topocoll::parse_topology_json(json,
                                                      topocoll::RankPlacement::whole_world(hostfile), &error);
  expect(topology.has_value(), "topocoll reads the topology file: " + error);
  if (topology) {
    expect(topology->levels() == std::vector<std::string>{"column", "layer", "slot"}, "levels column, layer, slot");
    expect(topology->size() == static_cast<int>(servers.size()), "the topology describes every server");
    // A column is one group in every layer, a leaf a group of its own, a server too.
    std::map<int, int> column_group;
    std::set<std::pair<int, int>> leaves;
    std::set<int> server_groups;
    for (std::size_t r = 0; r < servers.size() && static_cast<int>(r) < topology->size(); ++r) {
      const int rank = static_cast<int>(r);
      const auto known = column_group.emplace(servers[r].column, topology->group(rank, 0)).first;
      expect(known->second == topology->group(rank, 0), hostfile[r] + " is in its column's group");
      leaves.insert({servers[r].layer * (d + 1) + servers[r].column, topology->group(rank, 1)});
      server_groups.insert(topology->group(rank, 2));
    }
    expect(column_group.size() == static_cast<std::size_t>(d + 1) && topology->group_count(0) == d + 1,
           "D + 1 column groups");
    expect(leaves.size() == static_cast<std::size_t>(d * (d + 1)) && topology->group_count(1) == d * (d + 1),
           "one group per leaf");
    expect(server_groups.size() == servers.size(), "one group per server");
  }

  if (failures == 0) std::cout << prefix << ": the platform, hostfile and topology file agree\n";
  return failures == 0 ? 0 : 1;
}
