// Every algorithm priced from its plan (a sink that wants no places: bruck and lg then skip
// finding them) gives exactly the time the model reads off the algorithm's recorded schedule:
// on flat, two-cluster, three-cluster and two-level topologies with shuffled placements,
// machines where ranks, lone messages or the backbone dominate, lg's pieces, overlap's stripes
// and per-pair sizes; and a prediction told to give up stops above its bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "algorithms/registry.hpp"
#include "model/hierarchical_cost.hpp"
#include "model/plan_cost.hpp"
#include "model_machines.hpp"

namespace topocoll {
namespace {

// Ranks spread over clusters of the given sizes, shuffled over the communicator when `rng` is
// set; `nodes_per_cluster` > 0 adds a node level (each cluster needs that many ranks).
Topology clusters_of(const std::vector<int>& sizes, std::mt19937* rng, int nodes_per_cluster = 0) {
  std::vector<std::vector<int>> groups;
  for (int c = 0; c < static_cast<int>(sizes.size()); ++c) {
    for (int i = 0; i < sizes[c]; ++i) {
      if (nodes_per_cluster > 0) {
        groups.push_back({c, c * nodes_per_cluster + i % nodes_per_cluster});
      } else {
        groups.push_back({c});
      }
    }
  }
  if (rng) std::shuffle(groups.begin(), groups.end(), *rng);
  if (nodes_per_cluster > 0) return Topology({"cluster", "node"}, groups);
  return Topology({"cluster"}, groups);
}

std::vector<MachineCost> machines() {
  MachineCost slow_everything = test_machines::two_cluster_machine(40.0, 4.0, 3.0);
  slow_everything.copy_bytes_per_us = 0.5;
  MachineCost half_duplex = test_machines::two_cluster_machine(300.0, 100.0, 0.2);
  half_duplex.backbone->duplex_ratio = 1.0;
  half_duplex.levels.push_back({"same group", 0.3, 2000.0});
  MachineCost rtt_biased = test_machines::two_cluster_machine(1250.0, 1250.0);
  rtt_biased.backbone->near_weight = 110.0;  // CM02-like: a flow inside takes 110 / (110 + K)
  return {test_machines::two_cluster_machine(1250.0, 1250.0), slow_everything, half_duplex, rtt_biased,
          test_machines::fast_crossbar(), machine_from_tam_wang(TamWangParams::table1(8))};
}

void expect_forms_match(const Problem& problem, const std::string& where) {
  for (const MachineCost& machine : machines()) {
    const MachinePricing pricing(machine, problem.topology, problem.size);
    for (const Algorithm& a : algorithms_for(Operation::alltoall)) {
      if (!a.has_schedule() || !a.supports(problem).ok) continue;
      const double from_plan = predict_plan_us(*a.plan(problem), problem.size, pricing);
      const double read = predict_hierarchical_us(build_full_schedule(a, problem), machine, problem.topology);
      EXPECT_EQ(from_plan, read) << a.name << ' ' << where;
    }
  }
}

TEST(PlanCost, FlatProblems) {
  for (int p = 1; p <= 13; ++p) {
    for (std::size_t b : {std::size_t{0}, std::size_t{1}, std::size_t{4096}}) {
      for (int w : {1, 3}) {
        expect_forms_match(Problem{p, b, nullptr, AlgorithmKnobs{w}},
                           "p=" + std::to_string(p) + " b=" + std::to_string(b));
      }
    }
  }
}

TEST(PlanCost, TwoAndThreeClusters) {
  std::mt19937 rng(2024);
  const std::vector<std::vector<int>> shapes = {{1, 1},  {1, 5},    {3, 7},    {4, 4},    {5, 3},      {2, 9},
                                                {6, 11}, {3, 3, 3}, {2, 5, 4}, {1, 2, 6}, {4, 1, 1, 3}};
  for (const auto& sizes : shapes) {
    for (bool shuffled : {false, true}) {
      const Topology topology = clusters_of(sizes, shuffled ? &rng : nullptr);
      for (std::size_t b : {std::size_t{0}, std::size_t{7}, std::size_t{1000}}) {
        expect_forms_match(Problem{topology.size(), b, &topology, AlgorithmKnobs{2}},
                           topology.describe() + " b=" + std::to_string(b));
      }
    }
  }
}

TEST(PlanCost, ClustersOfNodes) {
  std::mt19937 rng(7);
  for (const auto& sizes : std::vector<std::vector<int>>{{4, 8}, {6, 6, 3}}) {
    const Topology topology = clusters_of(sizes, &rng, 2);
    expect_forms_match(Problem{topology.size(), 300, &topology, {}}, topology.describe());
  }
}

TEST(PlanCost, LgPieces) {
  const Topology topology = clusters_of({3, 7}, nullptr);
  for (std::size_t segment : {std::size_t{0}, std::size_t{3}, std::size_t{64}}) {
    for (std::size_t cap : {std::size_t{0}, std::size_t{200}, std::size_t{5000}}) {
      AlgorithmKnobs knobs;
      knobs.segment_bytes = segment;
      knobs.max_scratch_bytes = cap;
      expect_forms_match(Problem{topology.size(), 100, &topology, knobs},
                         "segment=" + std::to_string(segment) + " cap=" + std::to_string(cap));
    }
  }
}

TEST(PlanCost, OverlapStripes) {
  std::mt19937 rng(11);
  for (const auto& sizes : std::vector<std::vector<int>>{{3, 7}, {4, 4}, {2, 3, 4}}) {
    const Topology topology = clusters_of(sizes, &rng);
    for (int stripes : {2, 3, 8}) {
      for (std::size_t b : {std::size_t{0}, std::size_t{5}, std::size_t{1000}}) {
        AlgorithmKnobs knobs;
        knobs.stripes = stripes;
        expect_forms_match(Problem{topology.size(), b, &topology, knobs},
                           topology.describe() + " stripes=" + std::to_string(stripes) + " b=" + std::to_string(b));
      }
    }
  }
}

TEST(PlanCost, PerPairSizes) {
  std::mt19937 rng(5);
  for (const auto& sizes : std::vector<std::vector<int>>{{3, 7}, {2, 3, 4}}) {
    const Topology topology = clusters_of(sizes, &rng);
    const int p = topology.size();
    std::vector<std::vector<std::size_t>> bytes(p, std::vector<std::size_t>(p));
    for (auto& row : bytes)
      for (auto& b : row) b = rng() % 3 == 0 ? 0 : rng() % 5000;
    const KnownBlocks blocks(bytes);
    expect_forms_match(Problem{p, 0, &topology, {}, &blocks, Operation::alltoallv}, topology.describe() + " alltoallv");
  }
}

TEST(PlanCost, GivesUpAboveItsBound) {
  const Problem problem{16, 1000, nullptr, {}};
  const MachineCost machine = test_machines::fast_crossbar();
  const MachinePricing pricing(machine, nullptr, 16);
  const auto plan = find_algorithm(Operation::alltoall, "shift")->plan(problem);
  const double whole = predict_plan_us(*plan, 16, pricing);
  const double bound = whole / 3;
  const double stopped = predict_plan_us(*plan, 16, pricing, bound);
  EXPECT_GT(stopped, bound);
  EXPECT_LT(stopped, whole);
  EXPECT_LT(plan_round_times_us(*plan, 16, pricing, bound).size(), 15u);
}

}  // namespace
}  // namespace topocoll
