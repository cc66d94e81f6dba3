// One description of a two-cluster machine (LG paper, Fig. 1: two switched clusters joined
// by a backbone) and the three files made from it, so that the simulated machine and the
// library's view of it cannot disagree:
//  - the SimGrid platform (two FLAT clusters with gateway routers, a zoneRoute each way over
//    one WAN link, as in SIMGRID-NOTES.md),
//  - the hostfile (cluster 1's hosts first, so ranks 0..n1-1 are on cluster 1, as in the paper),
//  - the topology file ({"levels": ["cluster"], ...}, keyed by host name or by rank).
// Pure functions returning text; the tool writes them to disk.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topocoll::platform {

// SimGrid's link sharing policies, and NONBLOCKING for a cluster switch: written as one SHARED
// capacity equal to all its ports (2 x nodes x node link), which no set of flows can exceed
// since every flow through the switch also crosses one of those links. It allocates what a
// FATPIPE switch does, and SimGrid 3.32 solves it far faster: its max-min solver recomputes a
// FATPIPE link's usage over all of the link's flows each time it fixes one (docs/platforms.md).
enum class Sharing { shared, splitduplex, fatpipe, nonblocking };
std::string_view sharing_name(Sharing sharing);  // SHARED, SPLITDUPLEX, FATPIPE, NONBLOCKING
std::optional<Sharing> parse_sharing(std::string_view text);

enum class TopologyFormat { hosts, ranks };

struct TwoClusterSpec {
  int n1 = 0;  // nodes (one rank each) of cluster 1 and cluster 2
  int n2 = 0;
  std::string name1 = "c1";  // cluster ids; hosts are NAME-0, NAME-1, ...
  std::string name2 = "c2";
  double host_speed = 4e9;                 // flop/s (only charged local copies use it)
  double node_bandwidth = 1e9 / 8;         // bytes/s, each node's link to its switch, full duplex
  double node_latency = 20e-6;             // seconds, each node's link
  double switch_bandwidth = 10e9 / 8;      // bytes/s, the cluster's switch (SimGrid's backbone)
  double switch_latency = 10e-6;           // seconds
  Sharing switch_sharing = Sharing::nonblocking;  // NONBLOCKING, FATPIPE (per-flow cap) or SHARED
  double wan_bandwidth = 10e9 / 8;         // bytes/s, the inter-cluster backbone
  double wan_latency = 5e-3;               // seconds, one way
  Sharing wan_sharing = Sharing::splitduplex;  // SPLITDUPLEX: each direction has the full bandwidth
  TopologyFormat topology_format = TopologyFormat::hosts;

  int size() const { return n1 + n2; }
  // The bandwidth written for the switch of a cluster of `nodes` nodes: the ports' total for a
  // NONBLOCKING switch, switch_bandwidth otherwise.
  double switch_capacity(int nodes) const;
  // Route latencies as SimGrid adds them up: node link, switch, [WAN, other switch,] node link.
  double local_route_latency() const { return 2 * node_latency + switch_latency; }
  double cross_route_latency() const { return 2 * node_latency + 2 * switch_latency + wan_latency; }
  // Host names in rank order: cluster 1's, then cluster 2's.
  std::vector<std::string> hosts() const;
};

// Why the description cannot be generated (counts, names, sharing policies), or nullopt.
std::optional<std::string> check_spec(const TwoClusterSpec& spec);

// The topocoll-platform command line that regenerates exactly these files, every parameter
// spelt out (recorded in the platform file and printed by the tool).
std::string canonical_command(const TwoClusterSpec& spec, std::string_view name);

std::string platform_xml(const TwoClusterSpec& spec, std::string_view name);
std::string hostfile_text(const TwoClusterSpec& spec);
std::string topology_json(const TwoClusterSpec& spec);

}  // namespace topocoll::platform
