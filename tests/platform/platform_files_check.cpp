// Checks that the three files topocoll-platform writes for a two-cluster machine agree:
// the SimGrid platform is well-formed XML whose two clusters expand to exactly the hostfile's
// hosts (in order) and whose routes name only declared zones, routers and links; the topology
// file, read by topocoll's own loader with the hostfile's hosts, puts ranks 0..n1-1 in one
// cluster and the rest in the other; a switch generated as NONBLOCKING is a SHARED link that
// all of its nodes' links at full rate cannot fill. A structural check (no SimGrid in the mpi
// flavour).
// Usage: platform_files_check PREFIX N1 N2 NAME1 NAME2   (PREFIX.xml, .hosts, .topology.json)
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "platform_units.hpp"
#include "platform_xml_reader.hpp"
#include "topology/topology_file.hpp"

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    std::cerr << "FAILED: " << what << '\n';
    ++failures;
  }
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "cannot read " << path << '\n';
    std::exit(2);
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> read_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// "0-29" -> 30 host names PREFIX0..PREFIX29 (+ suffix).
std::vector<std::string> expand_cluster(const topocoll::test::XmlElement& cluster) {
  std::vector<std::string> hosts;
  const std::string radical = cluster.attribute("radical");
  const auto dash = radical.find('-');
  if (dash == std::string::npos) return hosts;
  const int first = std::stoi(radical.substr(0, dash));
  const int last = std::stoi(radical.substr(dash + 1));
  for (int i = first; i <= last; ++i) {
    hosts.push_back(cluster.attribute("prefix") + std::to_string(i) + cluster.attribute("suffix"));
  }
  return hosts;
}

void check_platform(const topocoll::test::XmlElement& root, const std::vector<std::string>& hostfile, int n1, int n2,
                    const std::string& name1, const std::string& name2) {
  expect(root.name == "platform" && root.attribute("version") == "4.1", "root is <platform version=\"4.1\">");
  const auto zones = root.children_named("zone");
  expect(zones.size() == 1, "one top-level zone");
  if (zones.empty()) return;
  const auto& zone = *zones.front();
  const auto clusters = zone.children_named("cluster");
  expect(clusters.size() == 2, "two clusters");
  if (clusters.size() != 2) return;
  expect(clusters[0]->attribute("id") == name1 && clusters[1]->attribute("id") == name2,
         "clusters are " + name1 + " then " + name2);

  std::vector<std::string> expanded = expand_cluster(*clusters[0]);
  const std::vector<std::string> second = expand_cluster(*clusters[1]);
  expect(static_cast<int>(expanded.size()) == n1, "cluster 1 has n1 hosts");
  expect(static_cast<int>(second.size()) == n2, "cluster 2 has n2 hosts");
  expanded.insert(expanded.end(), second.begin(), second.end());
  expect(expanded == hostfile, "the hostfile lists the platform's hosts, cluster 1 first, in order");
  expect(std::set<std::string>(expanded.begin(), expanded.end()).size() == expanded.size(), "host names are unique");

  std::set<std::string> routers, zone_ids, links;
  for (const auto* c : clusters) {
    routers.insert(c->attribute("router_id"));
    zone_ids.insert(c->attribute("id"));
    expect(c->attribute("sharing_policy") == "SPLITDUPLEX", "node links are full duplex");
    expect(!c->attribute("bw").empty() && !c->attribute("lat").empty() && !c->attribute("bb_bw").empty(),
           "cluster " + c->attribute("id") + " has bw, lat and bb_bw");
  }
  const bool nonblocking = [&] {
    for (const auto* prop : zone.children_named("prop")) {
      if (prop->attribute("id") == "generated-by") {
        return prop->attribute("value").find("--switch-sharing NONBLOCKING") != std::string::npos;
      }
    }
    return false;
  }();
  for (const auto* c : clusters) {
    if (!nonblocking) break;
    std::string error;
    const auto node = topocoll::platform::parse_bandwidth(c->attribute("bw"), &error);
    const auto fabric = topocoll::platform::parse_bandwidth(c->attribute("bb_bw"), &error);
    const double ports = 2.0 * static_cast<double>(expand_cluster(*c).size());
    expect(c->attribute("bb_sharing_policy") == "SHARED" && node && fabric && *fabric >= ports * *node * (1 - 1e-12),
           "the NONBLOCKING switch of " + c->attribute("id") + " is SHARED, with the capacity of all its ports");
  }
  for (const auto* link : zone.children_named("link")) links.insert(link->attribute("id"));
  expect(links.count("wan") == 1, "a link named wan");
  const auto routes = zone.children_named("zoneRoute");
  expect(!routes.empty(), "routes between the clusters");
  std::set<std::pair<std::string, std::string>> directions;
  for (const auto* route : routes) {
    expect(zone_ids.count(route->attribute("src")) && zone_ids.count(route->attribute("dst")),
           "a zoneRoute joins the two clusters");
    expect(routers.count(route->attribute("gw_src")) && routers.count(route->attribute("gw_dst")),
           "a zoneRoute goes through the clusters' routers");
    for (const auto* hop : route->children_named("link_ctn")) {
      expect(links.count(hop->attribute("id")) == 1, "a zoneRoute names a declared link");
      directions.insert({route->attribute("src"), hop->attribute("direction")});
    }
  }
  const auto wan = zone.children_named("link");
  if (!wan.empty() && wan.front()->attribute("sharing_policy") == "SPLITDUPLEX") {
    expect(routes.size() == 2 && directions.size() == 2, "a SPLITDUPLEX backbone is used UP one way, DOWN the other");
  }
}

