// The hierarchical cost (hierarchical_cost.hpp) of an algorithm's rounds, read from its plan
// (algorithms/round_plan.hpp) round by round for every rank, without building a schedule: the
// plan tells each rank's part of a round to a sink that keeps only peers and byte counts and
// feeds the round meter. It reads the ranks of the pricing's sample (model/rank_sample.hpp:
// every rank up to kEveryRankUpTo ranks). With a sample, a plan of more than kSampledRounds rounds is
// read at its first and last rounds, the rounds that post transfers kept in flight, and the
// middle round of each of kSampledRounds equal stretches of the others, which stands for its
// stretch. The rounds' copies include those of the transfers the executor stages (a small
// transfer whose pieces lie in several buffers, schedule/staging_rule.hpp), told by the
// buffers a message touches, which a plan names even without places (round_sink.hpp). A round
// read for a stretch stages as much in each of its rounds (the staging area's bound may then be
// reached a little late). O(their messages) time (an algorithm may skip finding places, which
// the sink does not want), O(p + rounds x sampled ranks) memory beyond the plan. A recorded schedule is priced the same
// way (predict_hierarchical_us), so an algorithm's prediction is exactly the time of its schedule.
#pragma once

#include <limits>
#include <vector>

#include "algorithms/round_plan.hpp"
#include "model/machine_cost.hpp"

namespace topocoll {

// Each round's time (transfers kept in flight laid over the rounds, round_timeline.hpp). Once
// the rounds priced so far exceed `give_up_above_us`, stops there and returns their times:
// their sum is then a lower bound above it.
std::vector<double> plan_round_times_us(const RoundPlan& plan, int size, const MachinePricing& pricing,
                                        double give_up_above_us = std::numeric_limits<double>::infinity());

// Their sum.
double predict_plan_us(const RoundPlan& plan, int size, const MachinePricing& pricing,
                       double give_up_above_us = std::numeric_limits<double>::infinity());

// A recorded schedule as a plan (it replays its rounds), for pricing it.
class RecordedRounds final : public RoundPlan {
 public:
  explicit RecordedRounds(const Schedule& schedule);
  std::size_t rounds(int rank) const override { return schedule_->ranks[rank].rounds.size(); }
  void emit(int rank, std::size_t round, RoundSink& sink) const override;
  std::size_t scratch_bytes(int rank) const override { return schedule_->ranks[rank].scratch_bytes; }
  bool keeps_transfers_in_flight() const override { return !posting_.empty(); }
  std::optional<std::vector<std::size_t>> rounds_posting_in_flight() const override { return posting_; }

 private:
  const Schedule* schedule_;
  std::vector<std::size_t> posting_;  // rounds that post transfers kept in flight
};

}  // namespace topocoll
