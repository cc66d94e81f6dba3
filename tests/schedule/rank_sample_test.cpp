// The cost model's sample of ranks (model/rank_sample.hpp): every rank up to the threshold;
// beyond, strata keep their sizes and edges; and auto's predictions from the sample stay close
// to reading every rank, with the same best algorithm, on two and three clusters, a two-level
// topology, machines with and without a backbone (and with latency-weighted link sharing), at
// block sizes where latency and where bandwidth dominate.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "algorithms/registry.hpp"
#include "model/plan_cost.hpp"
#include "model/rank_sample.hpp"
#include "model_machines.hpp"

namespace topocoll {
namespace {

TEST(RankSample, EveryRankUpToTheThreshold) {
  for (int p : {1, 7, RankSample::kEveryRankUpTo}) {
    const RankSample sample({}, p, RankReading::sampled_at_scale);
    ASSERT_TRUE(sample.every_rank());
    ASSERT_EQ(sample.ranks().size(), static_cast<std::size_t>(p));
    for (int r = 0; r < p; ++r) {
      EXPECT_EQ(sample.ranks()[r].rank, r);
      EXPECT_EQ(sample.ranks()[r].weight, 1.0);
      EXPECT_EQ(sample.slot(r), r);
    }
  }
  EXPECT_TRUE(RankSample({}, 5000, RankReading::every_rank).every_rank());
  EXPECT_FALSE(RankSample({}, RankSample::kEveryRankUpTo + 1, RankReading::sampled_at_scale).every_rank());
}

TEST(RankSample, StrataKeepTheirSizesAndEdges) {
  // Strata of 1, 2, 500, 3000 and 7 ranks, interleaved over the communicator.
  const std::vector<int> sizes = {1, 2, 500, 3000, 7};
  std::vector<int> stratum_of;
  std::vector<int> left = sizes;
  for (bool any = true; any;) {
    any = false;
    for (std::size_t s = 0; s < left.size(); ++s) {
      if (left[s] == 0) continue;
      stratum_of.push_back(static_cast<int>(s));
      --left[s];
      any = true;
    }
  }
  const int p = static_cast<int>(stratum_of.size());
  const RankSample sample(stratum_of, p, RankReading::sampled_at_scale);
  ASSERT_FALSE(sample.every_rank());
  std::map<int, double> weight_of_stratum;
  std::set<int> seen;
  for (std::size_t i = 0; i < sample.ranks().size(); ++i) {
    const SampledRank& s = sample.ranks()[i];
    EXPECT_TRUE(seen.insert(s.rank).second) << "rank " << s.rank << " sampled twice";
    EXPECT_EQ(sample.slot(s.rank), static_cast<int>(i));
    weight_of_stratum[stratum_of[s.rank]] += s.weight;
  }
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    EXPECT_NEAR(weight_of_stratum[static_cast<int>(s)], sizes[s], 1e-9) << "stratum " << s;
    int first = -1, last = -1;
    for (int r = 0; r < p; ++r) {
      if (stratum_of[r] != static_cast<int>(s)) continue;
      if (first < 0) first = r;
      last = r;
    }
    EXPECT_GE(sample.slot(first), 0) << "stratum " << s << " lost its first rank";
    EXPECT_GE(sample.slot(last), 0) << "stratum " << s << " lost its last rank";
    EXPECT_EQ(sample.ranks()[sample.slot(first)].weight, 1.0);
  }
  EXPECT_LE(sample.ranks().size(), static_cast<std::size_t>(RankSample::kSampledRanks + 3 * 5));
}

Topology clusters_with_nodes(const std::vector<int>& sizes, int ranks_per_node) {
  std::vector<std::vector<int>> groups;
  int node = 0;
  for (int c = 0; c < static_cast<int>(sizes.size()); ++c) {
    for (int i = 0; i < sizes[c]; ++i) groups.push_back({c, node + i / ranks_per_node});
    node += (sizes[c] + ranks_per_node - 1) / ranks_per_node;
  }
  return Topology({"cluster", "node"}, groups);
}

Topology clusters(const std::vector<int>& sizes) {
  std::vector<std::vector<int>> groups;
  for (int c = 0; c < static_cast<int>(sizes.size()); ++c)
    for (int i = 0; i < sizes[c]; ++i) groups.push_back({c});
  return Topology({"cluster"}, groups);
}

TEST(RankSample, PredictionsStayCloseToEveryRank) {
  MachineCost rtt_biased = test_machines::two_cluster_machine(1250.0, 1250.0, 1.0);
  rtt_biased.backbone->near_weight = 110.0;
  const std::vector<std::pair<std::string, MachineCost>> machines = {
      {"backbone", test_machines::two_cluster_machine(1250.0, 1250.0)},
      {"rtt-biased", rtt_biased},
      {"crossbar", test_machines::fast_crossbar()}};
  const std::vector<std::pair<std::string, Topology>> topologies = {
      {"320+320", clusters({320, 320})},
      {"200+440", clusters({200, 440})},
      {"150+200+290", clusters({150, 200, 290})},
      {"(300+340) x nodes of 16", clusters_with_nodes({300, 340}, 16)}};
  for (const auto& [topology_name, topology] : topologies) {
    const int p = topology.size();
    for (const auto& [machine_name, machine] : machines) {
      const MachinePricing every(machine, &topology, p, RankReading::every_rank);
      const MachinePricing sampled(machine, &topology, p, RankReading::sampled_at_scale);
      ASSERT_FALSE(sampled.sample().every_rank());
      for (std::size_t b : {std::size_t{16}, std::size_t{65536}}) {
        const Problem problem{p, b, &topology, AlgorithmKnobs{4}};
        std::string best_every, best_sampled;
        double best_every_us = 0, best_sampled_us = 0;
        for (const Algorithm& a : algorithms_for(Operation::alltoall)) {
          // (auto prices an algorithm that reads routes only where every rank is read)
          if (!a.has_schedule() || !a.not_for_auto.empty() || a.reads_routes || !a.supports(problem).ok) continue;
          const auto plan = a.plan(problem);
          const double exact = predict_plan_us(*plan, p, every);
          const double estimate = predict_plan_us(*plan, p, sampled);
          const std::string where = std::string(a.name) + " on " + topology_name + ", " + machine_name + ", " +
                                    std::to_string(b) + " B";
          // bruck's messages cross to another group only for ranks within 2^k of a group's edge in
          // round k: the sample's interior ranks stand for stretches that are partly inside them.
          const double tolerance = a.name == "bruck" ? 0.12 : 0.04;
          EXPECT_NEAR(estimate / exact, 1.0, tolerance) << where << ": every rank " << exact << " us, sample "
                                                        << estimate << " us";
          if (best_every.empty() || exact < best_every_us) best_every = a.name, best_every_us = exact;
          if (best_sampled.empty() || estimate < best_sampled_us) best_sampled = a.name, best_sampled_us = estimate;
        }
        // Where two algorithms are within the sample's error of each other either may be best.
        if (best_every != best_sampled) {
          EXPECT_NEAR(best_sampled_us / best_every_us, 1.0, 0.04)
              << topology_name << ", " << machine_name << ", " << b << " B: best " << best_every << " (every rank), "
              << best_sampled << " (sample)";
        }
      }
    }
  }
}

// Pricing a plan from its sampled ranks and rounds gives the time read off its recorded
// schedule with the same sample: overlap's stripes told as pieces, and direct's and overlap's
// runs of peers told at once, match their messages one by one, and the rounds posting
// transfers kept in flight are found in both.
TEST(RankSample, PlanAndRecordedScheduleAgreeWhenSampled) {
  const Topology topology = clusters({150, 250});
  MachineCost rtt_biased = test_machines::two_cluster_machine(1250.0, 1250.0, 1.0);
  rtt_biased.backbone->near_weight = 110.0;
  const MachinePricing sampled(rtt_biased, &topology, 400);
  ASSERT_FALSE(sampled.sample().every_rank());
  for (const char* name : {"overlap", "lg", "shift", "direct"}) {
    for (int stripes : {1, 3}) {
      Problem problem{400, 1000, &topology, AlgorithmKnobs{4}};
      problem.knobs.stripes = stripes;
      const Algorithm& a = *find_algorithm(Operation::alltoall, name);
      const double from_plan = predict_plan_us(*a.plan(problem), 400, sampled);
      const Schedule schedule = build_full_schedule(a, problem);
      const double from_schedule = predict_plan_us(RecordedRounds(schedule), 400, sampled);
      EXPECT_DOUBLE_EQ(from_plan, from_schedule) << name << " with " << stripes << " stripes";
    }
  }
}

// Direct on (300 + 340) ranks in nodes of 16, where `limited` has a group limit that `without`
// lacks: the limit must matter (the exact price above `at_least` times the price without it),
// and the sample must price it within 4% of reading every rank.
void expect_sample_reads_the_limit(const MachineCost& limited, const MachineCost& without, double at_least) {
  const Topology topology = clusters_with_nodes({300, 340}, 16);
  const int p = topology.size();
  const MachinePricing every(limited, &topology, p, RankReading::every_rank);
  const MachinePricing sampled(limited, &topology, p, RankReading::sampled_at_scale);
  const MachinePricing plain(without, &topology, p, RankReading::every_rank);
  for (std::size_t b : {std::size_t{65536}, std::size_t{1} << 20}) {
    const Problem problem{p, b, &topology, AlgorithmKnobs{4}};
    const auto plan = find_algorithm(Operation::alltoall, "direct")->plan(problem);
    const double exact = predict_plan_us(*plan, p, every);
    EXPECT_GT(exact, at_least * predict_plan_us(*plan, p, plain)) << b << " B: the limit must matter here";
    EXPECT_NEAR(predict_plan_us(*plan, p, sampled) / exact, 1.0, 0.04) << b << " B";
  }
}

// With a group capacity (nodes of 16 ranks passing 1/80 of what their links do among
// themselves), the sample prices a group's traffic as the mean group's: right for direct, whose
// one round spreads it over every group. What it cannot see: a round that concentrates it on a
// few ranks of one group (pairwise's partner k - r meets in one node per round), and, where
// rounds are sampled, the few rounds that have any (overlap's first shift rounds); only reading
// every rank (up to 320) shows those (docs/algorithms.md).
TEST(RankSample, GroupCapacityAtScaleIsTheMeanGroups) {
  MachineCost node_memory = test_machines::fast_crossbar();
  node_memory.group_capacities = {{"node", 2000.0}};
  MachineCost without = node_memory;
  without.group_capacities.clear();
  expect_sample_reads_the_limit(node_memory, without, 1.2);
}

// The same with a group link (hosts of 16 ranks whose adapter passes 1/8 of what their links
// do): the sample prices what leaves a host as the mean host's share, right for direct.
TEST(RankSample, GroupLinkAtScaleIsTheMeanGroups) {
  MachineCost shared_adapter = test_machines::fast_crossbar();
  shared_adapter.group_links = {{"node", 20000.0}};
  MachineCost without = shared_adapter;
  without.group_links.clear();
  expect_sample_reads_the_limit(shared_adapter, without, 4.0);
}

}  // namespace
}  // namespace topocoll
