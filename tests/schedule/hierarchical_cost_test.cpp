// The hierarchical cost model: it reproduces Tam and Wang's formulas on a one-level machine with
// their parameters, prices a small two-cluster exchange exactly as worked out by hand, and maps
// a problem's levels onto the calibrated ones by name.
#include "model/hierarchical_cost.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "algorithms/registry.hpp"
#include "model/plan_cost.hpp"
#include "model_machines.hpp"

namespace topocoll {
namespace {

// Every algorithm's Tam-Wang time (the registry's closed form, the paper's equations, for the
// flat ones; read off the schedule for the others) against the hierarchical model on machine_from_tam_wang, with blocks of whole
// packets (the model has bytes, Tam-Wang packets).
TEST(HierarchicalCost, ReproducesTamWangOnOneLevel) {
  for (const Algorithm& a : algorithms_for(Operation::alltoall)) {
    if (!a.has_schedule()) continue;
    for (int p : {2, 3, 7, 8, 16, 31}) {
      const Topology clusters = test_machines::two_clusters(p / 2, p - p / 2);
      const Topology* topology = a.needs_topology ? &clusters : nullptr;
      const TamWangParams tam_wang = TamWangParams::table1(p);
      const MachineCost machine = machine_from_tam_wang(tam_wang);
      for (std::size_t k : {1, 3, 10}) {
        for (int w : {1, 5}) {
          const Problem problem{p, k * tam_wang.packet_bytes, topology, AlgorithmKnobs{w}};
          if (!a.supports(problem).ok) continue;
          const double expected = predict_tam_wang_us(a, problem, tam_wang);
          const double got = predict_hierarchical_us(build_full_schedule(a, problem), machine, topology);
          EXPECT_NEAR(got, expected, 1e-9 * expected) << a.name << " p=" << p << " k=" << k << " w=" << w;
        }
      }
    }
  }
}

TEST(HierarchicalCost, TamWangEquationsAtSixteen) {
  const TamWangParams tw = TamWangParams::table1(16);
  const MachineCost machine = machine_from_tam_wang(tw);
  const double t_w = 12.5 + (0.3387 * 16 + 149) - 123 + 20 + 7;
  const std::size_t k = 10;
  const Problem problem{16, k * 1492, nullptr, AlgorithmKnobs{5}};
  auto predict = [&](const char* name) {
    return predict_hierarchical_us(build_full_schedule(*find_algorithm(Operation::alltoall, name), problem), machine, nullptr);
  };
  EXPECT_NEAR(predict("direct"), k * 15 * 123.0 + t_w, 1e-6);             // eq. (2) = (4)
  EXPECT_NEAR(predict("shift"), k * 123.0 * 15 + 15 * t_w, 1e-6);         // eq. (3)
  EXPECT_NEAR(predict("group-shuffle"), k * 123.0 * 15 + 3 * t_w, 1e-6);  // eq. (5), w = 5
}

// direct on clusters:2,2, worked out by hand. Rank 0 sends 1000 bytes to rank 1 (same cluster)
// and to ranks 2, 3 (across); copies its own block (1 us at 1000 bytes/us).
//  rank:     copy 1 + latency 100 + max(3 * o, o + 3000 / 50) = 1 + 100 + 61 = 162
//  message:  copy 1 + o 1 + 100 + 1000 / 10 = 202 (across)
//  backbone: every rank releases its flows across after its 1000 in-cluster bytes (20 us),
//            within their 100 us latency, which costs nothing: data moves from max(100, 20);
//            4000 bytes each way at 5 bytes/us: start 1 + 1, then 100 + 800: 902
//            (both ways: 8000 bytes at 10 bytes/us, also 902).
//  With a 10 us latency across the release decides: 1 + 1 + 20 + 800 = 822 (rank: 1 + 10 +
//  61 = 72; message: 1 + 1 + 10 + 100 = 112).
TEST(HierarchicalCost, TwoClusterDirectByHand) {
  MachineCost m;
  m.levels = {{"cluster", 100.0, 10.0}, {"same group", 10.0, 100.0}};
  m.send_overhead_us = 1.0;
  m.injection_bytes_per_us = 50.0;
  m.ejection_bytes_per_us = 50.0;
  m.backbone = BackboneCost{"cluster", {{30, 5.0}}, 2.0};
  m.copy_bytes_per_us = 1000.0;
  ASSERT_FALSE(check_machine(m));
  const Topology topology = test_machines::two_clusters(2, 2);
  const Problem problem{4, 1000, &topology, {}};
  const Schedule schedule = build_full_schedule(*find_algorithm(Operation::alltoall, "direct"), problem);
  EXPECT_NEAR(predict_hierarchical_us(schedule, m, &topology), 902.0, 1e-9);
  MachineCost near = m;
  near.levels[0].latency_us = 10.0;
  EXPECT_NEAR(predict_hierarchical_us(schedule, near, &topology), 822.0, 1e-9);

  // A fast backbone: the slowest lone message (202 us) decides.
  m.backbone = BackboneCost{"cluster", {{30, 1000.0}}, 2.0};
  EXPECT_NEAR(predict_hierarchical_us(schedule, m, &topology), 202.0, 1e-9);
}

// The CPU posts a rank's sends, then completes its receives one after another once they have
// arrived: a linear gather of 16-byte blocks to rank 0 of 9, one level (latency 10 us, 100
// bytes/us), o = 1 us.
//  o_r not measured: each receive costs o as a post: 10 + max(8 * 1, 1 + 128 / 100) = 18
//  o_r = 0: 10 + max(0, 1 + 1.28) = 12.28
//  o_r = 2: 10 + max(0 + 7 * 2, 1 + 1.28 + 7 * 2) = 26.28 (the first one's is in the latency),
//           the same as o_r = 0 when the blocks are above the eager limit
//  two ranks: one receive, nothing added (10 + max(1, 1 + 0.16) = 11.16 at the sender).
// And a rank that sends as much as it receives pays both (direct's 8 sends and 8 receives):
//  10 + max(8 * 1 + 0.16 + 7 * 2, 1 + 1.28 + 14) = 32.16.
TEST(HierarchicalCost, ReceivesCompleteAfterThePosts) {
  MachineCost m = test_machines::by_hand();
  const Algorithm& linear = *find_algorithm(Operation::gather, "linear");
  const auto gather_us = [&](int p, std::optional<double> recv_overhead_us) {
    MachineCost machine = m;
    machine.recv_overhead_us = recv_overhead_us;
    EXPECT_FALSE(check_machine(machine));
    const RootedBlocks layout = RootedBlocks::uniform(RootedBlocks::Flow::to_root, 0, p, 16);
    return predict_hierarchical_us(build_full_schedule(linear, Problem::rooted(Operation::gather, layout)), machine,
                                   nullptr);
  };
  EXPECT_NEAR(gather_us(9, std::nullopt), 18.0, 1e-9);
  EXPECT_NEAR(gather_us(9, 0.0), 12.28, 1e-9);
  EXPECT_NEAR(gather_us(9, 2.0), 26.28, 1e-9);
  EXPECT_NEAR(gather_us(2, std::nullopt), 11.16, 1e-9);
  EXPECT_NEAR(gather_us(2, 2.0), 11.16, 1e-9);
  m.recv_overhead_until_bytes = 15;  // the 16-byte blocks are above the eager limit
  EXPECT_NEAR(gather_us(9, 2.0), 12.28, 1e-9);
  m.recv_overhead_until_bytes = 16;
  EXPECT_NEAR(gather_us(9, 2.0), 26.28, 1e-9);

  MachineCost both = m;
  both.recv_overhead_us = 2.0;
  const Problem problem{9, 16, nullptr, {}};
  EXPECT_NEAR(predict_hierarchical_us(build_full_schedule(*find_algorithm(Operation::alltoall, "direct"), problem),
                                      both, nullptr),
              32.16, 1e-9);
  m.recv_overhead_us = -1.0;
  ASSERT_TRUE(check_machine(m));
  EXPECT_NE(check_machine(m)->find("receive overhead"), std::string::npos);
}

// The CPU copies an eager message into the library's buffers while posting it and out of them
// while completing it (MachineCost::eager_copy_bytes_per_us): the gather and direct above with
// o_r = 2 and eager copies at 8 bytes/us (2 us per 16-byte block).
//  gather, the root: c = 8 x 16 / 8 + 7 x 2 = 30: 10 + max(30, 1 + 1.28 + 30) = 42.28;
//  direct: 16 us of copies in, c = 16 + 14 = 30: 10 + max(8 x 1 + 16 + 0.16 + 30, 1 + 1.28 + 30) = 64.16;
//  blocks above the eager limit: no copies, no completions (12.28 and 10 + max(8.16, 2.28) = 18.16),
//  but a rendezvous cost when one is known (below).
TEST(HierarchicalCost, EagerCopiesAndRendezvousTakeTheCpus) {
  MachineCost m = test_machines::by_hand();
  m.recv_overhead_us = 2.0;
  m.recv_overhead_until_bytes = 16;
  m.eager_copy_bytes_per_us = 8.0;
  ASSERT_FALSE(check_machine(m));
  const auto predict_us = [&](const Algorithm& algorithm, const Problem& problem) {
    return predict_hierarchical_us(build_full_schedule(algorithm, problem), m, nullptr);
  };
  const RootedBlocks layout = RootedBlocks::uniform(RootedBlocks::Flow::to_root, 0, 9, 16);
  const auto gather_us = [&] {
    return predict_us(*find_algorithm(Operation::gather, "linear"), Problem::rooted(Operation::gather, layout));
  };
  const auto direct_us = [&] {
    return predict_us(*find_algorithm(Operation::alltoall, "direct"), Problem{9, 16, nullptr, {}});
  };
  EXPECT_NEAR(gather_us(), 42.28, 1e-9);
  EXPECT_NEAR(direct_us(), 64.16, 1e-9);
  m.recv_overhead_until_bytes = 15;
  EXPECT_NEAR(gather_us(), 12.28, 1e-9);
  EXPECT_NEAR(direct_us(), 18.16, 1e-9);

  // Above the limit each message's rendezvous costs its receiver 3 us: the root's c = 8 x 3.
  //  gather: 10 + max(24, 1 + 1.28 + 24) = 36.28; direct: 10 + max(8 x 1 + 0.16 + 24, 1 + 1.28 + 24) = 42.16.
  m.rendezvous_us = 3.0;
  EXPECT_NEAR(gather_us(), 36.28, 1e-9);
  EXPECT_NEAR(direct_us(), 42.16, 1e-9);
  m.recv_overhead_until_bytes = 16;  // eager again: no rendezvous
  EXPECT_NEAR(gather_us(), 42.28, 1e-9);

  m.recv_overhead_until_bytes.reset();
  m.rendezvous_us.reset();
  ASSERT_TRUE(check_machine(m));
  EXPECT_EQ(*check_machine(m), "the eager messages' copy bandwidth needs the eager limit");
  m.eager_copy_bytes_per_us.reset();
  m.rendezvous_us = 3.0;
  ASSERT_TRUE(check_machine(m));
  EXPECT_EQ(*check_machine(m), "the rendezvous cost needs the eager limit");
  m.eager_copy_bytes_per_us = 8.0;
  m.recv_overhead_until_bytes = 16;
  m.eager_copy_bytes_per_us = 0.0;
  ASSERT_TRUE(check_machine(m));
  EXPECT_EQ(*check_machine(m), "the eager messages' copy bandwidth must be positive");
}

// A rooted root copies its own block after posting its messages (LocalCopy::after_posts): a
// linear scatter of 1000-byte blocks from rank 0 of 9, one level (latency 10 us, 100 bytes/us),
// o = 1 us. The root: 10 + max(8 * 1 + 1000 / 100, 1 + 8000 / 100) = 91 while its 1 us copy
// runs (8 posts + 1 = 9 us of CPU): 91, where a copy before the posts made it 92. A 100 us
// copy outlasts the messages: 8 + 100 = 108. Alone (p = 1) the copy is all: 1 us.
TEST(HierarchicalCost, TheRootCopiesItsOwnBlockWhileItsMessagesFly) {
  MachineCost m = test_machines::by_hand();
  m.copy_bytes_per_us = 1000.0;
  ASSERT_FALSE(check_machine(m));
  const Algorithm& linear = *find_algorithm(Operation::scatter, "linear");
  const auto scatter_us = [&](int p, const MachineCost& machine) {
    const RootedBlocks layout = RootedBlocks::uniform(RootedBlocks::Flow::from_root, 0, p, 1000);
    const Schedule schedule = build_full_schedule(linear, Problem::rooted(Operation::scatter, layout));
    EXPECT_TRUE(schedule.ranks[0].rounds[0].copies.at(0).after_posts);
    return predict_hierarchical_us(schedule, machine, nullptr);
  };
  EXPECT_NEAR(scatter_us(9, m), 91.0, 1e-9);
  EXPECT_NEAR(scatter_us(1, m), 1.0, 1e-9);
  MachineCost slow_copies = m;
  slow_copies.copy_bytes_per_us = 10.0;
  EXPECT_NEAR(scatter_us(9, slow_copies), 108.0, 1e-9);
}

TEST(HierarchicalCost, CopiesAloneCostTheirBandwidth) {
  const MachineCost m = test_machines::fast_crossbar();
  const Problem problem{1, 40000, nullptr, {}};
  for (const char* name : {"direct", "shift", "pairwise", "bruck"}) {
    EXPECT_NEAR(predict_hierarchical_us(build_full_schedule(*find_algorithm(Operation::alltoall, name), problem), m, nullptr), 2.0,
                1e-12)
        << name;
  }
}

TEST(HierarchicalCost, BackboneCapacityInterpolatesInFlows) {
  const BackboneCost bb{"cluster", {{10, 100.0}, {110, 50.0}}, 2.0};
  EXPECT_DOUBLE_EQ(bb.capacity_bytes_per_us(1), 100.0);
  EXPECT_DOUBLE_EQ(bb.capacity_bytes_per_us(10), 100.0);
  EXPECT_DOUBLE_EQ(bb.capacity_bytes_per_us(60), 75.0);
  EXPECT_DOUBLE_EQ(bb.capacity_bytes_per_us(110), 50.0);
  EXPECT_DOUBLE_EQ(bb.capacity_bytes_per_us(5000), 50.0);
}

// Two leaves of `hosts` hosts of two ranks each (levels "leaf", "node").
Topology leaves_of_hosts(int hosts) {
  std::vector<std::vector<int>> groups;
  for (int r = 0; r < 4 * hosts; ++r) groups.push_back({r / (2 * hosts), r / 2});
  return Topology({"leaf", "node"}, groups);
}

// What a group passes through its links: each rank its own (100 bytes/us out, 80 in), each host
// at most its link's 150, each leaf the sum of its hosts'.
TEST(HierarchicalCost, GroupsPassWhatTheirRanksAndLinksDo) {
  MachineCost m = test_machines::by_hand();
  m.ejection_bytes_per_us = 80.0;
  const Topology topology = leaves_of_hosts(3);
  EXPECT_EQ(group_links_pass_bytes_per_us(m, topology, 0, true), (std::vector<double>{600.0, 600.0}));
  EXPECT_EQ(group_links_pass_bytes_per_us(m, topology, 1, false), (std::vector<double>(6, 160.0)));
  m.group_links = {{"node", 150.0}};
  EXPECT_EQ(group_links_pass_bytes_per_us(m, topology, 0, true), (std::vector<double>{450.0, 450.0}));
  EXPECT_EQ(group_links_pass_bytes_per_us(m, topology, 0, false), (std::vector<double>{450.0, 450.0}));
  m.group_links = {{"leaf", 200.0}, {"node", 150.0}};
  EXPECT_EQ(group_links_pass_bytes_per_us(m, topology, 0, true), (std::vector<double>{200.0, 200.0}));
  EXPECT_THROW(group_links_pass_bytes_per_us(m, topology, 2, true), std::invalid_argument);
}

// A backbone calibrated on leaves of 2 hosts, at what their links pass (2 x 150 bytes/us): on
// leaves of 8 hosts, pairwise's rounds across the leaves put 8 hosts' bytes on it at once. As a
// limit of its own it passes 300 bytes/us there; where the calibration found it no limit of its
// own (it measured the hosts' links, 300 bytes/us), it widens with the 8 hosts' links, and the
// rounds take what they alone give, as on a backbone of 1200 bytes/us. One that passed 0.8 of
// the calibrated hosts' links passes 0.8 of the larger leaves' (the tree's taper), and never
// less than it measured on smaller leaves.
TEST(HierarchicalCost, ABackboneNoLimitOfItsOwnWidensWithItsGroupsLinks) {
  MachineCost m = test_machines::by_hand();
  m.levels = {{"leaf", 20.0, 100.0}, {"node", 10.0, 100.0}, {"same group", 1.0, 1000.0}};
  m.group_links = {{"node", 150.0}};
  const auto pairwise_us = [&](double backbone, double groups_links, int hosts) {
    m.backbone = BackboneCost{"leaf", {{4, backbone}}, 2.0};
    m.backbone->groups_links_bytes_per_us = groups_links;
    EXPECT_FALSE(check_machine(m));
    const Topology topology = leaves_of_hosts(hosts);
    const Problem problem{topology.size(), 10000, &topology, {}};
    return predict_hierarchical_us(build_full_schedule(*find_algorithm(Operation::alltoall, "pairwise"), problem),
                                   m, &topology);
  };
  EXPECT_DOUBLE_EQ(pairwise_us(300.0, 300.0, 2), pairwise_us(300.0, 0.0, 2));  // the calibrated leaves
  EXPECT_LT(pairwise_us(300.0, 300.0, 8), 0.8 * pairwise_us(300.0, 0.0, 8));
  EXPECT_DOUBLE_EQ(pairwise_us(300.0, 300.0, 8), pairwise_us(1200.0, 0.0, 8));
  EXPECT_DOUBLE_EQ(pairwise_us(240.0, 300.0, 8), pairwise_us(960.0, 0.0, 8));
  EXPECT_DOUBLE_EQ(pairwise_us(240.0, 1200.0, 2), pairwise_us(240.0, 0.0, 2));
  m.backbone->groups_links_bytes_per_us = -1.0;
  ASSERT_TRUE(check_machine(m));
  EXPECT_NE(check_machine(m)->find("groups' links must pass 0"), std::string::npos);
}

std::vector<std::string> mapping(const MachineCost& m, std::vector<std::string> levels) {
  const int p = 4;
  std::vector<std::vector<int>> groups(p, std::vector<int>(levels.size()));
  for (int r = 0; r < p; ++r)
    for (std::size_t l = 0; l < levels.size(); ++l) groups[r][l] = r >> (levels.size() - 1 - l);
  const Topology topology(levels, groups);
  return MachinePricing(m, &topology, p).mapping();
}

TEST(HierarchicalCost, ProblemLevelsMapByNameThenInwards) {
  MachineCost m = test_machines::two_cluster_machine(1250, 1250);  // levels cluster, node
  using V = std::vector<std::string>;
  EXPECT_EQ(mapping(m, {"cluster"}), (V{"cluster", "node"}));                  // same cluster: different nodes
  EXPECT_EQ(mapping(m, {"cluster", "node"}), (V{"cluster", "node", "node"}));  // same node: nothing finer known
  EXPECT_EQ(mapping(m, {"node"}), (V{"node", "node"}));
  EXPECT_EQ(mapping(m, {"site", "cluster", "switch"}), (V{"cluster", "cluster", "node", "node"}));
  EXPECT_EQ(MachinePricing(m, nullptr, 3).mapping(), (V{"cluster"}));  // flat problem: outermost, pessimistic
  m.levels.push_back({"same group", 1.0, 1000.0});
  EXPECT_EQ(mapping(m, {"cluster", "node"}), (V{"cluster", "node", "same group"}));
  EXPECT_EQ(mapping(m, {"cluster"}), (V{"cluster", "node"}));

  const MachineCost crossbar = test_machines::fast_crossbar();  // level node only
  EXPECT_EQ(mapping(crossbar, {"cluster"}), (V{"node", "node"}));
  EXPECT_EQ(mapping(crossbar, {"cluster", "node"}), (V{"node", "node", "node"}));
}

TEST(HierarchicalCost, MachineChecksNameTheProblem) {
  MachineCost m = test_machines::two_cluster_machine(1250, 1250);
  EXPECT_FALSE(check_machine(m));
  m.levels[1].bytes_per_us = 0;
  EXPECT_NE(check_machine(m)->find("level 1 (node)"), std::string::npos);
  m = test_machines::two_cluster_machine(1250, 1250);
  m.backbone->level = "site";
  EXPECT_NE(check_machine(m)->find("'site'"), std::string::npos);
  m = test_machines::two_cluster_machine(1250, 1250);
  m.backbone->one_direction = {{30, 1.0}, {30, 2.0}};
  EXPECT_NE(check_machine(m)->find("increasing flows"), std::string::npos);
}

// overlap on 3 + 3 ranks, 1 MB blocks: each rank keeps 3 flows across in flight (9 MB each
// way, through a 300 B/us backbone) while it sends and receives 2 blocks inside its cluster.
// Priced alone the flows across take 5060 + 9e6 / 300 = 35060 us. With a near flow weighing 3
// flows across, it takes half of a 125 B/us link: after the backbone latency (while the flows
// across are still in it, 632500 B go at full rate) the near blocks need 1367500 / 62.5 =
// 21880 us more, during which the 3 links of a side pass 3 x 62.5 = 187.5 B/us across
// (4102500 B); the other 4897500 B then go at 300 B/us: 16325 us. 5060 + 21880 + 16325 = 43265.
TEST(HierarchicalCost, FlowsInFlightShareTheLinkWithTheRoundsBeside) {
  const Topology topology = test_machines::two_clusters(3, 3);
  const Problem problem{6, 1000000, &topology, {}};
  const Schedule schedule = build_full_schedule(*find_algorithm(Operation::alltoall, "overlap"), problem);
  MachineCost machine = test_machines::two_cluster_machine(300.0, 300.0);
  machine.backbone->one_direction = {{1, 300.0}};
  EXPECT_NEAR(predict_hierarchical_us(schedule, machine, &topology), 35060.0, 1e-6);
  machine.backbone->near_weight = 3.0;
  EXPECT_NEAR(predict_hierarchical_us(schedule, machine, &topology), 43265.0, 1e-6);
  // Heavier near flows cost the flows across more, and the plan read without a schedule agrees.
  machine.backbone->near_weight = 30.0;
  const double heavier = predict_hierarchical_us(schedule, machine, &topology);
  EXPECT_GT(heavier, 43265.0);
  const MachinePricing pricing(machine, &topology, 6);
  EXPECT_NEAR(predict_plan_us(*find_algorithm(Operation::alltoall, "overlap")->plan(problem), 6, pricing), heavier,
              1e-6);
}


// A group capacity (a node's memory): all messages through a group share it. Four ranks,
// 1000-byte blocks on by_hand's level (10 us, 100 bytes/us, o = 1 us), copies free. Without it
// direct takes 10 + max(3 + 10, 1 + 3000 / 100) = 41 us. One node of four at 60 bytes/us:
// 12 messages of 1000 bytes, 1 + 10 + 12000 / 60 = 211 us; pairwise, three rounds of four
// messages: 3 x (1 + 10 + 4000 / 60). Two nodes of two: 2000 bytes each, 1 + 10 + 33.3 = 44.3.
// At a level with a level inside it, only the messages that the inner level separates go
// through the group (a switch does not carry what stays inside a node): 8 of the 12.
TEST(HierarchicalCost, GroupsShareTheirCapacity) {
  MachineCost m = test_machines::by_hand();
  const Problem plain{4, 1000, nullptr, {}};
  const auto us = [&](const char* algorithm, const Topology& topology, const MachineCost& machine) {
    Problem problem = plain;
    problem.topology = &topology;
    EXPECT_FALSE(check_machine(machine));
    return predict_hierarchical_us(build_full_schedule(*find_algorithm(Operation::alltoall, algorithm), problem),
                                   machine, &topology);
  };
  const Topology one_node({"node"}, {{0}, {0}, {0}, {0}});
  const Topology two_nodes({"node"}, {{0}, {0}, {1}, {1}});
  const Topology nodes_in_a_switch({"switch", "node"}, {{0, 0}, {0, 0}, {0, 1}, {0, 1}});
  EXPECT_NEAR(us("direct", one_node, m), 41.0, 1e-9);
  m.group_capacities = {{"node", 60.0}};
  EXPECT_NEAR(us("direct", one_node, m), 211.0, 1e-9);
  EXPECT_NEAR(us("pairwise", one_node, m), 3 * (11.0 + 4000.0 / 60.0), 1e-9);
  EXPECT_NEAR(us("direct", two_nodes, m), 11.0 + 2000.0 / 60.0, 1e-9);
  // A level the problem does not have, or a group of one rank: nothing changes.
  EXPECT_NEAR(us("direct", Topology({"cluster"}, {{0}, {0}, {0}, {0}}), m), 41.0, 1e-9);
  EXPECT_NEAR(us("direct", Topology({"node"}, {{0}, {1}, {2}, {3}}), m), 41.0, 1e-9);
  m.group_capacities = {{"switch", 60.0}};
  EXPECT_NEAR(us("direct", nodes_in_a_switch, m), 11.0 + 8000.0 / 60.0, 1e-9);

  m.group_capacities = {{"node", 60.0}, {"node", 80.0}};
  ASSERT_TRUE(check_machine(m));
  EXPECT_NE(check_machine(m)->find("'node' is listed twice"), std::string::npos);
  m.group_capacities = {{"node", 0.0}};
  ASSERT_TRUE(check_machine(m));
  EXPECT_NE(check_machine(m)->find("must be positive"), std::string::npos);
}

// A group link (a host's adapter under its ranks): what leaves a group shares it one way, what
// enters it the other; a rank's own link then carries only its messages that leave its host.
// by_hand's four ranks, two hosts of two, 1000-byte blocks. Each host sends 4000 bytes out and
// takes 4000 in: at 60 bytes/us direct takes 1 + 10 + 4000 / 60. At 400 bytes/us the host's
// link does not bind, and each rank's own link carries 2000 bytes, not 3000: 10 + max(3 + 10,
// 1 + 2000 / 100) = 31 us where 41 without a link (the message inside the host skips it).
TEST(HierarchicalCost, GroupLinksCarryWhatLeavesTheirGroup) {
  MachineCost m = test_machines::by_hand();
  const auto direct_us = [&](const Topology& topology) {
    EXPECT_FALSE(check_machine(m));
    const Problem problem{topology.size(), 1000, &topology, {}};
    return predict_hierarchical_us(build_full_schedule(*find_algorithm(Operation::alltoall, "direct"), problem), m,
                                   &topology);
  };
  const Topology two_hosts({"node"}, {{0}, {0}, {1}, {1}});
  EXPECT_NEAR(direct_us(two_hosts), 41.0, 1e-9);
  m.group_links = {{"node", 60.0}};
  EXPECT_NEAR(direct_us(two_hosts), 11.0 + 4000.0 / 60.0, 1e-9);
  // Three ranks on host 0, one on host 1: host 1 takes 3000 in and sends 3000 out.
  EXPECT_NEAR(direct_us(Topology({"node"}, {{0}, {0}, {0}, {1}})), 11.0 + 3000.0 / 60.0, 1e-9);
  m.group_links = {{"node", 400.0}};
  EXPECT_NEAR(direct_us(two_hosts), 31.0, 1e-9);
  // Receives completed at 2 us each after the first: c = 4 us after the host's link too.
  m.recv_overhead_us = 2.0;
  m.group_links = {{"node", 60.0}};
  EXPECT_NEAR(direct_us(two_hosts), 11.0 + 4000.0 / 60.0 + 4.0, 1e-9);
  m.recv_overhead_us.reset();
  // A lone group has no link to the rest; groups of one rank have their ranks' own; a level the
  // problem does not have: nothing changes.
  m.group_links = {{"node", 60.0}};
  EXPECT_NEAR(direct_us(Topology({"node"}, {{0}, {0}, {0}, {0}})), 41.0, 1e-9);
  EXPECT_NEAR(direct_us(Topology({"node"}, {{0}, {1}, {2}, {3}})), 41.0, 1e-9);
  EXPECT_NEAR(direct_us(Topology({"cluster"}, {{0}, {0}, {1}, {1}})), 41.0, 1e-9);
  // Links at two levels: two switches of two hosts of two ranks. Each switch sends 4 x 4000
  // bytes out, each host 2 x 6000, each rank 6000 through its own link (10 + max(7 + 10, 1 +
  // 60) = 71 us).
  const Topology hosts_under_switches({"switch", "node"},
                                      {{0, 0}, {0, 0}, {0, 1}, {0, 1}, {1, 2}, {1, 2}, {1, 3}, {1, 3}});
  m.group_links = {{"switch", 25.0}, {"node", 400.0}};
  EXPECT_NEAR(direct_us(hosts_under_switches), 11.0 + 16000.0 / 25.0, 1e-9);
  m.group_links = {{"switch", 1000.0}, {"node", 100.0}};
  EXPECT_NEAR(direct_us(hosts_under_switches), 11.0 + 12000.0 / 100.0, 1e-9);
  m.group_links = {{"switch", 1000.0}, {"node", 400.0}};
  EXPECT_NEAR(direct_us(hosts_under_switches), 71.0, 1e-9);
  // A switch's link alone: the ranks' own links still carry all 7000 bytes (10 + 1 + 70 us).
  m.group_links = {{"switch", 1000.0}};
  EXPECT_NEAR(direct_us(hosts_under_switches), 81.0, 1e-9);

  // overlap keeps its messages across the clusters in flight over the rounds inside them, each
  // priced alone; a host's link still passes all its 2 x 6000 bytes: at least 12000 / 60 us.
  const Topology clusters_of_hosts({"cluster", "node"},
                                   {{0, 0}, {0, 0}, {0, 1}, {0, 1}, {1, 2}, {1, 2}, {1, 3}, {1, 3}});
  m.group_links = {{"node", 60.0}};
  const Problem overlapped{8, 1000, &clusters_of_hosts, {}};
  const auto plan = find_algorithm(Operation::alltoall, "overlap")->plan(overlapped);
  ASSERT_TRUE(plan->keeps_transfers_in_flight());
  EXPECT_GE(predict_plan_us(*plan, 8, MachinePricing(m, &clusters_of_hosts, 8)), 12000.0 / 60.0);

  m.group_links = {{"node", 60.0}, {"node", 80.0}};
  ASSERT_TRUE(check_machine(m));
  EXPECT_NE(check_machine(m)->find("group link 1: level 'node' is listed twice"), std::string::npos);
  m.group_links = {{"node", 0.0}};
  ASSERT_TRUE(check_machine(m));
  EXPECT_NE(check_machine(m)->find("group link 0 (node) must be positive"), std::string::npos);
}

// A group link passes each flow's bytes from its own latency on, and with the bytes each message
// adds (MachineCost::envelope_bytes). Two switches of two hosts of two ranks, 100-byte blocks,
// posts free: host 0 sends 4 messages to host 1 (10 us away, 400 bytes) and 8 to the other
// switch (30 us, 800 bytes) through a 10 bytes/us link: max(10 + 1200 / 10, 30 + 800 / 10) =
// 130 us, where the longest latency first would give 150. With 20 bytes per message:
// max(10 + 1440 / 10, 30 + 960 / 10) = 154. The ranks' own links (1000 bytes/us) do not bind.
TEST(HierarchicalCost, GroupLinksPassEachFlowFromItsLatencyWithItsEnvelope) {
  MachineCost m;
  m.levels = {{"switch", 30.0, 1000.0}, {"node", 10.0, 1000.0}, {"same group", 1.0, 1000.0}};
  m.injection_bytes_per_us = 1000.0;
  m.ejection_bytes_per_us = 1000.0;
  m.group_links = {{"node", 10.0}};
  ASSERT_FALSE(check_machine(m));
  const Topology hosts_under_switches({"switch", "node"},
                                      {{0, 0}, {0, 0}, {0, 1}, {0, 1}, {1, 2}, {1, 2}, {1, 3}, {1, 3}});
  const Problem problem{8, 100, &hosts_under_switches, {}};
  const auto direct_us = [&] {
    return predict_hierarchical_us(build_full_schedule(*find_algorithm(Operation::alltoall, "direct"), problem), m,
                                   &hosts_under_switches);
  };
  EXPECT_NEAR(direct_us(), 130.0, 1e-9);
  m.envelope_bytes = 20.0;
  EXPECT_NEAR(direct_us(), 154.0, 1e-9);
  m.envelope_bytes = -1.0;
  ASSERT_TRUE(check_machine(m));
  EXPECT_NE(check_machine(m)->find("bytes a message adds on the links"), std::string::npos);
}

// The executor stages a small transfer whose pieces lie in several buffers (schedule/
// staging_rule.hpp), and the model charges those copies with the round's. bruck on 8 ranks with
// 8-byte blocks: round 0 receives blocks 1 (into the receive buffer) and 3, 5, 7 (into scratch):
// 32 bytes staged; round 1 sends blocks 2, 6 from the send buffer with 3, 7 from scratch, and
// receives 2, 3 into the receive buffer with 6, 7 into scratch (64 bytes); round 2 sends 4 from
// the send buffer with 5, 6, 7 from scratch (32). At 8 bytes/us on by_hand's machine each round
// is its copies + 10 + 1 + 32 / 100 us, round 0's copies with the rank's own block: (8 + 32) /
// 8 + (64) / 8 + 32 / 8 + 3 x 11.32 = 50.96 us.
TEST(HierarchicalCost, ChargesTheCopiesOfStagedTransfers) {
  MachineCost m = test_machines::by_hand();
  m.copy_bytes_per_us = 8.0;
  const Problem problem{8, 8, nullptr, {}};
  const Algorithm& bruck = *find_algorithm(Operation::alltoall, "bruck");
  EXPECT_NEAR(predict_hierarchical_us(build_full_schedule(bruck, problem), m, nullptr), 50.96, 1e-9);
  EXPECT_NEAR(predict_plan_us(*bruck.plan(problem), 8, MachinePricing(m, nullptr, 8)), 50.96, 1e-9);
  // Blocks beyond what is staged (2 KiB a transfer) go by datatype: no copies but the own block's.
  const Problem large{8, 1024, nullptr, {}};
  const double round_us = 11.0 + 4096.0 / 100.0;
  EXPECT_NEAR(predict_hierarchical_us(build_full_schedule(bruck, large), m, nullptr), 1024.0 / 8 + 3 * round_us, 1e-9);
}

}  // namespace
}  // namespace topocoll
