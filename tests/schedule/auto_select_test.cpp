// `auto` picks what the model predicts: lg on two clusters whose slow backbone collapses under
// many flows (the LG paper's setting), bruck for small blocks and direct for large ones on a
// fast crossbar, never lg where direct moves the same bytes across in one round; predictions
// grow with the block size; the choice is deterministic and has a fallback.
#include "select/auto_select.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "model/hierarchical_cost.hpp"
#include "model/plan_cost.hpp"
#include "model_machines.hpp"
#include "schedule/block_map.hpp"
#include "select/calibration.hpp"

namespace topocoll {
namespace {

double predicted(const AutoChoice& choice, const std::string& name) {
  for (const AlgorithmPrediction& p : choice.predictions)
    if (p.algorithm == name && p.predicted_us) return *p.predicted_us;
  ADD_FAILURE() << name << " has no prediction";
  return 0.0;
}

void expect_choice_is_lowest(const AutoChoice& choice) {
  for (const AlgorithmPrediction& p : choice.predictions) {
    if (p.predicted_us) {
      EXPECT_LE(predicted(choice, choice.algorithm), *p.predicted_us) << p.algorithm;
    }
  }
}

// 30 + 30 nodes, a 1 Gbps backbone (125 bytes/us each way with 30 flows) that falls to a tenth
// with 900 flows: direct's n1*n2 flows per direction crawl, lg's one flow per node pair does not,
// and lg's two rounds beat the 59 rounds (59 backbone latencies) of shift and pairwise.
TEST(AutoSelect, SlowBackbonePicksLgForLargeBlocks) {
  const Topology topology = test_machines::two_clusters(30, 30);
  const MachineCost machine = test_machines::two_cluster_machine(125.0, 12.5);
  for (std::size_t b : {std::size_t{65536}, std::size_t{262144}}) {
    const AutoChoice choice = select_algorithm(Problem{60, b, &topology, {}}, machine);
    EXPECT_EQ(choice.algorithm, "lg") << b << " bytes";
    expect_choice_is_lowest(choice);
    EXPECT_LT(predicted(choice, "lg") * 5, predicted(choice, "direct")) << b << " bytes";
  }
  // The same holds for uneven clusters (two phase-2 steps).
  const Topology uneven = test_machines::two_clusters(20, 40);
  EXPECT_EQ(select_algorithm(Problem{60, 65536, &uneven, {}}, machine).algorithm, "lg");
}

// With no per-message overhead and a backbone that carries as much with many flows as with few
// (SimGrid's flow models), direct is never slower than lg: the same bytes cross, in one round,
// and direct's in-cluster bytes are half of lg's phase 1; overlap, which does not make the
// flows across wait behind those inside, is never slower than direct.
TEST(AutoSelect, FlowFairBackboneNeverPrefersLgOverDirect) {
  const Topology topology = test_machines::two_clusters(30, 30);
  const MachineCost machine = test_machines::two_cluster_machine(1250.0, 1250.0);
  for (std::size_t b = 1; b <= (std::size_t{1} << 22); b *= 4) {
    const AutoChoice choice = select_algorithm(Problem{60, b, &topology, {}}, machine);
    EXPECT_NE(choice.algorithm, "lg") << b;
    EXPECT_LE(predicted(choice, "direct"), predicted(choice, "lg")) << b;
    EXPECT_LE(predicted(choice, "overlap"), predicted(choice, "direct")) << b;
    expect_choice_is_lowest(choice);
  }
  // A per-message overhead makes lg's 30 messages per rank worth more than direct's 59 for small
  // blocks (overlap posts its 30 messages across first, and is quicker still).
  const MachineCost busy_cpu = test_machines::two_cluster_machine(1250.0, 1250.0, 20.0);
  const AutoChoice busy = select_algorithm(Problem{60, 16, &topology, {}}, busy_cpu);
  EXPECT_LT(predicted(busy, "lg"), predicted(busy, "direct"));
  EXPECT_LT(predicted(busy, "overlap"), predicted(busy, "lg"));
}

TEST(AutoSelect, FastCrossbarSmallBlocksBruckLargeDirect) {
  const MachineCost machine = test_machines::fast_crossbar();
  const AutoChoice small = select_algorithm(Problem{64, 8, nullptr, {}}, machine);
  EXPECT_EQ(small.algorithm, "bruck");
  expect_choice_is_lowest(small);
  const AutoChoice large = select_algorithm(Problem{64, 1 << 20, nullptr, {}}, machine);
  EXPECT_EQ(large.algorithm, "direct");
  expect_choice_is_lowest(large);
  // On Tam and Wang's cluster posting a message costs 12.5 us: direct wins even for 1 byte.
  EXPECT_EQ(
      select_algorithm(Problem{16, 1, nullptr, {}}, machine_from_tam_wang(TamWangParams::table1(16))).algorithm,
      "direct");
}

TEST(AutoSelect, PredictionsGrowWithBlockSize) {
  const Topology clusters = test_machines::two_clusters(5, 11);
  const std::vector<MachineCost> machines = {
      test_machines::two_cluster_machine(125.0, 12.5, 2.0), test_machines::two_cluster_machine(1250.0, 1250.0),
      test_machines::fast_crossbar(), machine_from_tam_wang(TamWangParams::table1(16))};
  for (const MachineCost& machine : machines) {
    for (const Topology* topology : {static_cast<const Topology*>(nullptr), &clusters}) {
      std::vector<AlgorithmPrediction> before;
      for (std::size_t b : {0, 1, 2, 3, 64, 1000, 1492, 4096, 65536, 100000, 1 << 20}) {
        const AutoChoice choice = select_algorithm(Problem{16, b, topology, {}}, machine);
        for (std::size_t i = 0; i < before.size(); ++i) {
          if (!before[i].predicted_us) continue;
          ASSERT_TRUE(choice.predictions[i].predicted_us) << choice.predictions[i].algorithm;
          EXPECT_LE(*before[i].predicted_us, *choice.predictions[i].predicted_us)
              << choice.predictions[i].algorithm << " at " << b << " bytes";
        }
        before = choice.predictions;
      }
    }
  }
}

// Stopping a prediction once it exceeds the best so far never changes the choice, and what a
// stopped prediction reports is a lower bound above the chosen time.
TEST(AutoSelect, ChoosingWithoutFullPredictionsPicksTheSame) {
  const Topology clusters = test_machines::two_clusters(9, 14);
  const std::vector<MachineCost> machines = {test_machines::two_cluster_machine(125.0, 12.5, 2.0),
                                             test_machines::two_cluster_machine(1250.0, 1250.0),
                                             test_machines::fast_crossbar()};
  int stopped = 0;
  for (const MachineCost& machine : machines) {
    for (std::size_t b : {1, 100, 4096, 65536, 1 << 20}) {
      const Problem problem{23, b, &clusters, {}};
      const AutoChoice all = select_algorithm(problem, machine);
      const AutoChoice enough = select_algorithm(problem, machine, Predictions::enough_to_choose);
      EXPECT_EQ(enough.algorithm, all.algorithm) << b;
      for (std::size_t i = 0; i < all.predictions.size(); ++i) {
        if (!all.predictions[i].predicted_us) continue;
        const double full = *all.predictions[i].predicted_us, partial = *enough.predictions[i].predicted_us;
        EXPECT_FALSE(all.predictions[i].at_least);
        if (enough.predictions[i].at_least) {
          ++stopped;
          EXPECT_LE(partial, full);
          EXPECT_GT(partial, predicted(all, all.algorithm));
        } else {
          EXPECT_EQ(partial, full);
        }
      }
    }
  }
  EXPECT_GT(stopped, 10);
}

// The same where an algorithm's knobs are chosen: its simplest setting within 0.5% of its best
// one is what runs, also when pricing stopped that setting above the best algorithm so far
// (overlap over the leaves, stopped above direct, was within 0.5% of overlap over the hosts,
// which the stopped pricing alone took). 1024 ranks, 16 per host, the node-aware study's
// calibration (host links shared by their ranks, read from a sample of ranks).
TEST(AutoSelect, ChoosingWithoutFullPredictionsKeepsTheSimplestKnobs) {
  std::string error;
  const auto calibration =
      load_calibration(std::string(TOPOCOLL_SOURCE_DIR) + "/results/node-aware/fat-4x16x16.calibration.json", &error);
  ASSERT_TRUE(calibration) << error;
  std::vector<std::vector<int>> groups;
  for (int r = 0; r < 1024; ++r) groups.push_back({r / 256, r / 16});
  const Topology hosts_under_leaves({"leaf", "node"}, groups);
  for (std::size_t b : {8, 64, 1024, 65536}) {
    const Problem problem{1024, b, &hosts_under_leaves, {}};
    const AutoChoice all = select_algorithm(problem, *calibration);
    const AutoChoice enough = select_algorithm(problem, *calibration, Predictions::enough_to_choose);
    EXPECT_EQ(describe_run(enough.algorithm, enough.knobs, problem.operation),
              describe_run(all.algorithm, all.knobs, problem.operation))
        << b << " B";
  }
}

// 30 + 30 nodes, 16 MiB blocks, a backbone of 1250 bytes/us each way: 900 blocks per direction
// take 12.08 s on it, a node's 59 blocks 7.9 s on its link, so the backbone bounds the exchange.
// Where a flow inside its group weighs 110 flows across (CM02's latency-weighted sharing), one
// overlap flow inside beside 30 across takes 110 / 140 of a node's link: the 30 get 26.8
// bytes/us, 804 per cluster, and the backbone idles while the flows inside last. With two
// stripes (60 flows across) they would get 44 bytes/us, more than the backbone's 41.7 per node:
// at the bound. Without the weight (not measured) one stripe does as well, and auto keeps one.
TEST(AutoSelect, StripesWinTheLinkBackWhereSharingFavoursShortRoutes) {
  const Topology topology = test_machines::two_clusters(30, 30);
  const std::size_t b = std::size_t{1} << 24;
  const double bound_us = 900.0 * static_cast<double>(b) / 1250.0 + 5060.0;
  MachineCost biased = test_machines::two_cluster_machine(1250.0, 1250.0);
  biased.backbone->near_weight = 110.0;
  const AutoChoice choice = select_algorithm(Problem{60, b, &topology, {}}, biased);
  EXPECT_EQ(choice.algorithm, "overlap");
  EXPECT_EQ(choice.knobs.stripes, 2);
  EXPECT_NEAR(predicted(choice, "overlap"), bound_us, 0.001 * bound_us);
  Problem one_stripe{60, b, &topology, {}};
  one_stripe.knobs.stripes = 1;
  const AutoChoice fixed = select_algorithm(one_stripe, biased);
  EXPECT_GT(predicted(fixed, "overlap"), 1.05 * bound_us);  // the caller's count is kept
  for (const AlgorithmPrediction& p : fixed.predictions) EXPECT_EQ(p.knobs.stripes, p.predicted_us ? 1 : 0);

  const AutoChoice unbiased =
      select_algorithm(Problem{60, b, &topology, {}}, test_machines::two_cluster_machine(1250.0, 1250.0));
  EXPECT_EQ(unbiased.algorithm, "overlap");
  EXPECT_EQ(unbiased.knobs.stripes, 1);
  EXPECT_NEAR(predicted(unbiased, "overlap"), bound_us, 0.001 * bound_us);
}

TEST(AutoSelect, ListsEveryAlgorithmAndSaysWhyNot) {
  const AutoChoice choice = select_algorithm(Problem{8, 64, nullptr, {}}, test_machines::fast_crossbar());
  ASSERT_EQ(choice.predictions.size(), algorithms_for(Operation::alltoall).size());
  for (const AlgorithmPrediction& p : choice.predictions) {
    if (p.algorithm == "lg" || p.algorithm == "overlap" || p.algorithm == "mlfm") {
      EXPECT_NE(p.note.find("not applicable"), std::string::npos) << p.note;
    } else if (p.algorithm == "linkaware") {  // what it improves, the model sees only on a network
      EXPECT_NE(p.note.find("not considered without a network's routes"), std::string::npos) << p.note;
      EXPECT_FALSE(p.predicted_us);
    } else if (p.algorithm == "native") {
      EXPECT_NE(p.note.find("not modelled"), std::string::npos) << p.note;
    } else {
      EXPECT_EQ(p.note, "from its rounds") << p.algorithm;
      EXPECT_EQ(p.knobs.stripes, 0) << p.algorithm;
    }
  }
}

TEST(AutoSelect, DeterministicWithAFallback) {
  const Topology topology = test_machines::two_clusters(7, 9);
  const Problem problem{16, 3000, &topology, {}};
  Calibration calibration;
  calibration.levels = {{"cluster", 0, 7, 500.0, 1e8, {}}, {"node", 0, 1, 20.0, 1e9, {}}};
  calibration.node = {8, 1e9, 1e9};
  calibration.copy = {5e9, "given"};
  const AutoRun first = choose_algorithm(problem, calibration);
  EXPECT_EQ(first.algorithm, select_algorithm(problem, calibration).algorithm);
  EXPECT_EQ(first.knobs, select_algorithm(problem, calibration).knobs);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(choose_algorithm(problem, calibration).algorithm, first.algorithm);
    EXPECT_EQ(choose_algorithm(problem, calibration).knobs, first.knobs);
  }