void check_topology(const std::string& json_text, const std::vector<std::string>& hostfile, int n1, int n2,
                    const std::string& name1, const std::string& name2) {
  std::string error;
  const auto topology =
      topocoll::parse_topology_json(json_text, topocoll::RankPlacement::whole_world(hostfile), &error);
  expect(topology.has_value(), "topocoll reads the topology file: " + error);
  if (!topology) return;
  expect(topology->size() == n1 + n2, "the topology describes every rank");
  if (topology->size() != n1 + n2) return;
  expect(topology->level_count() == 1 && topology->levels().front() == "cluster", "one level, 'cluster'");
  expect(topology->group_count(0) == 2, "two clusters");
  for (int r = 0; r < n1 + n2; ++r) {
    const bool first = r < n1;
    expect(topology->group(r, 0) == topology->group(first ? 0 : n1, 0),
           "rank " + std::to_string(r) + " is in cluster " + (first ? name1 : name2));
  }
  expect(topology->group(0, 0) != topology->group(n1, 0), "the clusters differ");

  const auto doc = nlohmann::json::parse(json_text);
  if (doc.contains("hosts")) {
    std::set<std::string> keys;
    for (const auto& [host, path] : doc["hosts"].items()) {
      keys.insert(host);
      expect(path == nlohmann::json::array({host.rfind(name1 + "-", 0) == 0 ? name1 : name2}),
             "host " + host + " is in the cluster its name says");
    }
    expect(keys == std::set<std::string>(hostfile.begin(), hostfile.end()), "\"hosts\" lists exactly the hostfile");
  } else {
    expect(doc["ranks"].size() == hostfile.size(), "\"ranks\" has one entry per hostfile line");
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::cerr << "usage: platform_files_check PREFIX N1 N2 NAME1 NAME2\n";
    return 2;
  }
  const std::string prefix = argv[1];
  const int n1 = std::stoi(argv[2]);
  const int n2 = std::stoi(argv[3]);
  const std::string name1 = argv[4], name2 = argv[5];

  std::string error;
  const auto root = topocoll::test::parse_xml(read_text(prefix + ".xml"), &error);
  expect(root.has_value(), "the platform is well-formed XML: " + error);
  const std::vector<std::string> hostfile = read_lines(read_text(prefix + ".hosts"));
  expect(static_cast<int>(hostfile.size()) == n1 + n2, "the hostfile has n1 + n2 lines");
  if (root) check_platform(*root, hostfile, n1, n2, name1, name2);
  check_topology(read_text(prefix + ".topology.json"), hostfile, n1, n2, name1, name2);

  if (failures == 0) std::cout << prefix << ": the platform, hostfile and topology file agree\n";
  return failures == 0 ? 0 : 1;
}
