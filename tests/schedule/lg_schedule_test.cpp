// The LG two-cluster exchange: proven by the verifier for every n1, n2 from 1 to 16, random
// larger shapes and random placements of the clusters' ranks; its backbone message count is
// 2*max(n1,n2) against 2*n1*n2 for direct.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "algorithms/registry.hpp"
#include "schedule/statistics.hpp"
#include "schedule/verifier.hpp"

namespace topocoll {
namespace {

// Two clusters of n1 and n2 ranks; `shuffle` scatters them over the communicator.
Topology two_clusters(int n1, int n2, std::mt19937* shuffle = nullptr) {
  std::vector<std::vector<int>> groups;
  for (int i = 0; i < n1 + n2; ++i) groups.push_back({i < n1 ? 0 : 1});
  if (shuffle) std::shuffle(groups.begin(), groups.end(), *shuffle);
  return Topology({"cluster"}, groups);
}

void check(const Topology& topo, std::size_t b, int n1, int n2) {
  const Algorithm& lg = *find_algorithm(Operation::alltoall, "lg");
  Problem problem{topo.size(), b, &topo, {}};
  ASSERT_TRUE(lg.supports(problem).ok) << lg.supports(problem).reason;
  const Schedule schedule = build_full_schedule(lg, problem);
  const Verdict verdict = verify(schedule);
  EXPECT_TRUE(verdict.ok) << "n1=" << n1 << " n2=" << n2 << ": " << verdict.summary();
  const ScheduleStats stats = compute_stats(schedule, &topo);
  EXPECT_EQ(stats.cross.messages, 2u * static_cast<std::size_t>(std::max(n1, n2))) << "n1=" << n1 << " n2=" << n2;
  EXPECT_EQ(stats.cross.bytes, 2u * n1 * n2 * b) << "every block crosses the backbone exactly once";
  EXPECT_EQ(stats.rounds, 1 + (std::max(n1, n2) + std::min(n1, n2) - 1) / std::min(n1, n2));
}

TEST(LgSchedule, EveryShapeUpTo16By16) {
  for (int n1 = 1; n1 <= 16; ++n1)
    for (int n2 = 1; n2 <= 16; ++n2) check(two_clusters(n1, n2), 2, n1, n2);
}

TEST(LgSchedule, RandomPlacements) {
  std::mt19937 rng(12345);
  for (int trial = 0; trial < 40; ++trial) {
    const int n1 = 1 + static_cast<int>(rng() % 12);
    const int n2 = 1 + static_cast<int>(rng() % 20);
    check(two_clusters(n1, n2, &rng), 1 + rng() % 3, n1, n2);
  }
}

TEST(LgSchedule, RandomLargerShapes) {
  std::mt19937 rng(777);
  for (int trial = 0; trial < 6; ++trial) {
    const int n1 = 1 + static_cast<int>(rng() % 60);
    const int n2 = 1 + static_cast<int>(rng() % 100);
    check(two_clusters(n1, n2, &rng), 1, n1, n2);
  }
}

TEST(LgSchedule, DirectSendsTwoN1N2BackboneMessages) {
  const Topology topo = two_clusters(3, 7);
  Problem problem{10, 4, &topo, {}};
  const ScheduleStats direct = compute_stats(build_full_schedule(*find_algorithm(Operation::alltoall, "direct"), problem), &topo);
  const ScheduleStats lg = compute_stats(build_full_schedule(*find_algorithm(Operation::alltoall, "lg"), problem), &topo);
  EXPECT_EQ(direct.cross.messages, 2u * 3u * 7u);
  EXPECT_EQ(lg.cross.messages, 2u * 7u);
}

TEST(LgSchedule, NotApplicableWithoutTwoClusters) {
  const Algorithm& lg = *find_algorithm(Operation::alltoall, "lg");
  const Topology flat = Topology::flat(6);
  EXPECT_FALSE(lg.supports(Problem{6, 1, nullptr, {}}).ok);
  const Applicability one = lg.supports(Problem{6, 1, &flat, {}});
  EXPECT_FALSE(one.ok);
  EXPECT_NE(one.reason.find("at least two groups"), std::string::npos) << one.reason;
}

// Three and four clusters: one aggregated message each way per partner pair, 2*max(n_X,n_Y)
// per pair of clusters.
TEST(LgSchedule, MoreThanTwoClusters) {
  const Algorithm& lg = *find_algorithm(Operation::alltoall, "lg");
  std::mt19937 rng(99);
  const std::vector<std::vector<int>> shapes = {{2, 3, 5}, {3, 3, 3}, {1, 4, 7}, {4, 1, 2, 6}, {5, 5, 5, 5},
                                                {7, 2, 9, 3}, {1, 1, 1}, {6, 4, 1}};
  for (const auto& sizes : shapes) {
    for (bool shuffled : {false, true}) {
      std::vector<std::vector<int>> groups;
      for (std::size_t c = 0; c < sizes.size(); ++c)
        for (int i = 0; i < sizes[c]; ++i) groups.push_back({static_cast<int>(c)});
      if (shuffled) std::shuffle(groups.begin(), groups.end(), rng);
      const Topology topo({"cluster"}, groups);
      Problem problem{topo.size(), 2, &topo, {}};
      ASSERT_TRUE(lg.supports(problem).ok);
      const Schedule schedule = build_full_schedule(lg, problem);
      const Verdict verdict = verify(schedule);
      EXPECT_TRUE(verdict.ok) << verdict.summary();
      std::size_t expected = 0;
      for (std::size_t x = 0; x < sizes.size(); ++x)
        for (std::size_t y = x + 1; y < sizes.size(); ++y) expected += 2u * std::max(sizes[x], sizes[y]);
      EXPECT_EQ(compute_stats(schedule, &topo).cross.messages, expected);
    }
  }
}

}  // namespace
}  // namespace topocoll

