// Checks that the three files topocoll-platform writes for clusters joined by a backbone agree:
// the SimGrid platform is well-formed XML whose clusters expand to exactly the hostfile's hosts
// (in order), with a route for every pair of clusters that names only declared zones, routers
// and links; the topology file, read by topocoll's own loader with the hostfile's hosts, puts
// each cluster's ranks (consecutive, in cluster order) in a group of their own; a switch
// generated as NONBLOCKING is a SHARED link that all of its nodes' links at full rate cannot
// fill. A structural check (no SimGrid in the mpi flavour).
// Usage: platform_files_check PREFIX [level=NAME] NAME1=N1 NAME2=N2 ...
//   (PREFIX.xml, .hosts, .topology.json; the topology's one level is "cluster" unless given)
#include <algorithm>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "network/units.hpp"
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

struct ClusterCount {
  std::string name;
  int nodes = 0;
};

int total(const std::vector<ClusterCount>& expected) {
  int sum = 0;
  for (const ClusterCount& c : expected) sum += c.nodes;
  return sum;
}

void check_platform(const topocoll::test::XmlElement& root, const std::vector<std::string>& hostfile,
                    const std::vector<ClusterCount>& expected) {
  expect(root.name == "platform" && root.attribute("version") == "4.1", "root is <platform version=\"4.1\">");
  const auto zones = root.children_named("zone");
  expect(zones.size() == 1, "one top-level zone");
  if (zones.empty()) return;
  const auto& zone = *zones.front();
  const auto clusters = zone.children_named("cluster");
  expect(clusters.size() == expected.size(), std::to_string(expected.size()) + " clusters");
  if (clusters.size() != expected.size()) return;
  std::vector<std::string> expanded;
  for (std::size_t c = 0; c < expected.size(); ++c) {
    expect(clusters[c]->attribute("id") == expected[c].name, "cluster " + std::to_string(c) + " is " + expected[c].name);
    const std::vector<std::string> hosts = expand_cluster(*clusters[c]);
    expect(static_cast<int>(hosts.size()) == expected[c].nodes,
           "cluster " + expected[c].name + " has " + std::to_string(expected[c].nodes) + " hosts");
    expanded.insert(expanded.end(), hosts.begin(), hosts.end());
  }
  expect(expanded == hostfile, "the hostfile lists the platform's hosts, cluster by cluster, in order");
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
    const auto node = topocoll::network::parse_bandwidth(c->attribute("bw"), &error);
    const auto fabric = topocoll::network::parse_bandwidth(c->attribute("bb_bw"), &error);
    const double ports = 2.0 * static_cast<double>(expand_cluster(*c).size());
    expect(c->attribute("bb_sharing_policy") == "SHARED" && node && fabric && *fabric >= ports * *node * (1 - 1e-12),
           "the NONBLOCKING switch of " + c->attribute("id") + " is SHARED, with the capacity of all its ports");
  }
  for (const auto* link : zone.children_named("link")) links.insert(link->attribute("id"));
  if (expected.size() == 2) expect(links.count("wan") == 1 || links.count("wan-" + expected[0].name) == 1,
                                   "a link named wan (or wan-NAME, through a core)");
  const auto routes = zone.children_named("zoneRoute");
  expect(!routes.empty(), "routes between the clusters");
  std::set<std::pair<std::string, std::string>> directions, pairs;
  for (const auto* route : routes) {
    expect(zone_ids.count(route->attribute("src")) && zone_ids.count(route->attribute("dst")),
           "a zoneRoute joins two clusters");
    pairs.insert(std::minmax(route->attribute("src"), route->attribute("dst")));
    expect(routers.count(route->attribute("gw_src")) && routers.count(route->attribute("gw_dst")),
           "a zoneRoute goes through the clusters' routers");
    for (const auto* hop : route->children_named("link_ctn")) {
      expect(links.count(hop->attribute("id")) == 1, "a zoneRoute names a declared link");
      directions.insert({route->attribute("src"), hop->attribute("direction")});
    }
  }
  expect(pairs.size() == expected.size() * (expected.size() - 1) / 2, "a route joins every pair of clusters");
  const auto wan = zone.children_named("link");
  if (!wan.empty() && wan.front()->attribute("sharing_policy") == "SPLITDUPLEX") {
    expect(routes.size() == expected.size() * (expected.size() - 1),
           "a SPLITDUPLEX backbone has a route each way for every pair");
    for (const auto* route : routes) {
      std::set<std::string> seen;
      for (const auto* hop : route->children_named("link_ctn")) seen.insert(hop->attribute("direction"));
      expect(!seen.empty() && !seen.count(""), "every hop of a route over SPLITDUPLEX links names its direction");
    }
  }
}

