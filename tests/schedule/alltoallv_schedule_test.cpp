// Alltoallv schedules: every algorithm that applies to blocks of different sizes (zeros
// included, with unused bytes between blocks) is proven by the verifier; and a rank's schedule
// asks only for the sizes it can know: its own blocks, plus those its algorithm names in
// size_questions (which the executor exchanges first).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <set>
#include <stdexcept>

#include "algorithms/registry.hpp"
#include "schedule/verifier.hpp"
#include "topology/topology_file.hpp"

namespace topocoll {
namespace {

std::vector<std::vector<std::size_t>> random_sizes(int p, std::mt19937& rng) {
  std::vector<std::vector<std::size_t>> bytes(static_cast<std::size_t>(p), std::vector<std::size_t>(p));
  for (auto& row : bytes)
    for (auto& b : row) b = rng() % 4 == 0 ? 0 : rng() % 7;  // a quarter of the blocks empty
  return bytes;
}

Topology clusters_of(const std::vector<int>& sizes, std::mt19937* shuffle) {
  std::vector<std::vector<int>> groups;
  for (std::size_t c = 0; c < sizes.size(); ++c)
    for (int i = 0; i < sizes[c]; ++i) groups.push_back({static_cast<int>(c)});
  if (shuffle) std::shuffle(groups.begin(), groups.end(), *shuffle);
  return Topology({"cluster"}, groups);
}

// Answers only what `rank` may know; anything else is a schedule that could not be built.
class WhatOneRankKnows final : public BlockMap {
 public:
  WhatOneRankKnows(const KnownBlocks& all, int rank, std::set<std::pair<int, int>> told)
      : all_(all), rank_(rank), told_(std::move(told)) {}
  std::size_t bytes(int src, int dst) const override {
    if (src != rank_ && dst != rank_ && !told_.count({src, dst})) {
      throw std::logic_error("rank " + std::to_string(rank_) + " asked for the size of block " +
                             std::to_string(src) + "->" + std::to_string(dst) + ", which nobody told it");
    }
    return all_.bytes(src, dst);
  }
  std::size_t send_offset(int rank, int dst) const override { return all_.send_offset(rank, dst); }
  std::size_t recv_offset(int rank, int src) const override { return all_.recv_offset(rank, src); }

