// Clusters joined by a backbone (LG paper, Fig. 1, for two; any number here) as a Network, and
// the three files made from one description, so that the simulated machine and the library's
// view of it cannot disagree:
//  - the SimGrid platform (FLAT clusters with gateway routers, a zoneRoute for every pair of
//    clusters, as in SIMGRID-NOTES.md),
//  - the hostfile (the first cluster's hosts first, so its nodes hold the first ranks),
//  - the topology file ({"levels": ["cluster"], ...}, keyed by host name or by rank).
// Between clusters, either each pair has a backbone link of its own (`pairs`; for two clusters
// the one link "wan") or every cluster has one link to a WAN core that joins them all (`core`:
// a route between two clusters crosses both clusters' links).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "network/network.hpp"

namespace topocoll::network {

enum class WanDesign { pairs, core };
std::string_view wan_design_name(WanDesign design);  // "pairs", "core"

struct ClustersSpec {
  std::vector<int> nodes;           // nodes (one rank each) per cluster, in rank order
  std::vector<std::string> names;   // cluster ids; hosts are NAME-0, NAME-1, ...
  double host_speed = 4e9;          // flop/s (only charged local copies use it)
  double node_bandwidth = 1e9 / 8;  // bytes/s, each node's link to its switch, full duplex
  double node_latency = 20e-6;      // seconds, each node's link
  double switch_bandwidth = 10e9 / 8;  // bytes/s, the cluster's switch (SimGrid's backbone)
  double switch_latency = 10e-6;       // seconds
  Sharing switch_sharing = Sharing::nonblocking;  // NONBLOCKING, FATPIPE (per-flow cap) or SHARED
  double wan_bandwidth = 10e9 / 8;  // bytes/s, each backbone link
  double wan_latency = 5e-3;        // seconds, one way, each backbone link
  Sharing wan_sharing = Sharing::splitduplex;  // SPLITDUPLEX: each direction has the full bandwidth
  WanDesign wan = WanDesign::pairs;
  TopologyFormat topology_format = TopologyFormat::hosts;

  int size() const;
  // The bandwidth written for the switch of a cluster of `nodes` nodes: the ports' total for a
  // NONBLOCKING switch, switch_bandwidth otherwise.
  double switch_capacity(int nodes) const;
  // `two-clusters --n1 --n2` (two clusters joined by one link) or `clusters --nodes`.
  bool two_clusters() const { return nodes.size() == 2 && wan == WanDesign::pairs; }
};

// Why the description cannot be generated (counts, names, sharing policies), or nullopt.
std::optional<std::string> check_spec(const ClustersSpec& spec);

Network clusters_network(const ClustersSpec& spec);

// The topocoll-platform command line that regenerates exactly these files, every parameter
// spelt out (recorded in the platform file and printed by the tool).
std::string canonical_command(const ClustersSpec& spec, std::string_view name);

std::string platform_xml(const ClustersSpec& spec, std::string_view name);

}  // namespace topocoll::network
