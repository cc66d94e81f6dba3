#include "model/fluid_schedule.hpp"

#include "model/fluid_ranks.hpp"
#include "model/fluid_rounds.hpp"

namespace topocoll {

FluidTime fluid_time(const RoundPlan& plan, int size, const network::Network& network,
                     std::span<const int> host_of_rank, const FluidParameters& parameters, FluidReading reading) {
  if (reading == FluidReading::every_link ||
      (reading == FluidReading::automatic && size <= RankSample::kEveryRankUpTo)) {
    return fluid::time_by_rank(plan, size, network, host_of_rank, parameters);
  }
  return fluid::time_in_rounds(plan, size, network, host_of_rank, parameters, true, RankReading::sampled_at_scale);
}

}  // namespace topocoll
