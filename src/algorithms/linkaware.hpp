// linkaware: a total exchange in phases built from the routes between the ranks so that no link
// carries more flows in a phase than it must, for any allocation on any routed network (issue 14
// part 3); the algorithm is in linkaware.cpp. Here: the phases as a pure function of the routes
// (the tests check them link by link), and the registry's entry points.
#pragma once

#include <memory>
#include <vector>

#include "algorithms/column_prism.hpp"
#include "algorithms/problem.hpp"
#include "algorithms/rank_routes.hpp"
#include "algorithms/round_plan.hpp"

namespace topocoll {

struct LinkawarePhases {
  // destination[phase][rank]: whom rank sends to in the phase; source[phase][rank] whom it
  // receives from. p - 1 phases, each a permutation without fixed points.
  std::vector<std::vector<int>> destination;
  std::vector<std::vector<int>> source;
  int worst_load = 0;  // the most flows on one capacity in one phase
  int bound = 0;       // ceil(most crossings of one capacity / phases): no p - 1 phases do better
  bool from_structured = false;  // the search started from the structured phases it was given
};

// The phases for `routes` (p >= 2). `structured`, when not empty: p - 1 phases a construction
// gives (mlfm's, where the ranks form a box), each a permutation without fixed points, together
// every transfer once (others are ignored); the search starts from them where they load the
// capacities no more than its greedy colouring. Deterministic: every rank computes the same ones.
// Without them, where `prism` places every rank once (column_prism.hpp: the same positions in
// every column; others are ignored), the phases that rotate with the columns, searched as a
// colouring of the columns' orbits, are that start.
LinkawarePhases linkaware_phases(const RankRoutes& routes, const std::vector<std::vector<int>>& structured = {},
                                 const ColumnPrism& prism = {});

Applicability supports_linkaware(const Problem& problem);
std::unique_ptr<RoundPlan> plan_linkaware(const Problem& problem);

}  // namespace topocoll
