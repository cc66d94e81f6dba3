// binomial and topo, the scatter and gather trees: every p 1..64 and every root verified, on
// two- and three-level topologies with groups of unequal sizes (roots that lead their groups
// and roots that would not), with stars in any phase; and the shapes that make them what they
// are: binomial's ceil(log2 p) rounds and messages at the root; topo's one message into each
// group from outside it.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "schedule/verifier.hpp"

namespace topocoll {
namespace {

using Flow = RootedBlocks::Flow;

int ceil_log2(int p) {
  int levels = 0;
  while ((1 << levels) < p) ++levels;
  return levels;
}

// Clusters of sizes 1, 2, 3, ... (the last one the remainder) with nodes of three ranks (the
// last node of a cluster may be short): groups of unequal sizes at both levels.
Topology uneven_two_levels(int p) {
  std::vector<std::vector<int>> groups(static_cast<std::size_t>(p));
  int cluster = 0, in_cluster = 0, node = 0, in_node = 0;
  for (int r = 0; r < p; ++r) {
    if (in_cluster == cluster + 1) {
      ++cluster;
      in_cluster = 0;
      ++node;
      in_node = 0;
    } else if (in_node == 3) {
      ++node;
      in_node = 0;
    }
    groups[static_cast<std::size_t>(r)] = {cluster, node};
    ++in_cluster;
    ++in_node;
  }
  return Topology({"cluster", "node"}, groups);
}

// Three levels, nested: racks (rank r in rack r % 3, so group members are not consecutive
// ranks), switches of 6 and nodes of 2 of a rack's ranks.
Topology interleaved_three_levels(int p) {
  std::vector<std::vector<int>> groups(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) {
    const int rack = r % 3, within = r / 3;
    groups[static_cast<std::size_t>(r)] = {rack, rack * 100 + within / 6, rack * 1000 + within / 2};
  }
  // Dense ids per level, as the Topology contract wants.
  for (int level = 0; level < 3; ++level) {
    std::vector<int> seen;
    for (auto& g : groups) {
      auto it = std::find(seen.begin(), seen.end(), g[level]);
      if (it == seen.end()) it = seen.insert(seen.end(), g[level]);
      g[level] = static_cast<int>(it - seen.begin());
    }
  }
  return Topology({"rack", "switch", "node"}, groups);
}

void expect_verified(const Algorithm& algorithm, Operation op, int p, int root, const Topology* topology,
                     unsigned star_phases, const std::string& what, unsigned skipped_levels = 0) {
  const Flow flow = RootedBlocks::flow_of(op);
  const RootedBlocks uniform = RootedBlocks::uniform(flow, root, p, 3);
  std::vector<std::size_t> bytes(static_cast<std::size_t>(p)), displacements(static_cast<std::size_t>(p));
  std::size_t at = 0;
  for (int d = p - 1; d >= 0; --d) {  // reverse order, a gap after each, some empty
    bytes[static_cast<std::size_t>(d)] = static_cast<std::size_t>((d * 5 + root) % 4);
    displacements[static_cast<std::size_t>(d)] = at;
    at += bytes[static_cast<std::size_t>(d)] + 2;
  }
  const RootedBlocks varied(flow, root, bytes, displacements);
  for (const RootedBlocks* layout : {&uniform, &varied}) {
    Problem problem = Problem::rooted(layout == &uniform ? op : (flows_from_root(op) ? Operation::scatterv
                                                                                      : Operation::gatherv),
                                      *layout, topology);
    problem.knobs.topo_linear_phases = star_phases;
    problem.knobs.topo_skipped_levels = skipped_levels;
    ASSERT_TRUE(algorithm.supports(problem).ok) << what << ": " << algorithm.supports(problem).reason;
    const Verdict verdict = verify(build_full_schedule(algorithm, problem), *layout);
    EXPECT_TRUE(verdict.ok) << what << (layout == &varied ? " (v form)" : "") << ": " << verdict.summary();
  }
}

TEST(RootedTrees, EveryPAndEveryRootVerified) {
  const Algorithm& binomial = *find_algorithm(Operation::scatter, "binomial");
  const Algorithm& topo = *find_algorithm(Operation::scatter, "topo");
  for (int p = 1; p <= 64; ++p) {
    const Topology two = uneven_two_levels(p), three = interleaved_three_levels(p);
    for (int root = 0; root < p; ++root) {
      for (Operation op : {Operation::scatter, Operation::gather}) {
        const std::string what = std::string(to_string(op)) + " p=" + std::to_string(p) + " root " +
                                 std::to_string(root);
        expect_verified(binomial, op, p, root, nullptr, 0, "binomial " + what);
        expect_verified(topo, op, p, root, &two, 0, "topo on two levels " + what);
        // Fewer cases for the variants: the roots that stress them most.
        if (root == 0 || root == p - 1 || root == p / 2) {
          expect_verified(topo, op, p, root, &three, 0, "topo on three levels " + what);
          for (unsigned stars : {1u, 2u, 4u, 7u}) {
            expect_verified(topo, op, p, root, &two, stars, "topo, stars " + std::to_string(stars) + ", " + what);
          }
          for (unsigned skip : {1u, 2u, 3u, 5u}) {
            expect_verified(topo, op, p, root, &three, skip == 5 ? 2u : 0u,
                            "topo, levels skipped " + std::to_string(skip) + ", " + what, skip);
          }
        }
      }
    }
  }
}

// Sends of a schedule whose two ends lie in different groups at `level`.
int crossings(const Schedule& schedule, const Topology& topology, int level) {
  int count = 0;
  for (int rank = 0; rank < static_cast<int>(schedule.ranks.size()); ++rank) {
    for (const Round& round : schedule.ranks[static_cast<std::size_t>(rank)].rounds) {
      for (const Transfer& t : round.sends) count += topology.group(rank, level) != topology.group(t.peer, level);
    }
  }
  return count;
}

TEST(RootedTrees, BinomialTakesLogRoundsAndTheRootSendsOncePerRound) {
  for (int p : {2, 5, 8, 13, 64}) {
    const RootedBlocks layout = RootedBlocks::uniform(Flow::from_root, 1, p, 4);
    const Schedule schedule =
        build_full_schedule(*find_algorithm(Operation::scatter, "binomial"), Problem::rooted(Operation::scatter, layout));
    const RankSchedule& root = schedule.ranks[1];
    EXPECT_EQ(static_cast<int>(root.rounds.size()), ceil_log2(p)) << "p=" << p;
    std::size_t sent = 0;
    for (const Round& round : root.rounds) {
      EXPECT_EQ(round.sends.size(), 1u) << "p=" << p;
      for (const Transfer& t : round.sends) sent += t.bytes();
    }
    EXPECT_EQ(sent, static_cast<std::size_t>(p - 1) * 4) << "p=" << p;  // every other block leaves once
  }
}

TEST(RootedTrees, TopoEntersEachGroupOnceWhereBinomialCrossesMore) {
  const int p = 48;
  const Topology topology = interleaved_three_levels(p);  // 3 racks, interleaved ranks
  for (Operation op : {Operation::scatter, Operation::gather}) {
    const Flow flow = RootedBlocks::flow_of(op);
    const RootedBlocks layout = RootedBlocks::uniform(flow, 4, p, 8);
    const Problem problem = Problem::rooted(op, layout, &topology);
    const Schedule topo = build_full_schedule(*find_algorithm(op, "topo"), problem);
    const Schedule binomial = build_full_schedule(*find_algorithm(op, "binomial"), problem);
    for (int level = 0; level < topology.level_count(); ++level) {
      // One message into (or out of) every group but the root's, at every level.
      EXPECT_EQ(crossings(topo, topology, level), topology.group_count(level) - 1)
          << to_string(op) << ", level " << topology.levels()[level];
    }
    EXPECT_GT(crossings(binomial, topology, 0), 2 * (topology.group_count(0) - 1)) << to_string(op);
  }
}

// Skipping the outermost level with a star among the switch leaders: the root's phase is among
// every switch leader, so each switch outside the root's rack is entered once, straight from the
// root, and nothing else crosses racks.
TEST(RootedTrees, TopoSkippingALevelTalksToTheLevelBelowDirectly) {
  const int p = 48, root = 4;
  const Topology topology = interleaved_three_levels(p);
  const RootedBlocks layout = RootedBlocks::uniform(Flow::to_root, root, p, 8);
  Problem problem = Problem::rooted(Operation::gather, layout, &topology);
  problem.knobs.topo_skipped_levels = 1;
  problem.knobs.topo_linear_phases = 2;  // phase 1: the switch leaders
  const Schedule schedule = build_full_schedule(*find_algorithm(Operation::gather, "topo"), problem);
  EXPECT_TRUE(verify(schedule, layout).ok);
  std::set<int> switches_elsewhere;
  for (int r = 0; r < p; ++r) {
    if (topology.group(r, 0) != topology.group(root, 0)) switches_elsewhere.insert(topology.group(r, 1));
  }
  EXPECT_EQ(crossings(schedule, topology, 0), static_cast<int>(switches_elsewhere.size()));
  EXPECT_EQ(crossings(schedule, topology, 1), topology.group_count(1) - 1);
  EXPECT_EQ(crossings(schedule, topology, 2), topology.group_count(2) - 1);
}

TEST(RootedTrees, TopoNeedsATopologyOfTheProblemsSize) {
  const Algorithm& topo = *find_algorithm(Operation::gather, "topo");
  const RootedBlocks layout = RootedBlocks::uniform(Flow::to_root, 0, 6, 1);
  EXPECT_FALSE(topo.supports(Problem::rooted(Operation::gather, layout)).ok);
  const Topology five = Topology::flat(5);
  const Applicability wrong = topo.supports(Problem::rooted(Operation::gather, layout, &five));
  EXPECT_FALSE(wrong.ok);
  EXPECT_NE(wrong.reason.find("5 ranks"), std::string::npos) << wrong.reason;
  EXPECT_FALSE(topo.supports(Problem{6, 1, &five, {}}).ok);  // not a rooted problem
}

}  // namespace
}  // namespace topocoll
