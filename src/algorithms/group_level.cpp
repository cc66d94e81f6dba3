#include "algorithms/group_level.hpp"

#include <algorithm>

namespace topocoll {

int group_level(const AlgorithmKnobs& knobs) { return std::max(knobs.group_level, 0); }

std::optional<std::string> group_level_problem(const Problem& problem, std::string_view algorithm) {
  const int level = problem.knobs.group_level;
  const int levels = problem.topology->level_count();
  if (level < -1 || level >= levels) {
    std::string names;
    for (const std::string& name : problem.topology->levels()) names += (names.empty() ? "" : ", ") + name;
    return std::string(algorithm) + "'s group level " + std::to_string(level) + " is not a level of the topology (" +
           std::to_string(levels) + " levels: " + names + "; 0 is the outermost, -1 leaves the choice open)";
  }
  return std::nullopt;
}

std::vector<int> distinct_group_levels(const Topology& topology) {
  std::vector<int> levels;
  for (int l = 0; l < topology.level_count(); ++l) {
    // Group ids are paths from the outermost level, so a level refines the one above it: equal
    // counts mean equal groups. An inner level of one rank per group (one rank per host) makes
    // lg and overlap the direct exchange, which auto prices anyway.
    const int groups = topology.group_count(l);
    if (l == 0 || (groups != topology.group_count(l - 1) && groups < topology.size())) levels.push_back(l);
  }
  return levels;
}

std::vector<AlgorithmKnobs> with_group_levels(const Problem& problem, std::vector<AlgorithmKnobs> settings) {
  if (problem.topology == nullptr || problem.knobs.group_level != -1) return settings;
  std::vector<AlgorithmKnobs> all;
  for (const int level : distinct_group_levels(*problem.topology)) {
    for (AlgorithmKnobs knobs : settings) {
      knobs.group_level = level == 0 ? -1 : level;
      all.push_back(knobs);
    }
  }
  return all;
}

std::string describe_group_level(const AlgorithmKnobs& knobs) {
  const int level = group_level(knobs);
  return level == 0 ? std::string() : "groups of level " + std::to_string(level);
}

}  // namespace topocoll