namespace topocoll {
namespace {

// Bounded scratch: pieces pipelined so that phase 1 of a piece overlaps phase 2 of earlier
// ones; the scratch stays under the cap and the backbone carries each byte once.
TEST(LgSchedule, PipelinedUnderAScratchCap) {
  const Algorithm& lg = *find_algorithm(Operation::alltoall, "lg");
  for (auto [n1, n2] : {std::pair{3, 7}, {4, 4}, {1, 7}, {5, 3}, {2, 9}}) {
    const Topology topo = two_clusters(n1, n2);
    for (std::size_t cap : {std::size_t{0}, std::size_t{64}, std::size_t{200}, std::size_t{1000}}) {
      Problem problem{topo.size(), 10, &topo, {}};
      problem.knobs.max_scratch_bytes = cap;
      const Applicability fits = lg.supports(problem);
      if (!fits.ok) {
        EXPECT_NE(fits.reason.find("scratch cap"), std::string::npos) << fits.reason;
        continue;
      }
      const Schedule schedule = build_full_schedule(lg, problem);
      const Verdict verdict = verify(schedule);
      EXPECT_TRUE(verdict.ok) << n1 << "," << n2 << " cap " << cap << ": " << verdict.summary();
      const ScheduleStats stats = compute_stats(schedule, &topo);
      if (cap > 0) {
        EXPECT_LE(stats.max_scratch_bytes, cap) << n1 << "," << n2;
      }
      EXPECT_EQ(stats.cross.bytes, 2u * n1 * n2 * 10u);
    }
  }
}

TEST(LgSchedule, ExplicitPiecesOverlapPhases) {
  const Algorithm& lg = *find_algorithm(Operation::alltoall, "lg");
  const Topology topo = two_clusters(3, 7);  // 3 backbone steps
  Problem problem{10, 12, &topo, {}};
  problem.knobs.segment_bytes = 5;  // pieces of 5, 5 and 2 bytes
  const Schedule schedule = build_full_schedule(lg, problem);
  EXPECT_TRUE(verify(schedule).ok) << verify(schedule).summary();
  EXPECT_EQ(compute_stats(schedule, &topo).rounds, 3 + 3);
  // Round 1 holds phase 1 of piece 1 (inside C1) and step 0 of piece 0 (across).
  const Round& round1 = schedule.ranks[0].rounds[1];
  bool local = false, remote = false;
  for (const Transfer& t : round1.sends) (t.peer < 3 ? local : remote) = true;
  EXPECT_TRUE(local && remote);
}

TEST(LgSchedule, CapTooSmallIsNotApplicable) {
  const Topology topo = two_clusters(3, 7);
  Problem problem{10, 100, &topo, {}};
  problem.knobs.max_scratch_bytes = 3;
  const Applicability fits = find_algorithm(Operation::alltoall, "lg")->supports(problem);
  EXPECT_FALSE(fits.ok);
  EXPECT_NE(fits.reason.find("scratch cap of 3 bytes"), std::string::npos) << fits.reason;
}

}  // namespace
}  // namespace topocoll