  calibration.node.injection_bytes_per_s = 0;  // not a machine: nothing can be predicted
  const AutoChoice none = select_algorithm(problem, calibration);
  EXPECT_TRUE(none.algorithm.empty());
  EXPECT_NE(none.predictions.front().note.find("injection"), std::string::npos);
  EXPECT_EQ(choose_algorithm(problem, calibration).algorithm, "pairwise");
  EXPECT_EQ(choose_algorithm(problem, calibration).knobs, problem.knobs);
}

// Gather of 1-byte blocks to rank 0 over two clusters 5 ms apart: binomial crosses the backbone
// in two of its rounds (relative ranks 0 -> 32 and 28 -> 30), topo once (its leaders' phase),
// so topo is predicted at least one backbone latency faster, and auto, which tries topo with a
// binomial tree or a star in each phase, never picks binomial there.
TEST(AutoSelect, GatherOverASlowBackboneCrossesItOnce) {
  const Topology topology = test_machines::two_clusters(30, 30);
  const MachineCost machine = test_machines::two_cluster_machine(125.0, 12.5);
  const RootedBlocks layout = RootedBlocks::uniform(RootedBlocks::Flow::to_root, 0, 60, 1);
  const AutoChoice choice = select_algorithm(Problem::rooted(Operation::gather, layout, &topology), machine);
  ASSERT_FALSE(choice.algorithm.empty());
  expect_choice_is_lowest(choice);
  EXPECT_NE(choice.algorithm, "binomial");
  EXPECT_GT(predicted(choice, "binomial"), predicted(choice, "topo") + 4000.0);
  for (const char* name : {"linear", "binomial", "topo"}) EXPECT_GT(predicted(choice, name), 5060.0) << name;
  EXPECT_EQ(choose_algorithm(Problem::rooted(Operation::gather, layout, &topology), machine,
                             algorithms_for(Operation::gather))
                .algorithm,
            choice.algorithm);
}

// A v form's size questions are priced as a round before the algorithm's (the executor
// exchanges them first): lg on two clusters of 8 asks each rank's 7 cluster peers, so with 1 us to
// post a message its alltoallv costs at least 7 posts more than its rounds; direct asks nothing.
TEST(AutoSelect, AVFormPaysForItsSizeQuestions) {
  const Topology topology = test_machines::two_clusters(8, 8);
  MachineCost machine = test_machines::fast_crossbar();
  machine.levels = {{"cluster", 5.0, 10000.0}, {"node", 1.0, 10000.0}};
  machine.send_overhead_us = 1.0;
  const KnownBlocks blocks(std::vector<std::vector<std::size_t>>(16, std::vector<std::size_t>(16, 16)));
  Problem v{16, 0, &topology, {}, &blocks, Operation::alltoallv};
  const MachinePricing pricing(machine, &topology, 16);
  const auto predicted = [&](const AutoChoice& choice, const char* name) {
    return *std::find_if(choice.predictions.begin(), choice.predictions.end(),
                         [&](const AlgorithmPrediction& p) { return p.algorithm == name; });
  };
  const AutoChoice choice = select_algorithm(v, machine);
  for (const char* name : {"lg", "direct"}) {
    const Algorithm& algorithm = *find_algorithm(Operation::alltoallv, name);
    const double rounds_us = predict_plan_us(*algorithm.plan(v), 16, pricing);
    const AlgorithmPrediction prediction = predicted(choice, name);
    if (algorithm.size_questions != nullptr) {
      EXPECT_GE(*prediction.predicted_us, rounds_us + 7 * machine.send_overhead_us) << name;
      EXPECT_NE(prediction.note.find("size exchange"), std::string::npos) << prediction.note;
    } else {
      EXPECT_DOUBLE_EQ(*prediction.predicted_us, rounds_us) << name;
    }
  }
  ASSERT_NE(find_algorithm(Operation::alltoallv, "lg")->size_questions, nullptr);
  // MPI_Alltoall asks no sizes: lg's prediction is its rounds'.
  const Problem uniform{16, 16, &topology, {}};
  EXPECT_DOUBLE_EQ(*predicted(select_algorithm(uniform, machine), "lg").predicted_us,
                   predict_plan_us(*find_algorithm(Operation::alltoall, "lg")->plan(uniform), 16, pricing));
  // The executor's stand-in for an alltoallv with even traffic: equal blocks (no layout), the
  // alltoallv's operation. It pays the size exchange as the call does, and prices like the
  // real equal blocks.
  Problem even = uniform;
  even.operation = Operation::alltoallv;
  const AlgorithmPrediction lg_even = predicted(select_algorithm(even, machine), "lg");
  EXPECT_NE(lg_even.note.find("size exchange"), std::string::npos) << lg_even.note;
  EXPECT_NEAR(*lg_even.predicted_us, *predicted(choice, "lg").predicted_us, 1e-9);
}

}  // namespace
}  // namespace topocoll

namespace topocoll {
namespace {

// The v forms' auto chooses by the average block's class: averages that drift by a few bytes
// share a choice (and a cache entry), classes keep six leading bits (within 1/32).
TEST(AverageBlockClass, DriftingAveragesShareAClass) {
  EXPECT_EQ(average_block_class(0), 0u);
  EXPECT_EQ(average_block_class(63), 63u);  // small sizes are exact
  EXPECT_EQ(average_block_class(64), 64u);
  EXPECT_EQ(average_block_class(65), 64u);
  EXPECT_EQ(average_block_class(100000), average_block_class(100001));
  for (std::size_t bytes = 1; bytes < (std::size_t{1} << 40); bytes = bytes * 3 + 1) {
    const std::size_t cls = average_block_class(bytes);
    EXPECT_LE(cls, bytes);
    EXPECT_GT(double(cls), double(bytes) * (1.0 - 1.0 / 32.0)) << bytes;
    EXPECT_EQ(average_block_class(cls), cls) << "a class is its own class";
  }
}

}  // namespace
}  // namespace topocoll
