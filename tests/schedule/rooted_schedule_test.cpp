// Scatter's and gather's layout (RootedBlocks), linear's schedules, and the verifier on rooted
// schedules: it proves a correct one and rejects a block delivered to the wrong rank or to the
// wrong place at the root.
#include <gtest/gtest.h>

#include "algorithms/registry.hpp"
#include "schedule/verifier.hpp"

namespace topocoll {
namespace {

using Flow = RootedBlocks::Flow;

TEST(RootedBlocks, ScatterIsTheRootsRow) {
  const RootedBlocks layout(Flow::from_root, 1, {2, 3, 4}, {10, 0, 3});
  EXPECT_EQ(layout.bytes(1, 0), 2u);
  EXPECT_EQ(layout.bytes(1, 2), 4u);
  EXPECT_EQ(layout.bytes(0, 1), 0u);
  EXPECT_EQ(layout.bytes(2, 2), 0u);
  EXPECT_EQ(layout.send_offset(1, 0), 10u);  // the root's send buffer: displacements
  EXPECT_EQ(layout.send_offset(1, 2), 3u);
  EXPECT_EQ(layout.recv_offset(2, 1), 0u);  // every receiver: its block at 0
}

TEST(RootedBlocks, GatherIsTheRootsColumn) {
  const RootedBlocks layout = RootedBlocks::uniform(Flow::to_root, 2, 3, 5);
  EXPECT_EQ(layout.bytes(0, 2), 5u);
  EXPECT_EQ(layout.bytes(2, 0), 0u);
  EXPECT_EQ(layout.recv_offset(2, 1), 5u);  // the root's receive buffer: block d at d*B
  EXPECT_EQ(layout.send_offset(1, 2), 0u);  // every sender: its block at 0
}

TEST(Linear, OneRoundThroughTheRoot) {
  const RootedBlocks layout = RootedBlocks::uniform(Flow::from_root, 2, 5, 8);
  const Problem problem = Problem::rooted(Operation::scatter, layout);
  const Schedule schedule = build_full_schedule(*find_algorithm(Operation::scatter, "linear"), problem);
  const Round& at_root = schedule.ranks[2].rounds.at(0);
  EXPECT_EQ(at_root.sends.size(), 4u);
  EXPECT_EQ(at_root.sends.front().peer, 3);
  EXPECT_TRUE(at_root.recvs.empty());
  ASSERT_EQ(at_root.copies.size(), 1u);
  EXPECT_EQ(at_root.copies[0].from, (Segment{BufferKind::send, 16, 8}));
  EXPECT_EQ(at_root.copies[0].to, (Segment{BufferKind::recv, 0, 8}));
  const Round& elsewhere = schedule.ranks[4].rounds.at(0);
  ASSERT_EQ(elsewhere.recvs.size(), 1u);
  EXPECT_EQ(elsewhere.recvs[0].peer, 2);
  EXPECT_EQ(elsewhere.recvs[0].segments[0], (Segment{BufferKind::recv, 0, 8}));
  EXPECT_TRUE(verify(schedule, layout).ok);
}

TEST(Linear, AppliesOnlyToRootedProblems) {
  const Algorithm& linear = *find_algorithm(Operation::gather, "linear");
  EXPECT_FALSE(linear.supports(Problem{4, 1, nullptr, {}}).ok);
  const RootedBlocks layout = RootedBlocks::uniform(Flow::to_root, 0, 4, 1);
  Problem problem = Problem::rooted(Operation::gather, layout);
  EXPECT_TRUE(linear.supports(problem).ok);
  problem.root = 4;
  const Applicability fits = linear.supports(problem);
  EXPECT_FALSE(fits.ok);
  EXPECT_NE(fits.reason.find("root 4"), std::string::npos) << fits.reason;
}

TEST(RootedVerifier, RejectsABlockDeliveredToTheWrongRank) {
  const RootedBlocks layout = RootedBlocks::uniform(Flow::from_root, 0, 3, 4);
  Schedule schedule = build_full_schedule(*find_algorithm(Operation::scatter, "linear"),
                                          Problem::rooted(Operation::scatter, layout));
  // The root sends block 2 to rank 1 and block 1 to rank 2.
  std::swap(schedule.ranks[0].rounds[0].sends[0].segments, schedule.ranks[0].rounds[0].sends[1].segments);
  EXPECT_FALSE(verify(schedule, layout).ok);
}

TEST(RootedVerifier, RejectsABlockGatheredIntoAGap) {
  // Gatherv: blocks of 2 bytes at 0, 4 and 8 in the root's receive buffer (2-byte gaps).
  const RootedBlocks layout(Flow::to_root, 0, {2, 2, 2}, {0, 4, 8});
  Schedule schedule = build_full_schedule(*find_algorithm(Operation::gatherv, "linear"),
                                          Problem::rooted(Operation::gatherv, layout));
  ASSERT_TRUE(verify(schedule, layout).ok);
  schedule.ranks[0].rounds[0].recvs[0].segments[0].offset = 2;  // rank 1's block into the gap
  const Verdict verdict = verify(schedule, layout);
  EXPECT_FALSE(verdict.ok);
}

}  // namespace
}  // namespace topocoll
