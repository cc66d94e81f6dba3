// overlap: proven by the verifier on every two-cluster shape up to 16 + 16, random placements,
// three and four clusters, a two-level topology and alltoallv sizes; its transfers across
// clusters are posted in round 0 and complete in the last round, one per pair of ranks (or
// `stripes` per pair, each block cut into equal parts).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "algorithms/overlap.hpp"
#include "algorithms/registry.hpp"
#include "schedule/statistics.hpp"
#include "schedule/verifier.hpp"

namespace topocoll {
namespace {

Topology clusters_of(const std::vector<int>& sizes, std::mt19937* shuffle = nullptr) {
  std::vector<std::vector<int>> groups;
  for (int c = 0; c < static_cast<int>(sizes.size()); ++c)
    for (int i = 0; i < sizes[c]; ++i) groups.push_back({c});
  if (shuffle) std::shuffle(groups.begin(), groups.end(), *shuffle);
  return Topology({"cluster"}, groups);
}

const Algorithm& overlap() { return *find_algorithm(Operation::alltoall, "overlap"); }

void check(const Topology& topo, std::size_t b, const std::vector<int>& sizes, int stripes = 0) {
  std::string shape;
  for (int n : sizes) shape += std::to_string(n) + " ";
  shape += "(stripes " + std::to_string(stripes) + ")";
  Problem problem{topo.size(), b, &topo, {}};
  problem.knobs.stripes = stripes;
  ASSERT_TRUE(overlap().supports(problem).ok) << overlap().supports(problem).reason;
  const Schedule schedule = build_full_schedule(overlap(), problem);
  const Verdict verdict = verify(schedule);
  EXPECT_TRUE(verdict.ok) << shape << ": " << verdict.summary();
  const int largest = *std::max_element(sizes.begin(), sizes.end());
  const std::size_t rounds = static_cast<std::size_t>(std::max(largest - 1, 1));
  const ScheduleStats stats = compute_stats(schedule, &topo);
  EXPECT_EQ(stats.rounds, rounds) << shape;
  std::size_t across = 0;
  for (int n : sizes) across += static_cast<std::size_t>(n) * static_cast<std::size_t>(topo.size() - n);
  EXPECT_EQ(stats.cross.messages, across * static_cast<std::size_t>(stripe_count(stripes, b))) << shape;
  // Every message across is posted in round 0 and kept in flight to the last round.
  for (int r = 0; r < topo.size(); ++r) {
    for (std::size_t t = 0; t < schedule.ranks[r].rounds.size(); ++t) {
      for (const auto* list : {&schedule.ranks[r].rounds[t].sends, &schedule.ranks[r].rounds[t].recvs}) {
        for (const Transfer& tr : *list) {
          const bool crosses = topo.group(r, 0) != topo.group(tr.peer, 0);
          EXPECT_EQ(t == 0 && tr.overlap_rounds == rounds - 1, crosses || (t == 0 && rounds == 1))
              << shape << " rank " << r << " round " << t << " peer " << tr.peer;
        }
      }
    }
  }
}

TEST(OverlapSchedule, EveryTwoClusterShapeUpTo16By16) {
  for (int n1 = 1; n1 <= 16; ++n1)
    for (int n2 = 1; n2 <= 16; ++n2) check(clusters_of({n1, n2}), 2, {n1, n2});
}

TEST(OverlapSchedule, RandomPlacementsAndMoreClusters) {
  std::mt19937 rng(4242);
  for (int trial = 0; trial < 30; ++trial) {
    std::vector<int> sizes(2 + rng() % 3);
    for (int& n : sizes) n = 1 + static_cast<int>(rng() % 9);
    check(clusters_of(sizes, &rng), 1 + rng() % 3, sizes);
  }
  check(clusters_of({7}), 3, {7});  // one group: the shift exchange
}

TEST(OverlapSchedule, StripesCutEveryBlockAcross) {
  for (int stripes : {1, 2, 3, 5})
    for (int n1 = 1; n1 <= 6; ++n1)
      for (int n2 = n1; n2 <= 7; ++n2) check(clusters_of({n1, n2}), 7, {n1, n2}, stripes);
  check(clusters_of({3, 4}), 2, {3, 4}, 5);  // fewer bytes than stripes: one byte per message
  check(clusters_of({2, 3}), 0, {2, 3}, 4);  // empty blocks: one message each
}

TEST(OverlapSchedule, StripesAreEqualPartsCoveringTheBlock) {
  for (std::size_t bytes : {std::size_t{1}, std::size_t{7}, std::size_t{64}, std::size_t{1} << 40}) {
    for (int stripes : {1, 2, 3, 8}) {
      const int pieces = stripe_count(stripes, bytes);
      std::size_t next = 0, smallest = bytes, largest = 0;
      for (int i = 0; i < pieces; ++i) {
        const auto [offset, length] = stripe_of(bytes, pieces, i);
        EXPECT_EQ(offset, next) << bytes << " / " << stripes;
        next += length;
        smallest = std::min(smallest, length);
        largest = std::max(largest, length);
      }
      EXPECT_EQ(next, bytes);
      EXPECT_LE(largest - smallest, 1u) << bytes << " / " << stripes;
      EXPECT_GE(smallest, 1u);
    }
  }
}

TEST(OverlapSchedule, AlltoallvStripes) {
  std::mt19937 rng(7);
  const Topology topo = clusters_of({3, 4}, &rng);
  std::vector<std::vector<std::size_t>> sizes(7, std::vector<std::size_t>(7));
  for (auto& row : sizes)
    for (auto& s : row) s = rng() % 9;
  const KnownBlocks blocks(sizes, 3);
  Problem problem{7, 0, &topo, {}, &blocks, Operation::alltoallv};
  problem.knobs.stripes = 3;
  const Verdict verdict = verify(build_full_schedule(overlap(), problem), blocks);
  EXPECT_TRUE(verdict.ok) << verdict.summary();
}

TEST(OverlapSchedule, NegativeStripesDoNotApply) {
  const Topology topo = clusters_of({2, 2});
  Problem problem{4, 8, &topo, {}};
  problem.knobs.stripes = -1;
  const Applicability fits = overlap().supports(problem);
  EXPECT_FALSE(fits.ok);
  EXPECT_NE(fits.reason.find("stripes"), std::string::npos) << fits.reason;
}

TEST(OverlapSchedule, TwoLevelTopologyUsesTheOutermost) {
  std::vector<std::vector<int>> groups;
  for (int r = 0; r < 18; ++r) groups.push_back({r % 3 == 0 ? 0 : 1, r / 2});
  const Topology topo({"cluster", "node"}, groups);
  check(topo, 2, {6, 12});
}

TEST(OverlapSchedule, AlltoallvRandomSizes) {
  std::mt19937 rng(99);
  for (const std::vector<int>& shape : std::vector<std::vector<int>>{{1, 1}, {3, 5}, {6, 2}, {2, 4, 3}}) {
    const Topology topo = clusters_of(shape, &rng);
    const int p = topo.size();
    std::vector<std::vector<std::size_t>> sizes(static_cast<std::size_t>(p), std::vector<std::size_t>(p));
    for (auto& row : sizes)
      for (auto& s : row) s = rng() % 5;
    const KnownBlocks blocks(sizes, 2);
    Problem problem{p, 0, &topo, {}, &blocks, Operation::alltoallv};
    ASSERT_TRUE(overlap().supports(problem).ok);
    const Verdict verdict = verify(build_full_schedule(overlap(), problem), blocks);
    EXPECT_TRUE(verdict.ok) << verdict.summary();
  }
}

TEST(OverlapSchedule, NeedsATopology) {
  const Applicability fits = overlap().supports(Problem{4, 8, nullptr, {}});
  EXPECT_FALSE(fits.ok);
  EXPECT_NE(fits.reason.find("topology"), std::string::npos) << fits.reason;
}

}  // namespace
}  // namespace topocoll