 private:
  const KnownBlocks& all_;
  int rank_;
  std::set<std::pair<int, int>> told_;
};

// Builds every rank's schedule from what that rank knows, and verifies the whole.
void expect_verified(const Algorithm& a, const Topology* topo, int p, const KnownBlocks& blocks,
                     const AlgorithmKnobs& knobs = {}) {
  Problem problem{p, 0, topo, knobs, &blocks, Operation::alltoallv};
  ASSERT_TRUE(a.supports(problem).ok) << a.name << ": " << a.supports(problem).reason;
  Schedule schedule;
  schedule.size = p;
  for (int r = 0; r < p; ++r) {
    std::set<std::pair<int, int>> told;
    if (a.size_questions) {
      SizeQuestions questions;
      a.size_questions(problem, r, questions);
      for (int peer = 0; peer < p; ++peer)
        for (const auto& blk : questions.learn[static_cast<std::size_t>(peer)]) {
          ASSERT_EQ(blk.first, peer) << a.name << ": a rank can only learn the sizes of the blocks a peer sends";
          told.insert(blk);
        }
    }
    const WhatOneRankKnows view(blocks, r, told);
    Problem local = problem;
    local.blocks = &view;
    try {
      schedule.ranks.push_back(a.build(local, r));
    } catch (const std::logic_error& e) {
      FAIL() << a.name << ": " << e.what();
    }
  }
  const Verdict verdict = verify(schedule, blocks);
  EXPECT_TRUE(verdict.ok) << a.name << " p=" << p << ": " << verdict.summary();
}

TEST(AlltoallvSchedule, FlatAlgorithmsWithRandomSizes) {
  std::mt19937 rng(2024);
  for (const char* name : {"direct", "shift", "pairwise", "group-shuffle"}) {
    for (int p = 1; p <= 24; ++p) {
      const KnownBlocks blocks(random_sizes(p, rng), p % 3);
      expect_verified(*find_algorithm(Operation::alltoall, name), nullptr, p, blocks);
    }
  }
}

TEST(AlltoallvSchedule, LgWithRandomSizesAndPlacements) {
  std::mt19937 rng(7);
  const Algorithm& lg = *find_algorithm(Operation::alltoall, "lg");
  const std::vector<std::vector<int>> shapes = {{1, 1}, {1, 7}, {3, 5}, {5, 3}, {4, 4}, {3, 7}, {2, 9, 4}, {4, 1, 6, 2}};
  for (const auto& shape : shapes) {
    for (bool shuffled : {false, true}) {
      const Topology topo = clusters_of(shape, shuffled ? &rng : nullptr);
      const KnownBlocks blocks(random_sizes(topo.size(), rng), 1);
      expect_verified(lg, &topo, topo.size(), blocks);
    }
  }
}

// The node-aware exchange: the groups of the inner level (hosts of 1 to 4 ranks under 2 switches).
TEST(AlltoallvSchedule, LgAndOverlapOverAnInnerLevelWithRandomSizes) {
  std::mt19937 rng(19);
  std::vector<std::vector<int>> groups;
  for (int host = 0; host < 6; ++host)
    for (int i = 0; i <= host % 4; ++i) groups.push_back({host < 3 ? 0 : 1, host});
  std::shuffle(groups.begin(), groups.end(), rng);
  const Topology topo({"switch", "node"}, groups);
  AlgorithmKnobs hosts;
  hosts.group_level = 1;
  for (const char* name : {"lg", "overlap"}) {
    const KnownBlocks blocks(random_sizes(topo.size(), rng), 1);
    expect_verified(*find_algorithm(Operation::alltoall, name), &topo, topo.size(), blocks, hosts);
  }
}

TEST(AlltoallvSchedule, MlfmWithRandomSizes) {
  std::mt19937 rng(14);
  const Algorithm& mlfm = *find_algorithm(Operation::alltoall, "mlfm");
  for (const std::array<int, 3>& box : {std::array{2, 3, 2}, std::array{2, 4, 3}, std::array{3, 4, 2}}) {
    std::vector<std::vector<std::string>> paths;  // column, layer, slot of each rank
    for (int i = 0; i < box[0]; ++i)
      for (int j = 0; j < box[1]; ++j)
        for (int k = 0; k < box[2]; ++k)
          paths.push_back({"column" + std::to_string(j), "layer" + std::to_string(i), "slot" + std::to_string(k)});
    std::shuffle(paths.begin(), paths.end(), rng);
    const Topology topo = topology_for_group_names({"column", "layer", "slot"}, paths);
    const KnownBlocks blocks(random_sizes(topo.size(), rng), 1);
    expect_verified(mlfm, &topo, topo.size(), blocks);
  }
}

// Blocks by destination lie where KnownBlocks puts the same sizes, in O(p) memory.
TEST(AlltoallvSchedule, DestinationBlocksLieWhereKnownBlocksPutThem) {
  const std::vector<std::size_t> to{5, 0, 17, 3, 1024, 9};
  const int p = static_cast<int>(to.size());
  const KnownBlocks known(std::vector<std::vector<std::size_t>>(to.size(), to));
  const DestinationBlocks by_destination(to);
  for (int r = 0; r < p; ++r) {
    for (int q = 0; q < p; ++q) {
      EXPECT_EQ(by_destination.bytes(r, q), known.bytes(r, q));
      EXPECT_EQ(by_destination.send_offset(r, q), known.send_offset(r, q)) << r << ' ' << q;
      EXPECT_EQ(by_destination.recv_offset(r, q), known.recv_offset(r, q)) << r << ' ' << q;
    }
  }
}

TEST(AlltoallvSchedule, NotApplicableWhereSizesMustBeEqual) {
  const KnownBlocks blocks({{1, 2}, {3, 4}});
  Problem problem{2, 0, nullptr, {}, &blocks, Operation::alltoallv};
  EXPECT_FALSE(find_algorithm(Operation::alltoall, "bruck")->supports(problem).ok);
  const Topology topo = clusters_of({1, 1}, nullptr);
  problem.topology = &topo;
  problem.knobs.max_scratch_bytes = 1024;
  const Applicability lg = find_algorithm(Operation::alltoall, "lg")->supports(problem);
  EXPECT_FALSE(lg.ok);
  EXPECT_NE(lg.reason.find("alltoallv"), std::string::npos) << lg.reason;
}

TEST(AlltoallvSchedule, VerifierCatchesWritesOutsideBlocks) {
  const KnownBlocks blocks({{2, 2}, {2, 2}}, 3);  // 3 unused bytes after each block
  Problem problem{2, 0, nullptr, {}, &blocks, Operation::alltoallv};
  Schedule schedule;
  schedule.size = 2;
  for (int r = 0; r < 2; ++r) schedule.ranks.push_back(find_algorithm(Operation::alltoall, "shift")->build(problem, r));
  ASSERT_TRUE(verify(schedule, blocks).ok);
  schedule.ranks[0].rounds[0].copies.push_back({Segment{BufferKind::send, 0, 1}, Segment{BufferKind::recv, 3, 1}});
  const Verdict verdict = verify(schedule, blocks);
  EXPECT_FALSE(verdict.ok);
  EXPECT_NE(verdict.summary().find("outside every block"), std::string::npos) << verdict.summary();
}

}  // namespace
}  // namespace topocoll
