#include "algorithms/round_plan.hpp"

namespace topocoll {

RankSchedule record_rank(const RoundPlan& plan, int rank) {
  RankSchedule schedule;
  record_rank(plan, rank, schedule);
  return schedule;
}

void record_rank(const RoundPlan& plan, int rank, RankSchedule& schedule) {
  schedule.rounds.resize(plan.rounds(rank));
  for (std::size_t t = 0; t < schedule.rounds.size(); ++t) {
    RoundRecorder recorder(schedule.rounds[t]);
    plan.emit(rank, t, recorder);
  }
  schedule.scratch_bytes = plan.scratch_bytes(rank);
  schedule.metadata = plan.metadata(rank);
}

}  // namespace topocoll
