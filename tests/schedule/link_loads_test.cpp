// Flows per link and round: shift on two clusters of two hosts puts one flow on the backbone each
// way, then two, then one; a transfer kept in flight counts in every round it spans (overlap);
// ranks that share a host cross no link; FATPIPE and NONBLOCKING links are not counted.
#include <gtest/gtest.h>

#include "algorithms/registry.hpp"
#include "network/clusters.hpp"
#include "schedule/link_loads.hpp"

namespace topocoll {
namespace {

network::ClustersSpec two_by(int n) {
  network::ClustersSpec spec;
  spec.nodes = {n, n};
  spec.names = {"c1", "c2"};
  return spec;
}

std::vector<int> one_per_host(int p) {
  std::vector<int> hosts(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) hosts[r] = r;
  return hosts;
}

TEST(LinkLoads, ShiftOnTwoClustersOfTwo) {
  const network::Network net = network::clusters_network(two_by(2));
  const Schedule schedule = build_full_schedule(*find_algorithm(Operation::alltoall, "shift"), Problem{4, 8, nullptr, {}});
  const LinkLoads loads = link_loads(schedule, net, one_per_host(4));
  ASSERT_EQ(loads.rounds.size(), 3u);
  EXPECT_EQ(loads.rounds[0].max_flows, 1);
  EXPECT_EQ(loads.rounds[1].max_flows, 2);  // 0 -> 2 and 1 -> 3 on the backbone, c1 to c2
  EXPECT_EQ(loads.rounds[2].max_flows, 1);
  EXPECT_EQ(loads.max_flows_per_link, 2);
  EXPECT_EQ(loads.worst.link, "wan");
  EXPECT_EQ(loads.worst.direction, "UP");
  EXPECT_EQ(loads.worst_round, 1u);
  EXPECT_EQ(loads.rounds_with_shared_links, 1u);
}

TEST(LinkLoads, InFlightTransfersCountInEveryRoundTheySpan) {
  const network::Network net = network::clusters_network(two_by(3));
  const Topology topology = *Topology::parse("clusters:3,3", nullptr);
  const Schedule schedule =
      build_full_schedule(*find_algorithm(Operation::alltoall, "overlap"), Problem{6, 8, &topology, {}});
  ASSERT_EQ(schedule.ranks[0].rounds.size(), 2u);
  const LinkLoads loads = link_loads(schedule, net, one_per_host(6));
  // 3 x 3 blocks cross each way, posted in round 0 and in flight through round 1.
  EXPECT_EQ(loads.rounds[0].max_flows, 9);
  EXPECT_EQ(loads.rounds[1].max_flows, 9);
  EXPECT_EQ(loads.rounds_with_shared_links, 2u);
}

TEST(LinkLoads, RanksOnOneHostAndLinksThatDoNotShare) {
  network::ClustersSpec spec = two_by(1);
  spec.wan_sharing = network::Sharing::fatpipe;
  const network::Network net = network::clusters_network(spec);
  const Schedule schedule = build_full_schedule(*find_algorithm(Operation::alltoall, "direct"), Problem{4, 8, nullptr, {}});
  // Ranks 0, 1 on host c1-0 and 2, 3 on c2-0: each host link carries the 2 x 2 flows across; the
  // FATPIPE backbone and the NONBLOCKING switches are not counted.
  const LinkLoads loads = link_loads(schedule, net, {0, 0, 1, 1});
  EXPECT_EQ(loads.max_flows_per_link, 4);
  EXPECT_EQ(loads.worst.link, "c1-0");
  for (const LinkLoad& load : loads.rounds[0].busiest) EXPECT_NE(load.link, "wan");
}

}  // namespace
}  // namespace topocoll
