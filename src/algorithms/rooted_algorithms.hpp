// Plans of the scatter and gather algorithms (and their v forms), one file each; the
// registry (registry.cpp) lists them by name. The problem's layout (a RootedBlocks) says which
// way the blocks flow and where they lie.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "algorithms/problem.hpp"
#include "algorithms/round_plan.hpp"
#include "schedule/schedule.hpp"

namespace topocoll {

// What every scatter and gather algorithm asks of a problem: a rooted operation, its layout, a
// root among the ranks. `name` names the algorithm in the reasons.
Applicability supports_rooted(const Problem& problem, std::string_view name);

Applicability supports_linear(const Problem& problem);
std::unique_ptr<RoundPlan> plan_linear(const Problem& problem);

Applicability supports_binomial(const Problem& problem);
std::unique_ptr<RoundPlan> plan_binomial(const Problem& problem);
void binomial_size_questions(const Problem& problem, int rank, SizeQuestions& out);

Applicability supports_topo(const Problem& problem);
std::unique_ptr<RoundPlan> plan_topo(const Problem& problem);
void topo_size_questions(const Problem& problem, int rank, SizeQuestions& out);
// auto's settings for topo: a binomial tree or a star in each phase.
std::vector<AlgorithmKnobs> topo_auto_knobs(const Problem& problem);
std::string describe_topo_knobs(const AlgorithmKnobs& knobs);

}  // namespace topocoll
