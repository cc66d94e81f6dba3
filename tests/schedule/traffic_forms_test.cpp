// Every traffic form (the model fed with an algorithm's peers and bytes, no schedule built) gives
// exactly the time the model reads off the algorithm's real schedule: on flat, two-cluster,
// three-cluster and two-level topologies with shuffled placements, machines where ranks,
// lone messages or the backbone dominate, lg's pieces and overlap's stripes.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "algorithms/registry.hpp"
#include "model/alltoall_traffic.hpp"
#include "model/hierarchical_cost.hpp"
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
      if (!a.build || !a.supports(problem).ok) continue;
      const auto form = predict_from_traffic_us(a.name, problem, pricing);
      ASSERT_TRUE(form) << a.name << " has no traffic form";
      const double read = predict_hierarchical_us(build_full_schedule(a, problem), machine, problem.topology);
      EXPECT_NEAR(*form, read, 1e-9 * std::max(1.0, read)) << a.name << ' ' << where;
    }
  }
}

TEST(TrafficForms, FlatProblems) {
  for (int p = 1; p <= 13; ++p) {
    for (std::size_t b : {std::size_t{0}, std::size_t{1}, std::size_t{4096}}) {
      for (int w : {1, 3}) {
        expect_forms_match(Problem{p, b, nullptr, AlgorithmKnobs{w}},
                           "p=" + std::to_string(p) + " b=" + std::to_string(b));
      }
    }
  }
}

TEST(TrafficForms, TwoAndThreeClusters) {
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

TEST(TrafficForms, ClustersOfNodes) {
  std::mt19937 rng(7);
  for (const auto& sizes : std::vector<std::vector<int>>{{4, 8}, {6, 6, 3}}) {
    const Topology topology = clusters_of(sizes, &rng, 2);
    expect_forms_match(Problem{topology.size(), 300, &topology, {}}, topology.describe());
  }
}

TEST(TrafficForms, LgPieces) {
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

TEST(TrafficForms, OverlapStripes) {
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

}  // namespace
}  // namespace topocoll
