// The fluid model read by each round's bottlenecks (fluid_schedule.hpp): every rank and every
// link alone, rounds that end together, and no sharing worked out. A round ends when its most
// loaded link has carried its load at its bandwidth from its first flow's start, when its
// slowest flow has moved its bytes at its cap, and when every rank's CPU work is done (as the
// reading of rounds together charges it, fluid_rounds.hpp). A message overlapped into a later
// round loads that round's links.
//
// What it gives up: max-min sharing leaves a link idle while its flows are held back elsewhere,
// and a rank at its own pace goes on before the round's slowest; the first makes it fast, the
// second slow. It is the reading for skewed traffic beyond the exact reading's reach: O(messages)
// work with no sharing, where links alike spreads a hot host's load over its cluster.
// docs/algorithms.md ("The fluid model") gives its error against the exact reading.
#pragma once

#include <span>

#include "algorithms/round_plan.hpp"
#include "model/fluid_schedule.hpp"
#include "network/network.hpp"

namespace topocoll::fluid {

// Throws std::invalid_argument when a message goes to no rank, or the plan's rounds send and
// receive different numbers of messages.
FluidTime time_by_bottlenecks(const RoundPlan& plan, int size, const network::Network& network,
                              std::span<const int> host_of_rank, const FluidParameters& parameters);

}  // namespace topocoll::fluid
