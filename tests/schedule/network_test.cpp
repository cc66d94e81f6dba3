// The network layer: routes of a switch tree (up one uplink, down the other leaf's uplink of the
// same index, (a + b) mod uplinks), and the alltoall bound from its cuts.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "network/bound.hpp"
#include "network/switch_tree.hpp"

namespace topocoll::network {
namespace {

SwitchTreeSpec tree(int leaves, int hosts, int spines, int uplinks) {
  SwitchTreeSpec spec;
  spec.leaves = leaves;
  spec.hosts_per_leaf = {hosts};
  spec.spines = spines;
  spec.uplinks = uplinks;
  return spec;
}

std::vector<std::string> route_ids(const Network& network, int a, int b) {
  std::vector<Hop> hops;
  network.route(a, b, hops);
  std::vector<std::string> ids;
  for (const Hop& h : hops) ids.push_back(network.links[static_cast<std::size_t>(h.link)].id + (h.down ? " down" : ""));
  return ids;
}

TEST(SwitchTree, RoutesThroughOneUplinkOfEachLeaf) {
  const Network network = switch_tree_network(tree(3, 2, 2, 2));
  EXPECT_EQ(network.host_count(), 6);
  EXPECT_EQ(network.host_name(3), "leaf1-1");
  // Inside a leaf: host link, switch, host link.
  EXPECT_EQ(route_ids(network, 0, 1), (std::vector<std::string>{"leaf0-0", "leaf0-switch", "leaf0-1 down"}));
  // Hosts 1 (leaf 0) and 2 (leaf 1): uplink (0 + 1) mod 2 = 1 of each.
  EXPECT_EQ(route_ids(network, 1, 2), (std::vector<std::string>{"leaf0-1", "leaf0-switch", "leaf0-up-1",
                                                                "leaf1-up-1 down", "leaf1-switch", "leaf1-0 down"}));
  EXPECT_EQ(route_ids(network, 0, 4)[2], "leaf0-up-0");  // leaves 0 and 2: (0 + 2) mod 2 = 0
}

TEST(SwitchTree, BoundFromTheUplinkCut) {
  // Two leaves of two hosts, one uplink each at 1 GB/s, hosts at 10 GB/s: each uplink carries
  // the 2 x 2 blocks from its leaf to the other one way.
  SwitchTreeSpec spec = tree(2, 2, 1, 1);
  spec.uplink_bandwidth = 1e9;
  spec.node_bandwidth = 10e9;
  const Network network = switch_tree_network(spec);
  const AlltoallBound bound = alltoall_lower_bound(network, 1000000);
  const double route = 1e-6 + 100e-9 + 1e-6 + 1e-6 + 100e-9 + 1e-6;
  EXPECT_NEAR(bound.latency, route, 1e-15);
  EXPECT_EQ(bound.limited_by, "uplink");
  EXPECT_NEAR(bound.seconds, route + 4 * 1e6 / 1e9, 1e-12);
  // A host's link carries 3 blocks each way, the one inside its leaf from the shorter route on.
  const double inside = 1e-6 + 100e-9 + 1e-6;
  EXPECT_NEAR(bound.role("node-link"), inside + 3 * 1e6 / 10e9, 1e-12);
  EXPECT_EQ(bound.worst_link, "leaf0-up-0");
}

// An alltoallv on the same two leaves: uniform traffic has alltoall's bound; when every rank
// sends 4 MB to rank 0 alone, leaf 0's uplink carries two of them (8 ms at 1 GB/s) and rank 0's
// link three (1.2 ms at 10 GB/s); empty blocks are no flow, so one block inside a leaf is
// bound by its own short route.
TEST(SwitchTree, IrregularBoundFromTheBlocksThatExist) {
  SwitchTreeSpec spec = tree(2, 2, 1, 1);
  spec.uplink_bandwidth = 1e9;
  spec.node_bandwidth = 10e9;
  const Network network = switch_tree_network(spec);
  const std::vector<int> host_of_rank{0, 1, 2, 3};
  const AlltoallBound uniform = alltoallv_lower_bound(network, host_of_rank, [](int, int) { return 1000000; });
  EXPECT_DOUBLE_EQ(uniform.seconds, alltoall_lower_bound(network, 1000000).seconds);
  EXPECT_DOUBLE_EQ(uniform.role("node-link"), alltoall_lower_bound(network, 1000000).role("node-link"));

  const auto to_zero = [](int i, int j) -> std::size_t { return j == 0 && i != 0 ? 4000000 : 0; };
  const AlltoallBound hot = alltoallv_lower_bound(network, host_of_rank, to_zero);
  const double route = 1e-6 + 100e-9 + 1e-6 + 1e-6 + 100e-9 + 1e-6;
  const double inside = 1e-6 + 100e-9 + 1e-6;
  EXPECT_EQ(hot.limited_by, "uplink");
  EXPECT_EQ(hot.worst_link, "leaf0-up-0");  // on its way down to rank 0
  EXPECT_NEAR(hot.seconds, route + 8e6 / 1e9, 1e-12);
  EXPECT_NEAR(hot.role("node-link"), inside + 12e6 / 10e9, 1e-12);

  const AlltoallBound one = alltoallv_lower_bound(network, host_of_rank,
                                                  [](int i, int j) -> std::size_t { return i == 1 && j == 0 ? 10 : 0; });
  EXPECT_NEAR(one.latency, inside, 1e-15);
  EXPECT_EQ(one.role("uplink"), 0.0);
}

// A gather to host 0 of a leaf of 16 hosts, with one host under another leaf behind 1 ms
// uplinks: the root's link carries 16 blocks from its own leaf, whose 2 us routes are far
// shorter than the longest (over 2 ms). The bound (3.2 ms) is under twice the longest route's
// latency, yet the root's link sets it, and limited_by names it.
TEST(SwitchTree, LimitedByNamesTheCutThatSetsTheBound) {
  SwitchTreeSpec spec = tree(2, 1, 1, 1);
  spec.hosts_per_leaf = {16, 1};
  spec.node_bandwidth = 1e9;
  spec.uplink_latency = 1e-3;
  const Network network = switch_tree_network(spec);
  std::vector<int> host_of_rank(17);
  for (int r = 0; r < 17; ++r) host_of_rank[static_cast<std::size_t>(r)] = r;
  const double block = 2e5;
  const AlltoallBound gather = rooted_lower_bound(network, host_of_rank, 0, static_cast<std::size_t>(block), false);
  const double inside = 1e-6 + 100e-9 + 1e-6;
  EXPECT_GT(gather.latency, 2e-3);
  EXPECT_NEAR(gather.seconds, inside + 16 * block / 1e9, 1e-12);
  EXPECT_LT(gather.seconds, 2 * gather.latency) << "the case the rule used to call latency";
  EXPECT_EQ(gather.limited_by, "node-link");
  // Tiny blocks: every cut is its latency, plus next to nothing.
  EXPECT_EQ(rooted_lower_bound(network, host_of_rank, 0, 1, false).limited_by, "latency");
}

TEST(SwitchTree, Checks) {
  EXPECT_FALSE(check_spec(tree(3, 2, 2, 2)).has_value());
  EXPECT_NE(check_spec(tree(1, 2, 1, 1)).value_or("").find("two leaves"), std::string::npos);
  EXPECT_NE(check_spec(tree(2, 2, 3, 2)).value_or("").find("uplink to every spine"), std::string::npos);
  SwitchTreeSpec bad = tree(2, 2, 1, 1);
  bad.prefix = "a-b";
  EXPECT_TRUE(check_spec(bad).has_value());
}

// The paper's testbed shape: leaves of unequal sizes whose hosts run several ranks each.
TEST(SwitchTree, UnevenLeavesWithSeveralRanksPerHost) {
  SwitchTreeSpec spec = tree(2, 0, 1, 1);
  spec.hosts_per_leaf = {2, 3};
  spec.ranks_per_host = {4, 2};
  EXPECT_FALSE(check_spec(spec).has_value()) << check_spec(spec).value_or("");
  EXPECT_EQ(spec.size(), 2 * 4 + 3 * 2);
  const Network network = switch_tree_network(spec);
  EXPECT_EQ(network.host_count(), 5);
  EXPECT_EQ(network.hosts().size(), 5u);
  const std::vector<std::string> ranks = network.rank_hosts();
  ASSERT_EQ(ranks.size(), 14u);
  EXPECT_EQ(ranks[3], "leaf0-0");
  EXPECT_EQ(ranks[4], "leaf0-1");
  EXPECT_EQ(ranks[8], "leaf1-0");
  EXPECT_EQ(ranks[13], "leaf1-2");
  EXPECT_EQ(route_ids(network, 1, 2)[2], "leaf0-up-0");  // host 2 is leaf1-0
  // The hostfile has a line per rank; a host-keyed topology file names each host once, a
  // rank-keyed one every rank.
  const std::string hostfile = hostfile_text(network);
  EXPECT_EQ(std::count(hostfile.begin(), hostfile.end(), '\n'), 14);
  const std::string by_rank = topology_json(network, TopologyFormat::ranks);
  EXPECT_EQ(std::count(by_rank.begin(), by_rank.end(), '['), 2 + 14);  // levels, "ranks", one per rank
  const std::string by_host = topology_json(network, TopologyFormat::hosts);
  EXPECT_EQ(std::count(by_host.begin(), by_host.end(), '['), 1 + 5);
  const std::string xml = platform_xml(spec, "t");
  EXPECT_NE(xml.find("loopback_bw=\"160Gbps\" loopback_lat=\"500ns\""), std::string::npos) << xml;
  // A core per rank on each leaf's hosts (4 on leaf 0's, 2 on leaf 1's).
  EXPECT_NE(xml.find("radical=\"0-1\" speed=\"4Gf\" core=\"4\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("radical=\"0-2\" speed=\"4Gf\" core=\"2\""), std::string::npos) << xml;
  EXPECT_NE(canonical_command(spec, "t").find("--hosts-per-leaf 2,3 --ranks-per-host 4,2"), std::string::npos);
  // The bound with several ranks per host: each host's link carries all its ranks' blocks to
  // the other hosts' ranks (leaf0-0: 4 ranks x 10 ranks elsewhere, each way), and a block
  // between two ranks of one host crosses its loopback alone (no cut: a FATPIPE).
  const AlltoallBound several = alltoall_lower_bound(network, 1000000);
  const double host_link = spec.node_bandwidth, inside_leaf = 2 * spec.node_latency + spec.switch_latency;
  EXPECT_GE(several.role("node-link"), 4 * 10 * 1e6 / host_link);
  EXPECT_NEAR(several.role("node-link"), inside_leaf + 4 * 10 * 1e6 / host_link, 1e-9) << "leaf0-0's link, 4 x 10 blocks";
  EXPECT_NEAR(several.role("loopback"), spec.loopback_latency + 1e6 / spec.loopback_bandwidth, 1e-15);
  EXPECT_GE(several.seconds, several.role("node-link"));
  // Without a loopback it cannot say.
  Network without = network;
  without.loopback_bandwidth = 0.0;
  EXPECT_THROW(alltoall_lower_bound(without, 8), std::invalid_argument);
  spec.ranks_per_host = {1, 2, 3};
  EXPECT_NE(check_spec(spec).value_or("").find("one value or one per leaf"), std::string::npos);
}

}  // namespace
}  // namespace topocoll::network
