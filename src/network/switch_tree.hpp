// A two-level switch tree (leaf switches under spine switches, as in an InfiniBand or Ethernet
// fat tree) as a Network, and its three files. Leaves may hold different numbers of hosts, and
// a host may run several ranks (its cores), which talk to each other through the host's
// loopback (bandwidth and latency of their own). Every host has its own link to its leaf switch;
// every leaf has `uplinks` links up, uplink u going to spine u mod spines. A route between two
// leaves goes up one uplink and down the other leaf's uplink of the same index (so through one
// spine): the index is (a + b) mod uplinks for leaves a and b, static routing that spreads the
// pairs of leaves over the uplinks as a subnet manager's would. Leaves are the clusters of the
// network (network.hpp): the topology has one level, "leaf", one group per leaf switch.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "network/network.hpp"

namespace topocoll::network {

struct SwitchTreeSpec {
  int leaves = 0;           // leaf switches
  // Hosts under each leaf, and ranks on each host of a leaf: one value for every leaf, or one
  // per leaf.
  std::vector<int> hosts_per_leaf;
  std::vector<int> ranks_per_host{1};
  int spines = 1;           // spine switches
  int uplinks = 1;          // links from each leaf up (uplink u to spine u mod spines)
  std::string prefix = "leaf";  // leaf i is PREFIXi; its hosts PREFIXi-0, PREFIXi-1, ...
  double host_speed = 4e9;                 // flop/s
  double node_bandwidth = 100e9 / 8;       // bytes/s, each host's link to its leaf, full duplex
  double node_latency = 1e-6;              // seconds
  double switch_latency = 100e-9;          // seconds, through a leaf switch (non-blocking)
  double uplink_bandwidth = 100e9 / 8;     // bytes/s, each uplink, full duplex
  double uplink_latency = 1e-6;            // seconds, each uplink
  double loopback_bandwidth = 20e9;        // bytes/s, between the ranks of one host
  double loopback_latency = 500e-9;        // seconds, between the ranks of one host
  TopologyFormat topology_format = TopologyFormat::hosts;

  int hosts_of(int leaf) const { return pick(hosts_per_leaf, leaf); }
  int ranks_per_host_of(int leaf) const { return pick(ranks_per_host, leaf); }
  bool one_rank_per_host() const;
  long long size() const;  // ranks in all

 private:
  static int pick(const std::vector<int>& values, int leaf) {
    return values.size() == 1 ? values.front() : values.at(static_cast<std::size_t>(leaf));
  }
};

std::optional<std::string> check_spec(const SwitchTreeSpec& spec);
Network switch_tree_network(const SwitchTreeSpec& spec);
std::string canonical_command(const SwitchTreeSpec& spec, std::string_view name);
std::string platform_xml(const SwitchTreeSpec& spec, std::string_view name);

}  // namespace topocoll::network
