// Plans of the scatter and gather algorithms (and their v forms), one file each; the
// registry (registry.cpp) lists them by name. The problem's layout (a RootedBlocks) says which
// way the blocks flow and where they lie.
#pragma once

#include <memory>

#include "algorithms/problem.hpp"
#include "algorithms/round_plan.hpp"
#include "schedule/schedule.hpp"

namespace topocoll {

Applicability supports_linear(const Problem& problem);
std::unique_ptr<RoundPlan> plan_linear(const Problem& problem);

}  // namespace topocoll