void check_topology(const std::string& json_text, const std::vector<std::string>& hostfile,
                    const std::vector<ClusterCount>& expected, const std::string& level) {
  std::string error;
  const auto topology =
      topocoll::parse_topology_json(json_text, topocoll::RankPlacement::whole_world(hostfile), &error);
  expect(topology.has_value(), "topocoll reads the topology file: " + error);
  if (!topology) return;
  expect(topology->size() == total(expected), "the topology describes every rank");
  if (topology->size() != total(expected)) return;
  expect(topology->level_count() == 1 && topology->levels().front() == level, "one level, '" + level + "'");
  expect(topology->group_count(0) == static_cast<int>(expected.size()), "one group per cluster");
  std::map<std::string, std::string> cluster_of_host;
  std::set<int> groups;
  for (int first = 0; const ClusterCount& c : expected) {
    for (int r = first; r < first + c.nodes; ++r) {
      expect(topology->group(r, 0) == topology->group(first, 0),
             "rank " + std::to_string(r) + " is in cluster " + c.name);
      cluster_of_host[hostfile[static_cast<std::size_t>(r)]] = c.name;
    }
    groups.insert(topology->group(first, 0));
    first += c.nodes;
  }
  expect(groups.size() == expected.size(), "the clusters differ");

  const auto doc = nlohmann::json::parse(json_text);
  if (doc.contains("hosts")) {
    std::set<std::string> keys;
    for (const auto& [host, path] : doc["hosts"].items()) {
      keys.insert(host);
      expect(path == nlohmann::json::array({cluster_of_host[host]}), "host " + host + " is in its cluster");
    }
    expect(keys == std::set<std::string>(hostfile.begin(), hostfile.end()), "\"hosts\" lists exactly the hostfile");
  } else {
    expect(doc["ranks"].size() == hostfile.size(), "\"ranks\" has one entry per hostfile line");
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: platform_files_check PREFIX NAME1=N1 NAME2=N2 ...\n";
    return 2;
  }
  const std::string prefix = argv[1];
  std::vector<ClusterCount> expected;
  std::string level = "cluster";
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("level=", 0) == 0) {
      level = arg.substr(6);
      continue;
    }
    const auto equals = arg.find('=');
    if (equals == std::string::npos) {
      std::cerr << "platform_files_check: '" << arg << "' is not NAME=COUNT\n";
      return 2;
    }
    expected.push_back({arg.substr(0, equals), std::stoi(arg.substr(equals + 1))});
  }

  std::string error;
  const auto root = topocoll::test::parse_xml(topocoll::test::read_text_or_exit(prefix + ".xml"), &error);
  expect(root.has_value(), "the platform is well-formed XML: " + error);
  const std::vector<std::string> hostfile = read_lines(topocoll::test::read_text_or_exit(prefix + ".hosts"));
  expect(static_cast<int>(hostfile.size()) == total(expected), "the hostfile has a line per node");
  if (static_cast<int>(hostfile.size()) != total(expected)) return 1;
  if (root) check_platform(*root, hostfile, expected);
  check_topology(topocoll::test::read_text_or_exit(prefix + ".topology.json"), hostfile, expected, level);

  if (failures == 0) std::cout << prefix << ": the platform, hostfile and topology file agree\n";
  return failures == 0 ? 0 : 1;
}
