// The fluid model read rank by rank (fluid_schedule.hpp): each rank goes on to its next round as
// soon as its own transfers due by the end of this one have arrived and its CPU work is done, as
// SMPI runs the executor; a message's flow starts once its sender has posted it and its
// receiver has posted the receive (SMPI matches them first), plus its route's latency. Every
// rank and every link is read: O(messages) work, the reading for schedules of many rounds where
// a few ranks in each are slower than the others (bruck's ranks at a host's edge), which the
// round-by-round reading charges the whole round for.
#pragma once

#include <span>

#include "algorithms/round_plan.hpp"
#include "model/fluid_schedule.hpp"
#include "network/network.hpp"

namespace topocoll::fluid {

// Throws std::invalid_argument when the plan's sends and receives do not match.
FluidTime time_by_rank(const RoundPlan& plan, int size, const network::Network& network,
                       std::span<const int> host_of_rank, const FluidParameters& parameters);

}  // namespace topocoll::fluid
