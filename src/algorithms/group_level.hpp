// The level whose groups lg and overlap take as their groups (AlgorithmKnobs::group_level).
// By default the outermost (the clusters of a two-cluster machine); an inner level makes them
// node-aware (groups = the ranks of one host: lg then sends one aggregated message per pair of
// hosts per rank). auto tries every level that gives a grouping of its own.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/problem.hpp"

namespace topocoll {

// The deepest level a caller may name (tools' --group-level, TOPOCOLL_GROUP_LEVEL): far past
// any real topology's depth; a level the topology lacks is refused per call, with the levels.
inline constexpr int kMaxGroupLevel = 64;

// The level index the knobs name: the outermost (0) when left at -1.
int group_level(const AlgorithmKnobs& knobs);

// Why `algorithm` cannot take its groups from the level the problem's knobs name (below -1, or
// past the topology's innermost level); nullopt when it can. The topology must be set.
std::optional<std::string> group_level_problem(const Problem& problem, std::string_view algorithm);

// The outermost level of `topology`, and each inner level whose groups differ from those of
// every level above (a level with as many groups as the one above it splits none of them) and
// are not all single ranks; outermost first.
std::vector<int> distinct_group_levels(const Topology& topology);

// `settings` (at least the problem's own knobs) for each level auto may use, outermost first
// (where it keeps group_level at -1): the caller's own choice when it set a level, or without a
// topology, the settings alone.
std::vector<AlgorithmKnobs> with_group_levels(const Problem& problem, std::vector<AlgorithmKnobs> settings);

// "groups of level 2"; empty for the outermost level (the default).
std::string describe_group_level(const AlgorithmKnobs& knobs);

}  // namespace topocoll
