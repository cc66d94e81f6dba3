// Kandalla et al.'s cost model of scatter and gather (model/root_path_cost.hpp): the root's
// messages counted per level (their C1, C2, C3) and priced at each level's start-up and
// per-byte cost, the outermost level's scaled by the contention factor.
#include <gtest/gtest.h>

#include "algorithms/registry.hpp"
#include "model/root_path_cost.hpp"
#include "model_machines.hpp"

namespace topocoll {
namespace {

using test_machines::two_cluster_machine;
using test_machines::two_clusters;

// A gather of 1000-byte blocks to rank 0 of two clusters of 4 ranks: cluster 5060 us and
// node 50 us of latency, 125 bytes/us both.
RootPathCost gather_cost(const char* algorithm, double contention) {
  const Topology topology = two_clusters(4, 4);
  const RootedBlocks layout = RootedBlocks::uniform(RootedBlocks::Flow::to_root, 0, 8, 1000);
  Problem problem = Problem::rooted(Operation::gather, layout, &topology);
  problem.block_bytes = 1000;
  const Schedule schedule = build_full_schedule(*find_algorithm(Operation::gather, algorithm), problem);
  const MachineCost machine = two_cluster_machine(1000.0, 1000.0);
  return root_path_cost(schedule, 0, MachinePricing(machine, &topology, 8), contention);
}

TEST(RootPathCost, BinomialRootReceivesLogPMessagesOneAcross) {
  const RootPathCost cost = gather_cost("binomial", 1.0);
  ASSERT_EQ(cost.levels.size(), 2u);
  EXPECT_EQ(cost.levels[0].level, "cluster");
  // From rank 4 (its subtree: ranks 4-7), across; from 2 (ranks 2, 3) and 1, inside.
  EXPECT_EQ(cost.levels[0].messages, 1);
  EXPECT_EQ(cost.levels[0].bytes, 4000u);
  EXPECT_EQ(cost.levels[1].messages, 2);
  EXPECT_EQ(cost.levels[1].bytes, 3000u);
  EXPECT_DOUBLE_EQ(cost.levels[0].predicted_us, 5060.0 + 4000.0 / 125.0);
  EXPECT_DOUBLE_EQ(cost.predicted_us, 5060.0 + 32.0 + 2 * 50.0 + 24.0);
}

TEST(RootPathCost, LinearRootPaysEveryStartUp) {
  const RootPathCost cost = gather_cost("linear", 1.0);
  EXPECT_EQ(cost.levels[0].messages, 4);
  EXPECT_EQ(cost.levels[1].messages, 3);
  EXPECT_DOUBLE_EQ(cost.predicted_us, 4 * 5060.0 + 32.0 + 3 * 50.0 + 24.0);
}

TEST(RootPathCost, ContentionScalesTheOutermostLevelOnly) {
  const RootPathCost quiet = gather_cost("binomial", 1.0);
  const RootPathCost busy = gather_cost("binomial", 2.0);
  EXPECT_DOUBLE_EQ(busy.levels[0].predicted_us, 2.0 * quiet.levels[0].predicted_us);
  EXPECT_DOUBLE_EQ(busy.levels[1].predicted_us, quiet.levels[1].predicted_us);
}

}  // namespace
}  // namespace topocoll
