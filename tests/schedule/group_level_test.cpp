// lg and overlap with their groups taken from an inner level (AlgorithmKnobs::group_level): the
// node-aware exchange. Proven by the verifier on switches of hosts of uneven rank counts, placed
// at random; lg then sends 2 max(n_X, n_Y) messages between each pair of hosts, overlap keeps
// every message between hosts in flight; a level the topology lacks is not applicable, with the
// reason; auto prices each level and takes the node level where start-ups dominate.
#include "algorithms/group_level.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "algorithms/registry.hpp"
#include "model_machines.hpp"
#include "schedule/verifier.hpp"
#include "select/auto_select.hpp"

namespace topocoll {
namespace {

// Switch s holds hosts_per_switch[s] hosts; host h of the machine holds ranks_of_host[h] ranks.
// Levels {"switch", "node"}; `shuffle` scatters the ranks over the communicator.
Topology switches_of_hosts(const std::vector<int>& hosts_per_switch, const std::vector<int>& ranks_of_host,
                           std::mt19937* shuffle = nullptr) {
  std::vector<std::vector<int>> groups;
  int host = 0;
  for (int s = 0; s < static_cast<int>(hosts_per_switch.size()); ++s) {
    for (int h = 0; h < hosts_per_switch[s]; ++h, ++host) {
      for (int i = 0; i < ranks_of_host[static_cast<std::size_t>(host)]; ++i) groups.push_back({s, host});
    }
  }
  if (shuffle) std::shuffle(groups.begin(), groups.end(), *shuffle);
  return Topology({"switch", "node"}, groups);
}

Problem at_level(const Topology& topo, std::size_t block_bytes, int level) {
  Problem problem{topo.size(), block_bytes, &topo, {}};
  problem.knobs.group_level = level;
  return problem;
}

// Messages between two ranks of different groups at `level`, per unordered pair of groups.
std::map<std::pair<int, int>, std::size_t> messages_between_groups(const Schedule& schedule, const Topology& topo,
                                                                   int level) {
  std::map<std::pair<int, int>, std::size_t> count;
  for (int r = 0; r < schedule.size; ++r) {
    for (const Round& round : schedule.ranks[static_cast<std::size_t>(r)].rounds) {
      for (const Transfer& send : round.sends) {
        const int a = topo.group(r, level), b = topo.group(send.peer, level);
        if (a != b) ++count[{std::min(a, b), std::max(a, b)}];
      }
    }
  }
  return count;
}

// The schedule of `algorithm` for `problem`, which must apply, once the verifier has passed it.
void build_verified(const Algorithm& algorithm, const Problem& problem, Schedule* schedule) {
  const Applicability applies = algorithm.supports(problem);
  ASSERT_TRUE(applies.ok) << algorithm.name << ": " << applies.reason;
  *schedule = build_full_schedule(algorithm, problem);
  const Verdict verdict = verify(*schedule);
  EXPECT_TRUE(verdict.ok) << algorithm.name << ": " << verdict.summary();
}

const std::vector<int> kHostsPerSwitch = {2, 3};
const std::vector<int> kRanksOfHost = {4, 1, 3, 5, 2};

TEST(GroupLevel, LgAtTheNodeLevelSendsOneAggregatedMessagePerRankPerPairOfHosts) {
  std::mt19937 rng(31);
  for (bool shuffled : {false, true}) {
    const Topology topo = switches_of_hosts(kHostsPerSwitch, kRanksOfHost, shuffled ? &rng : nullptr);
    const Algorithm& lg = *find_algorithm(Operation::alltoall, "lg");
    Schedule schedule;
    ASSERT_NO_FATAL_FAILURE(build_verified(lg, at_level(topo, 3, 1), &schedule));
    for (const auto& [hosts, messages] : messages_between_groups(schedule, topo, 1)) {
      const int most = std::max(kRanksOfHost[static_cast<std::size_t>(hosts.first)],
                                kRanksOfHost[static_cast<std::size_t>(hosts.second)]);
      EXPECT_EQ(messages, 2u * static_cast<std::size_t>(most)) << "hosts " << hosts.first << ", " << hosts.second;
    }
    // At the outermost level the groups are the two switches: 2 max(6, 10) messages between them.
    Schedule outer;
    ASSERT_NO_FATAL_FAILURE(build_verified(lg, at_level(topo, 3, -1), &outer));
    EXPECT_EQ((messages_between_groups(outer, topo, 0).at({0, 1})), 20u);
  }
}

TEST(GroupLevel, OverlapAtTheNodeLevelKeepsEveryMessageBetweenHostsInFlight) {
  std::mt19937 rng(5);
  const Topology topo = switches_of_hosts(kHostsPerSwitch, kRanksOfHost, &rng);
  const Algorithm& overlap = *find_algorithm(Operation::alltoall, "overlap");
  Schedule schedule;
  ASSERT_NO_FATAL_FAILURE(build_verified(overlap, at_level(topo, 2, 1), &schedule));
  const std::size_t rounds = 4;  // the largest host's 5 ranks, less one
  for (int r = 0; r < topo.size(); ++r) {
    const auto& mine = schedule.ranks[static_cast<std::size_t>(r)].rounds;
    ASSERT_EQ(mine.size(), rounds);
    for (std::size_t t = 0; t < mine.size(); ++t) {
      for (const Transfer& send : mine[t].sends) {
        const bool between_hosts = topo.group(r, 1) != topo.group(send.peer, 1);
        EXPECT_EQ(between_hosts, t == 0 && send.overlap_rounds == rounds - 1) << "rank " << r << " round " << t;
      }
    }
  }
}

TEST(GroupLevel, ALevelTheTopologyLacksIsNotApplicableAndSaysWhy) {
  const Topology topo = switches_of_hosts(kHostsPerSwitch, kRanksOfHost);
  for (const char* name : {"lg", "overlap"}) {
    const Algorithm& algorithm = *find_algorithm(Operation::alltoall, name);
    for (int level : {2, -2}) {
      const Applicability verdict = algorithm.supports(at_level(topo, 1, level));
      EXPECT_FALSE(verdict.ok) << name << " level " << level;
      EXPECT_NE(verdict.reason.find("group level " + std::to_string(level) + " is not a level"), std::string::npos)
          << verdict.reason;
      EXPECT_NE(verdict.reason.find("switch, node"), std::string::npos) << verdict.reason;
    }
  }
  // One host: lg has a single group at the node level.
  const Topology one_host = switches_of_hosts({1}, {4});
  const Applicability lone = find_algorithm(Operation::alltoall, "lg")->supports(at_level(one_host, 1, 1));
  EXPECT_FALSE(lone.ok);
  EXPECT_NE(lone.reason.find("at least two groups at the group level (node)"), std::string::npos) << lone.reason;
}

TEST(GroupLevel, AutoTriesOnlyLevelsThatGroupDifferently) {
  // One host per switch: the node level groups as the switch level does.
  const Topology same = switches_of_hosts({1, 1, 1}, {2, 2, 2});
  EXPECT_EQ(distinct_group_levels(same), std::vector<int>{0});
  // One rank per host: over the hosts, lg and overlap are direct.
  const Topology lone_ranks = switches_of_hosts({2, 3}, std::vector<int>(5, 1));
  EXPECT_EQ(distinct_group_levels(lone_ranks), std::vector<int>{0});
  const Topology topo = switches_of_hosts(kHostsPerSwitch, kRanksOfHost);
  EXPECT_EQ(distinct_group_levels(topo), (std::vector<int>{0, 1}));
  const std::vector<AlgorithmKnobs> settings = with_group_levels(at_level(topo, 1, -1), {AlgorithmKnobs{}});
  ASSERT_EQ(settings.size(), 2u);
  EXPECT_EQ(settings[0].group_level, -1);  // the outermost, as a named algorithm runs it
  EXPECT_EQ(settings[1].group_level, 1);
  // A level the caller chose is kept.
  EXPECT_EQ(with_group_levels(at_level(topo, 1, 0), {at_level(topo, 1, 0).knobs}).size(), 1u);
  EXPECT_EQ(describe_run("lg", settings[0]), "lg");
  EXPECT_EQ(describe_run("lg", settings[1]), "lg with groups of level 1");
}

// Four hosts of 16 ranks under two switches, 1 us to post a message, 5 us across a switch:
// start-ups dominate 8-byte blocks. lg over the hosts posts 15 + 3 messages in two rounds; over
// the switches 31 + 1; direct 63 at once; bruck 6 rounds, most of them across a switch.
TEST(GroupLevel, AutoRunsLgOverTheHostsWhereStartUpsDominate) {
  const Topology topo = switches_of_hosts({2, 2}, std::vector<int>(4, 16));
  MachineCost machine;
  machine.levels = {{"switch", 5.0, 10000.0}, {"node", 2.0, 10000.0}, {"same group", 0.5, 20000.0}};
  machine.send_overhead_us = 1.0;
  machine.injection_bytes_per_us = 10000.0;
  machine.ejection_bytes_per_us = 10000.0;
  machine.copy_bytes_per_us = 20000.0;
  const AutoChoice choice = select_algorithm(at_level(topo, 8, -1), machine, Predictions::all);
  EXPECT_EQ(choice.algorithm, "lg");
  EXPECT_EQ(choice.knobs.group_level, 1);
  const auto lg_us = [](const AutoChoice& made) {
    for (const AlgorithmPrediction& p : made.predictions)
      if (p.algorithm == "lg") return p.predicted_us.value_or(0.0);
    return 0.0;
  };
  const double lg_hosts = lg_us(choice);
  const double lg_outer = lg_us(select_algorithm(at_level(topo, 8, 0), machine, Predictions::all));
  EXPECT_GT(lg_hosts, 0.0);
  EXPECT_LT(lg_hosts * 1.3, lg_outer) << "over the hosts " << lg_hosts << " us, over the switches " << lg_outer;
}

}  // namespace
}  // namespace topocoll
