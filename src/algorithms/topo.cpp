// topo: leaders per topology level (Kandalla, Subramoni and Panda, "Designing Topology-Aware
// Collective Communication Algorithms for Large Scale InfiniBand Clusters: Case Studies with
// Scatter and Gather"), for any number of levels. Every group has a leader: the root in the
// root's groups, the lowest rank elsewhere. Scatter, phase by phase from the outermost level:
// the leader of a group sends each leader of its sub-groups one message with all the blocks
// of that sub-group; then inside the innermost groups the leader sends each rank its block.
// Gather is the mirror image, innermost first. Only leaders cross a level's links, with
// aggregated messages: log2(R) crossings of the top level for R groups instead of binomial's
// several per rank. Each phase is a binomial tree among its members (the paper's; the
// MPI libraries' own inside a sub-communicator), or a star where knobs.topo_linear_phases has
// bit l set (phase l: 0 the outermost, level_count() inside the innermost groups); a level whose
// bit is set in knobs.topo_skipped_levels gets no phase (its groups merge into the level above,
// whose leaders then talk to the next level's leaders directly), e.g. node leaders straight to
// the root across the switches, as a two-level gather does. Phases run one after another, each
// as many rounds as its widest group needs.
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/rooted_algorithms.hpp"
#include "algorithms/rooted_tree.hpp"

namespace topocoll {

namespace {

// The phases of each level: one member list per group, its leader first, then the others in
// rank order after the leader (ranks relative to the leader, as in a binomial tree).
using Phases = std::vector<std::vector<std::vector<int>>>;

std::vector<int> led_by(int leader, std::vector<int> members) {
  std::sort(members.begin(), members.end());
  std::rotate(members.begin(), std::find(members.begin(), members.end(), leader), members.end());
  return members;
}

bool skipped(const Problem& problem, int level) {
  return level < 32 && (problem.knobs.topo_skipped_levels >> level & 1U) != 0;
}

void split(const Problem& problem, const std::vector<int>& members, int leader, int level, Phases& phases) {
  const Topology& topology = *problem.topology;
  if (level == topology.level_count()) {
    phases[static_cast<std::size_t>(level)].push_back(led_by(leader, members));
    return;
  }
  if (skipped(problem, level)) {
    split(problem, members, leader, level + 1, phases);
    return;
  }
  std::map<int, std::vector<int>> parts;  // by group id at this level; members are in rank order
  for (int r : members) parts[topology.group(r, level)].push_back(r);
  std::vector<int> leaders;
  std::vector<std::pair<std::vector<int>, int>> below;
  for (auto& [group, part] : parts) {
    const bool has_leader = std::find(part.begin(), part.end(), leader) != part.end();
    const int part_leader = has_leader ? leader : part.front();
    leaders.push_back(part_leader);
    below.emplace_back(std::move(part), part_leader);
  }
  phases[static_cast<std::size_t>(level)].push_back(led_by(leader, leaders));
  for (const auto& [part, part_leader] : below) split(problem, part, part_leader, level + 1, phases);
}

bool star_at(const Problem& problem, std::size_t phase) {
  return phase < 32 && (problem.knobs.topo_linear_phases >> phase & 1U) != 0;
}

std::shared_ptr<const RootedTree> topo_tree(const Problem& problem) {
  const Topology& topology = *problem.topology;
  Phases phases(static_cast<std::size_t>(topology.level_count()) + 1);
  std::vector<int> everyone(static_cast<std::size_t>(problem.size));
  for (int r = 0; r < problem.size; ++r) everyone[static_cast<std::size_t>(r)] = r;
  split(problem, everyone, problem.root, 0, phases);

  auto tree = std::make_shared<RootedTree>(problem.size, problem.root);
  int first_round = 0;
  for (std::size_t level = 0; level < phases.size(); ++level) {
    int widest = 0;
    for (const std::vector<int>& members : phases[level]) {
      const int rounds = star_at(problem, level) ? tree->add_star(members, first_round)
                                                 : tree->add_binomial(members, first_round);
      widest = std::max(widest, rounds);
    }
    first_round += widest;
  }
  tree->finish();
  return tree;
}

}  // namespace

Applicability supports_topo(const Problem& problem) {
  Applicability rooted = supports_rooted(problem, "topo");
  if (!rooted.ok) return rooted;
  if (problem.topology == nullptr) return {false, "topo needs the machine's topology"};
  if (problem.topology->size() != problem.size) {
    return {false, "the topology has " + std::to_string(problem.topology->size()) + " ranks, the problem " +
                       std::to_string(problem.size)};
  }
  return {};
}

std::unique_ptr<RoundPlan> plan_topo(const Problem& problem) { return plan_tree(problem, topo_tree(problem)); }

void topo_size_questions(const Problem& problem, int rank, SizeQuestions& out) {
  tree_size_questions(problem, *topo_tree(problem), rank, out);
}

std::vector<AlgorithmKnobs> topo_auto_knobs(const Problem& problem) {
  // Only choices the caller left open, on a known topology of at most 4 levels: every set of
  // levels to skip, with a binomial tree or a star in each phase (at most 16 x 32 settings).
  if (problem.topology == nullptr || problem.knobs.topo_linear_phases != 0 || problem.knobs.topo_skipped_levels != 0 ||
      problem.topology->level_count() > 4) {
    return {};
  }
  const int levels = problem.topology->level_count();
  std::vector<AlgorithmKnobs> settings;
  for (unsigned skip = 0; skip < (1U << levels); ++skip) {
    for (unsigned stars = 0; stars < (1U << (levels + 1)); ++stars) {
      if ((stars & skip) != 0) continue;  // a skipped level has no phase to shape
      AlgorithmKnobs knobs = problem.knobs;
      knobs.topo_linear_phases = stars;
      knobs.topo_skipped_levels = skip;
      settings.push_back(knobs);
    }
  }
  return settings;  // the simplest (every level, binomial everywhere: the paper's) first
}

namespace {

std::string bits_of(unsigned mask) {
  std::string list;
  for (int bit = 0; bit < 32; ++bit) {
    if ((mask >> bit & 1U) != 0) list += (list.empty() ? "" : ",") + std::to_string(bit);
  }
  return list;
}

}  // namespace

std::string describe_topo_knobs(const AlgorithmKnobs& knobs) {
  std::string text = knobs.topo_linear_phases == 0 ? "binomial phases" : "star phases " + bits_of(knobs.topo_linear_phases);
  if (knobs.topo_skipped_levels != 0) text += ", levels " + bits_of(knobs.topo_skipped_levels) + " skipped";
  return text;
}

}  // namespace topocoll
