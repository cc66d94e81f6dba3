// An algorithm applied to one problem: how many rounds each rank runs, the scratch it needs,
// and each rank's part of each round, told to a sink (schedule/round_sink.hpp). This is the one
// description of an algorithm: the rank's schedule (record_rank) and the cost model's loads
// (model/plan_cost.hpp) are both read from it. Building a plan does the work shared by every
// rank (lg's cluster pairs, overlap's groups) once; emit is cheap per rank and round.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "schedule/round_sink.hpp"
#include "schedule/schedule.hpp"

namespace topocoll {

class RoundPlan {
 public:
  virtual ~RoundPlan() = default;
  // The rounds of `rank`'s schedule (at least 1).
  virtual std::size_t rounds(int rank) const = 0;
  // `rank`'s part of round t < rounds(rank).
  virtual void emit(int rank, std::size_t round, RoundSink& sink) const = 0;
  virtual std::size_t scratch_bytes(int /*rank*/) const { return 0; }
  // Scratch ranges the library writes itself (RankSchedule::metadata).
  virtual std::vector<Segment> metadata(int /*rank*/) const { return {}; }
  // Whether some transfer is kept in flight across rounds (Transfer::overlap_rounds > 0): the
  // cost model then records each round's traffic to price them against.
  virtual bool keeps_transfers_in_flight() const { return false; }
  // The rounds in which some rank posts transfers kept in flight (the cost model prices each of
  // them when it samples the others), or nullopt when any round may: then it prices every round.
  virtual std::optional<std::vector<std::size_t>> rounds_posting_in_flight() const {
    if (keeps_transfers_in_flight()) return std::nullopt;
    return std::vector<std::size_t>{};
  }
};

// `rank`'s schedule, recorded from the plan.
RankSchedule record_rank(const RoundPlan& plan, int rank);
// The same into `schedule`, over what it held (RoundRecorder): for a caller that reads the ranks
// one at a time through one schedule.
void record_rank(const RoundPlan& plan, int rank, RankSchedule& schedule);

}  // namespace topocoll
