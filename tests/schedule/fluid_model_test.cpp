// The fluid model: max-min sharing worked out by hand, its reading of links alike against every
// link alone, and its agreement with the cost model where both see the same thing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "model/fluid_ranks.hpp"
#include "model/fluid_rounds.hpp"
#include "model/fluid_schedule.hpp"
#include "model/fluid_share.hpp"
#include "model/hierarchical_cost.hpp"
#include "model/plan_cost.hpp"
#include "model/rank_sample.hpp"
#include "network/switch_tree.hpp"
#include "schedule/block_map.hpp"

namespace topocoll {
namespace {

double kNoCap() { return std::numeric_limits<double>::infinity(); }

TEST(FluidShare, FlowsOnOneLinkShareItByTheirPenalties) {
  FluidNetwork fluid;
  const int link = fluid.add_capacity(4.0);
  fluid.add({1.0, 100.0, 0.0, 1.0, kNoCap(), 0, {{link, 1.0}}});
  fluid.add({1.0, 100.0, 0.0, 3.0, kNoCap(), 0, {{link, 1.0}}});
  const std::vector<double> rates = fluid.rates_now();
  ASSERT_EQ(rates.size(), 2u);
  EXPECT_DOUBLE_EQ(rates[0], 3.0);  // shares as 1 / penalty: 3 to 1
  EXPECT_DOUBLE_EQ(rates[1], 1.0);
}

TEST(FluidShare, ACappedFlowLeavesTheRestToTheOthers) {
  FluidNetwork fluid;
  const int link = fluid.add_capacity(10.0);
  fluid.add({1.0, 100.0, 0.0, 1.0, 2.0, 0, {{link, 1.0}}});
  fluid.add({2.0, 100.0, 0.0, 1.0, kNoCap(), 0, {{link, 2.0}}});
  const std::vector<double> rates = fluid.rates_now();
  EXPECT_DOUBLE_EQ(rates[0], 2.0);
  EXPECT_DOUBLE_EQ(rates[1], 4.0);  // two flows alike share the 8 left
}

// Caps bind in the order of their levels as the filling rises, between the capacities: F4's
// cap (1) binds first, then F1's (2); B (6) then fills at 2.5 with F2 and F3, whose cap (100)
// never binds; A (10) keeps room.
TEST(FluidShare, CapsBindInTheOrderOfTheirLevelsBetweenCapacities) {
  FluidNetwork fluid;
  const int a = fluid.add_capacity(10.0), b = fluid.add_capacity(6.0);
  fluid.add({1.0, 100.0, 0.0, 1.0, 2.0, 0, {{a, 1.0}}});
  fluid.add({1.0, 100.0, 0.0, 1.0, kNoCap(), 0, {{a, 1.0}, {b, 1.0}}});
  fluid.add({1.0, 100.0, 0.0, 1.0, 100.0, 0, {{b, 1.0}}});
  fluid.add({1.0, 100.0, 0.0, 1.0, 1.0, 0, {{b, 1.0}}});
  const std::vector<double> rates = fluid.rates_now();
  ASSERT_EQ(rates.size(), 4u);
  EXPECT_DOUBLE_EQ(rates[0], 2.0);
  EXPECT_DOUBLE_EQ(rates[1], 2.5);
  EXPECT_DOUBLE_EQ(rates[2], 2.5);
  EXPECT_DOUBLE_EQ(rates[3], 1.0);
}

// A starts alone and moves 10 of its 20 bytes by the time B starts; then they share 10 bytes/us
// and both end 2 us later.
TEST(FluidShare, AFlowStartsAfterItsLatencyAndAnEndFreesTheLink) {
  FluidNetwork fluid;
  const int link = fluid.add_capacity(10.0);
  fluid.add({1.0, 20.0, 0.0, 1.0, kNoCap(), 0, {{link, 1.0}}});
  fluid.add({1.0, 10.0, 1.0, 1.0, kNoCap(), 0, {{link, 1.0}}});
  EXPECT_NEAR(fluid.run_through(0), 3.0, 1e-9);
  // C then ends at its start plus its bytes at the whole link.
  fluid.add({1.0, 50.0, 4.0, 1.0, kNoCap(), 1, {{link, 1.0}}});
  EXPECT_NEAR(fluid.run_through(1), 9.0, 1e-9);
}

// Flows due in a later round keep moving while the earlier round's end, and share the link.
TEST(FluidShare, FlowsDueLaterKeepMovingThroughTheRounds) {
  FluidNetwork fluid;
  const int link = fluid.add_capacity(10.0);
  fluid.add({1.0, 10.0, 0.0, 1.0, kNoCap(), 0, {{link, 1.0}}});
  fluid.add({1.0, 40.0, 0.0, 1.0, kNoCap(), 1, {{link, 1.0}}});
  EXPECT_NEAR(fluid.run_through(0), 2.0, 1e-9);  // both at 5 until the first ends
  EXPECT_NEAR(fluid.run_through(1), 5.0, 1e-9);  // the 30 left at 10
}

// Four flows read as one class standing for two links alike load each with two flows: the same
// as two flows on one link.
TEST(FluidShare, AClassOverLinksAlikeLoadsEachWithItsShare) {
  FluidNetwork alike, alone;
  const int links = alike.add_capacity(10.0);
  alike.add({4.0, 30.0, 0.0, 1.0, kNoCap(), 0, {{links, 2.0}}});
  const int link = alone.add_capacity(10.0);
  alone.add({2.0, 30.0, 0.0, 1.0, kNoCap(), 0, {{link, 2.0}}});
  EXPECT_NEAR(alike.run_through(0), 6.0, 1e-9);
  EXPECT_NEAR(alone.run_through(0), 6.0, 1e-9);
}

// Flows of one route share it as one (they always move at one rate) yet end one by one, each
// when it has moved its own bytes, whatever their bytes and starts. A (10 B), B (30 B) and D
// (40 B, over a second, wide link) start together on a link of 10 B/us: 10/3 each. C (5 B, A's
// and B's route) starts at 1 us: 2.5 each; C ends at 3 us, A at 3.5 (3.33 each), then B and D
// at 5 each until B ends at 7.5, and D alone at 8.5.
TEST(FluidShare, FlowsOfOneRouteEndOneByOneWhateverTheirBytesAndStarts) {
  FluidNetwork fluid;
  const int link = fluid.add_capacity(10.0);
  const int wide = fluid.add_capacity(100.0);
  fluid.add({1.0, 10.0, 0.0, 1.0, kNoCap(), 0, {{link, 1.0}}});
  fluid.add({1.0, 30.0, 0.0, 1.0, kNoCap(), 0, {{link, 1.0}}});
  fluid.add({1.0, 5.0, 1.0, 1.0, kNoCap(), 0, {{link, 1.0}}});
  fluid.add({1.0, 40.0, 0.0, 1.0, kNoCap(), 0, {{link, 1.0}, {wide, 1.0}}});
  std::vector<double> end(4, -1.0);
  std::vector<std::size_t> ended;
  while (!fluid.idle()) {
    ended.clear();
    const double now = fluid.step(kNoCap(), &ended);
    for (std::size_t id : ended) end[id] = now;
  }
  EXPECT_NEAR(end[0], 3.5, 1e-9);
  EXPECT_NEAR(end[1], 7.5, 1e-9);
  EXPECT_NEAR(end[2], 3.0, 1e-9);
  EXPECT_NEAR(end[3], 8.5, 1e-9);
}

TEST(FluidShare, RefusesAnUnknownCapacity) {
  FluidNetwork fluid;
  EXPECT_THROW(fluid.add({1.0, 1.0, 0.0, 1.0, kNoCap(), 0, {{3, 1.0}}}), std::invalid_argument);
  EXPECT_THROW(fluid.add_capacity(0.0), std::invalid_argument);
}

// A switch tree of `leaves` x `hosts` hosts of `ranks` ranks, its topology (leaf, then host) and
// the host of every rank.
struct Tree {
  network::Network net;
  Topology topology;
  std::vector<int> hosts;
};

Tree tree(int leaves, int hosts, int ranks, double uplink_bytes_per_s = 100e9 / 8) {
  network::SwitchTreeSpec spec;
  spec.uplink_bandwidth = uplink_bytes_per_s;
  spec.leaves = leaves;
  spec.hosts_per_leaf = {hosts};
  spec.ranks_per_host = {ranks};
  Tree t{network::switch_tree_network(spec), {}, {}};
  std::vector<std::vector<int>> groups;
  for (int h = 0; h < leaves * hosts; ++h) {
    for (int r = 0; r < ranks; ++r) {
      groups.push_back({h / hosts, h});
      t.hosts.push_back(h);
    }
  }
  t.topology = ranks > 1 ? Topology({"leaf", "host"}, groups) : Topology({"leaf"}, [&] {
    std::vector<std::vector<int>> leaf_only;
    for (const auto& g : groups) leaf_only.push_back({g[0]});
    return leaf_only;
  }());
  return t;
}

double fluid_us(const Tree& t, const std::string& name, std::size_t block, FluidReading reading, int group_level = -1,
                FluidParameters parameters = {}) {
  Problem problem{t.topology.size(), block, &t.topology, {}};
  problem.knobs.group_level = group_level;
  const Algorithm& algorithm = *find_algorithm(Operation::alltoall, name);
  EXPECT_TRUE(algorithm.supports(problem).ok) << name;
  const std::unique_ptr<RoundPlan> plan = algorithm.plan(problem);
  return fluid_time(*plan, problem.size, t.net, t.hosts, parameters, reading).us;
}

double rounds_us(const Tree& t, const std::string& name, std::size_t block, bool alike, int group_level = -1) {
  Problem problem{t.topology.size(), block, &t.topology, {}};
  problem.knobs.group_level = group_level;
  const std::unique_ptr<RoundPlan> plan = find_algorithm(Operation::alltoall, name)->plan(problem);
  return fluid::time_in_rounds(*plan, problem.size, t.net, t.hosts, {}, alike, RankReading::every_rank).us;
}

// On a symmetric tree these schedules load every host link of a leaf alike, so reading them as
// one capacity per leaf and direction changes nothing; bruck's ranks at a host's edge load their
// host's link alone, which links alike spread over the leaf.
TEST(FluidSchedule, LinksAlikeGiveEveryLinksTimeWhereTheScheduleLoadsThemAlike) {
  const Tree t = tree(2, 4, 4);
  for (std::size_t block : {8u, 1024u, 65536u}) {
    for (const std::string name : {"direct", "pairwise"}) {
      const double alone = rounds_us(t, name, block, false);
      EXPECT_NEAR(rounds_us(t, name, block, true), alone, 1e-9 * alone) << name << ' ' << block;
    }
    const double lg_alone = rounds_us(t, "lg", block, false, 1);
    EXPECT_NEAR(rounds_us(t, "lg", block, true, 1), lg_alone, 1e-9 * lg_alone) << block;
  }
  EXPECT_GT(std::abs(rounds_us(t, "bruck", 65536, true) / rounds_us(t, "bruck", 65536, false) - 1.0), 0.01);
}

// With every round's ranks alike, each rank's pace is the round's: both readings agree.
TEST(FluidSchedule, RankByRankAgreesWithRoundsWhereEveryRankIsAlike) {
  const Tree t = tree(1, 8, 1);
  for (std::size_t block : {8u, 65536u}) {
    for (const std::string name : {"direct", "pairwise", "shift"}) {
      Problem problem{t.topology.size(), block, &t.topology, {}};
      const std::unique_ptr<RoundPlan> plan = find_algorithm(Operation::alltoall, name)->plan(problem);
      const double by_rank = fluid::time_by_rank(*plan, problem.size, t.net, t.hosts, {}).us;
      EXPECT_NEAR(by_rank, rounds_us(t, name, block, false), 1e-9 * by_rank) << name << ' ' << block;
    }
  }
}

// bruck's ranks at a host's edge send across hosts in the early rounds while the others talk
// through the loopback: read rank by rank, those others go on ahead and the schedule ends
// sooner than with rounds that end together.
TEST(FluidSchedule, RanksGoOnAtTheirOwnPace) {
  const Tree t = tree(2, 4, 4);
  Problem problem{t.topology.size(), 64, &t.topology, {}};
  const std::unique_ptr<RoundPlan> plan = find_algorithm(Operation::alltoall, "bruck")->plan(problem);
  const double by_rank = fluid::time_by_rank(*plan, problem.size, t.net, t.hosts, {}).us;
  EXPECT_LT(by_rank, 0.99 * rounds_us(t, "bruck", 64, false));
}

// One rank per host under one leaf (a crossbar): nothing shares a link but a rank's own flows,
// which the cost model prices as the fluid model shares them, so both give the same time when
// the fluid model is told nothing the cost model does not know (no envelope).
TEST(FluidSchedule, AgreesWithTheCostModelOnACrossbar) {
  const Tree t = tree(1, 8, 1);
  FluidParameters parameters;
  parameters.envelope_bytes = 0.0;
  parameters.copy_bytes_per_us = 5000.0;
  const network::Network& net = t.net;
  std::vector<network::Hop> hops;
  net.route(0, 1, hops);
  MachineCost machine;
  const double bandwidth = net.links[static_cast<std::size_t>(hops.front().link)].bandwidth / 1e6;
  machine.levels = {{"leaf", net.latency(hops) * 1e6, bandwidth}};
  machine.injection_bytes_per_us = bandwidth;
  machine.ejection_bytes_per_us = bandwidth;
  machine.copy_bytes_per_us = parameters.copy_bytes_per_us;
  const MachinePricing pricing(machine, &t.topology, t.topology.size());
  for (std::size_t block : {8u, 4096u, 1u << 20}) {
    for (const std::string name : {"direct", "pairwise", "shift"}) {
      Problem problem{t.topology.size(), block, &t.topology, {}};
      const std::unique_ptr<RoundPlan> plan = find_algorithm(Operation::alltoall, name)->plan(problem);
      const double model = predict_plan_us(*plan, problem.size, pricing);
      const double fluid = fluid_time(*plan, problem.size, net, t.hosts, parameters).us;
      EXPECT_NEAR(fluid, model, 1e-6 * model) << name << ' ' << block;
    }
  }
}

// The envelope and the staging copies are what SMPI and the executor add: each makes a
// schedule slower in the model.
TEST(FluidSchedule, ChargesTheEnvelopeAndTheStagedCopies) {
  const Tree t = tree(2, 2, 4);
  FluidParameters bare;
  bare.envelope_bytes = 0.0;
  const double with_envelope = fluid_us(t, "direct", 8, FluidReading::every_link);
  EXPECT_GT(with_envelope, fluid_us(t, "direct", 8, FluidReading::every_link, -1, bare));
  // lg's second round sends each rank's block beside those it collected: staged at 64 B blocks.
  FluidParameters fast_copies;
  fast_copies.copy_bytes_per_us = 1e12;
  EXPECT_GT(fluid_us(t, "lg", 64, FluidReading::every_link, 1),
            fluid_us(t, "lg", 64, FluidReading::every_link, 1, fast_copies) + 0.1);
}

// With SimGrid's cross-traffic each flow loads its way back with 5% of itself: two ranks that
// swap 1 MiB share each direction of their links with 5% of the other's flow.
TEST(FluidSchedule, CrossTrafficLoadsTheWayBack) {
  const Tree t = tree(2, 1, 1);
  FluidParameters with;
  with.crosstraffic = true;
  const double plain = fluid_us(t, "direct", 1 << 20, FluidReading::every_link);
  const double crossed = fluid_us(t, "direct", 1 << 20, FluidReading::every_link, -1, with);
  const double transfer_us = ((1 << 20) + 16.0) / (100e9 / 8 / 1e6);  // bytes over a 100 Gbit/s host link
  EXPECT_NEAR(crossed - plain, 0.05 * transfer_us, 1e-6);
}

// Beyond 320 ranks the automatic reading reads links alike only where the ranks of a leaf post
// alike. An alltoallv whose blocks to the ranks of host 0 are 64 times the others (a hot host)
// loads host 0's link alone, which links alike spreads over its leaf: read link by link, as
// `every-link` reads it, a third slower than links alike. Uniform blocks are read links alike.
TEST(FluidSchedule, TheAutomaticReadingReadsSkewedTrafficLinkByLink) {
  const Tree t = tree(2, 16, 12);  // 384 ranks on 32 hosts
  const int p = t.topology.size();
  ASSERT_GT(p, RankSample::kEveryRankUpTo);
  const auto time = [&](const BlockMap& blocks, FluidReading reading) {
    Problem problem{p, 0, &t.topology, {}, &blocks, Operation::alltoallv};
    const std::unique_ptr<RoundPlan> plan = find_algorithm(Operation::alltoallv, "direct")->plan(problem);
    return fluid_time(*plan, p, t.net, t.hosts, {}, reading);
  };
  std::vector<std::vector<std::size_t>> hot(static_cast<std::size_t>(p), std::vector<std::size_t>(p, 64));
  for (auto& row : hot) std::fill(row.begin(), row.begin() + 12, 4096);
  const KnownBlocks skewed(hot);
  const FluidTime automatic = time(skewed, FluidReading::automatic);
  EXPECT_TRUE(automatic.ranks_differ);
  EXPECT_FALSE(automatic.links_alike);
  EXPECT_DOUBLE_EQ(automatic.us, time(skewed, FluidReading::every_link).us);
  const FluidTime alike = time(skewed, FluidReading::links_alike);
  EXPECT_TRUE(alike.ranks_differ);
  EXPECT_LT(alike.us, 0.8 * automatic.us);  // 983 against 1471 us

  const UniformBlocks uniform(64);
  const FluidTime plain = time(uniform, FluidReading::automatic);
  EXPECT_FALSE(plain.ranks_differ);
  EXPECT_TRUE(plain.links_alike);
  EXPECT_DOUBLE_EQ(plain.us, time(uniform, FluidReading::links_alike).us);
}

// Read by its bottlenecks, a round lasts as long as its most loaded link takes from its first
// flow's start. Every rank of a crossbar of 4 hosts sends 4096 B to rank 0 and 64 B to the
// others: host 0's link in carries three 4096 B flows (and their envelopes) after one latency.
TEST(FluidSchedule, BottlenecksChargeARoundItsMostLoadedLink) {
  const Tree t = tree(1, 4, 1);
  std::vector<std::vector<std::size_t>> to_rank_0(4, std::vector<std::size_t>(4, 64));
  for (auto& row : to_rank_0) row[0] = 4096;
  const KnownBlocks blocks(to_rank_0);
  Problem problem{4, 0, &t.topology, {}, &blocks, Operation::alltoallv};
  const std::unique_ptr<RoundPlan> plan = find_algorithm(Operation::alltoallv, "direct")->plan(problem);
  FluidParameters parameters;
  parameters.copy_bytes_per_us = 1e15;  // copies of no account
  std::vector<network::Hop> hops;
  t.net.route(1, 0, hops);
  const double bandwidth = t.net.links[static_cast<std::size_t>(hops.back().link)].bandwidth / 1e6;
  const double expected = t.net.latency(hops) * 1e6 + 3 * (4096 + 16.0) / bandwidth;
  const FluidTime read = fluid_time(*plan, 4, t.net, t.hosts, parameters, FluidReading::bottlenecks);
  EXPECT_TRUE(read.bottlenecks);
  EXPECT_NEAR(read.us, expected, 1e-6);
  // Max-min keeps that link full too: the exact reading agrees.
  EXPECT_NEAR(fluid_time(*plan, 4, t.net, t.hosts, parameters, FluidReading::every_link).us, expected, 1e-6);
}

// Where every round's flows keep their links full and the ranks are alike, the bottlenecks are
// what max-min gives.
TEST(FluidSchedule, BottlenecksGiveTheExactTimeWhereNoLinkWaits) {
  const Tree t = tree(2, 4, 4);
  for (std::size_t block : {8u, 1024u, 65536u}) {
    for (const std::string name : {"direct", "pairwise"}) {
      const double exact = fluid_us(t, name, block, FluidReading::every_link);
      EXPECT_NEAR(fluid_us(t, name, block, FluidReading::bottlenecks), exact, 1e-9 * exact) << name << ' ' << block;
    }
    const double lg = fluid_us(t, "lg", block, FluidReading::every_link, 1);
    EXPECT_NEAR(fluid_us(t, "lg", block, FluidReading::bottlenecks, 1), lg, 1e-9 * lg) << block;
  }
}

// overlap posts its transfers across leaves in round 0, due by its last round, and runs the
// leaf's shift exchange meanwhile: until they are due, they share the host links with every
// round's flows. With wide uplinks, each host's link out then carries all of its ranks' blocks
// to other hosts, those of the rounds and those across alike.
TEST(FluidSchedule, BottlenecksLoadEveryRoundUntilAnOverlappedMessageIsDue) {
  const Tree t = tree(2, 4, 4, 800e9 / 8);
  const std::size_t block = 65536;
  std::vector<network::Hop> hops;
  t.net.route(0, 4, hops);
  const double bandwidth = t.net.links[static_cast<std::size_t>(hops.front().link)].bandwidth / 1e6;
  const double host_out_us = 4 * (32 - 4) * (block + 16.0) / bandwidth;
  const double read = fluid_us(t, "overlap", block, FluidReading::bottlenecks, 0);
  EXPECT_GE(read, host_out_us);
  EXPECT_LT(read, 1.05 * host_out_us);
}

// Past the exact reading's budget, the automatic reading reads skewed traffic by its
// bottlenecks: `direct` with a hot host over 1024 ranks on 128 hosts (1M messages, each with
// 128 x 128 routes in flight: 1.7e10 > kMostSkewedEveryLinkWork). With wide uplinks the hot
// host's link decides, and links alike spreads its load over its leaf.
TEST(FluidSchedule, TheAutomaticReadingReadsSkewedTrafficPastItsBudgetByItsBottlenecks) {
  const Tree t = tree(4, 32, 8, 3200e9 / 8);
  const int p = t.topology.size();
  std::vector<std::vector<std::size_t>> hot(static_cast<std::size_t>(p), std::vector<std::size_t>(p, 64));
  for (auto& row : hot) std::fill(row.begin(), row.begin() + 8, 4096);
  const KnownBlocks skewed(hot);
  Problem problem{p, 0, &t.topology, {}, &skewed, Operation::alltoallv};
  const std::unique_ptr<RoundPlan> plan = find_algorithm(Operation::alltoallv, "direct")->plan(problem);
  const FluidTime automatic = fluid_time(*plan, p, t.net, t.hosts, {});
  EXPECT_TRUE(automatic.ranks_differ);
  EXPECT_TRUE(automatic.bottlenecks);
  EXPECT_FALSE(automatic.links_alike);
  EXPECT_DOUBLE_EQ(automatic.us, fluid_time(*plan, p, t.net, t.hosts, {}, FluidReading::bottlenecks).us);
  EXPECT_LT(fluid_time(*plan, p, t.net, t.hosts, {}, FluidReading::links_alike).us, 0.8 * automatic.us);
}

TEST(FluidSchedule, RefusesARankOnNoHost) {
  const Tree t = tree(1, 2, 1);
  Problem problem{2, 8, &t.topology, {}};
  const std::unique_ptr<RoundPlan> plan = find_algorithm(Operation::alltoall, "direct")->plan(problem);
  const std::vector<int> nowhere{0, 7};
  EXPECT_THROW(fluid_time(*plan, 2, t.net, nowhere, {}), std::invalid_argument);
}

}  // namespace
}  // namespace topocoll
