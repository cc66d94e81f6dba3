// Schedule statistics: rounds, messages and bytes, and the split by topology level.
#include <gtest/gtest.h>

#include "algorithms/registry.hpp"
#include "schedule/statistics.hpp"

namespace topocoll {
namespace {

ScheduleStats stats_of(std::string_view name, const Topology& topo, std::size_t b, int w = 4) {
  Problem problem{topo.size(), b, &topo, AlgorithmKnobs{w}};
  return compute_stats(build_full_schedule(*find_algorithm(Operation::alltoall, name), problem), &topo);
}

TEST(Statistics, DirectCountsEveryPairAndSplitsByCluster) {
  const auto topo = *Topology::parse("clusters:3,5", nullptr);
  const ScheduleStats s = stats_of("direct", topo, 10);
  EXPECT_EQ(s.rounds, 1);
  EXPECT_EQ(s.total.messages, 8u * 7u);
  EXPECT_EQ(s.total.bytes, 8u * 7u * 10u);
  EXPECT_EQ(s.cross.messages, 2u * 3u * 5u);
  EXPECT_EQ(s.cross.bytes, 2u * 3u * 5u * 10u);
  ASSERT_EQ(s.by_level.size(), 2u);
  EXPECT_EQ(s.by_level[1].messages, 3u * 2u + 5u * 4u);
  EXPECT_EQ(s.copies, 8u);
  EXPECT_EQ(s.max_messages_per_rank, 7u);
}

TEST(Statistics, RoundCounts) {
  const auto even = Topology::flat(16);
  const auto odd = Topology::flat(15);
  EXPECT_EQ(stats_of("shift", even, 1).rounds, 15);
  EXPECT_EQ(stats_of("pairwise", even, 1).rounds, 15);
  EXPECT_EQ(stats_of("pairwise", odd, 1).rounds, 15);  // p rounds for odd p
  EXPECT_EQ(stats_of("pairwise", Topology::flat(6), 1).rounds, 5);
  EXPECT_EQ(stats_of("group-shuffle", even, 1, 5).rounds, 3);
  EXPECT_EQ(stats_of("group-shuffle", odd, 1, 4).rounds, 4);  // ceil(15/4)
  EXPECT_EQ(stats_of("bruck", even, 1).rounds, 4);
  EXPECT_EQ(stats_of("bruck", Topology::flat(17), 1).rounds, 5);
}

TEST(Statistics, BruckSendsAboutHalfTheBlocksPerRound) {
  const ScheduleStats s = stats_of("bruck", Topology::flat(16), 4);
  EXPECT_EQ(s.total.messages, 16u * 4u);
  EXPECT_EQ(s.total.bytes, 16u * 4u * 8u * 4u);  // 8 of the 16 indices have each bit set
  EXPECT_EQ(s.copies, 16u);                         // only the own block is copied
}

}  // namespace
}  // namespace topocoll
