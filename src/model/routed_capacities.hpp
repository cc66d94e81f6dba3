// What the cost model knows of the links between a problem's ranks when the problem runs on a
// known network (Problem::network): every ordered pair's route as capacity ids
// (algorithms/rank_routes.hpp: each direction of a SPLITDUPLEX link, both directions of a shared
// one together) and each capacity's bandwidth as the network declares it. With it the round meter
// (hierarchical_cost.hpp) charges every link the bytes its round's messages put through it, so
// that two flows on one link take twice as long: what sets mlfm and linkaware apart from shift
// on a multi-layer full mesh (issue 14 part 5).
#pragma once

#include <optional>
#include <vector>

#include "algorithms/problem.hpp"
#include "algorithms/rank_routes.hpp"
#include "model/rank_sample.hpp"

namespace topocoll {

struct RoutedCapacities {
  RankRoutes routes;
  std::vector<double> bytes_per_us;  // per capacity id
};

// The routes take O(p^2 h) memory and the link term needs every rank's messages, which the model
// reads up to this many ranks (rank_sample.hpp); beyond, the model does without links.
constexpr int kRoutedUpToRanks = RankSample::kEveryRankUpTo;

// The problem's routed capacities; nullopt when it carries no network, the network does not
// place its ranks, or it has more than kRoutedUpToRanks ranks.
std::optional<RoutedCapacities> routed_capacities(const Problem& problem);

}  // namespace topocoll
