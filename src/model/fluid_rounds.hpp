// The fluid model read round by round (fluid_schedule.hpp): every rank starts round t together,
// when every transfer due by the end of round t - 1 has arrived and every rank has done its CPU
// work. It reads a sample of ranks (rank_sample.hpp), each standing for its weight in ranks, so
// its work per round is the sample's messages: what reaches 16384 ranks.
#pragma once

#include <span>

#include "algorithms/round_plan.hpp"
#include "model/fluid_schedule.hpp"
#include "model/rank_sample.hpp"
#include "network/network.hpp"

namespace topocoll::fluid {

// `alike`: the hosts' links of a cluster read as one capacity each way (FluidLinks).
FluidTime time_in_rounds(const RoundPlan& plan, int size, const network::Network& network,
                         std::span<const int> host_of_rank, const FluidParameters& parameters, bool alike,
                         RankReading reading);

}  // namespace topocoll::fluid
