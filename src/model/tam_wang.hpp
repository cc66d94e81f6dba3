// The Tam-Wang cost model (complete-exchange-on-clusters.txt, Section 2) read off a schedule;
// its parameters are in algorithms/tam_wang_params.hpp.
#pragma once

#include <cstddef>
#include <map>
#include <utility>
#include <vector>

#include "algorithms/registry.hpp"
#include "algorithms/tam_wang_params.hpp"
#include "schedule/schedule.hpp"

namespace topocoll {

// The Tam-Wang time of a schedule, read off the schedule itself: each round costs, on its
// busiest rank, max(packets sent, packets received) * g + T_w (when the rank communicates at
// all), plus its local copies at copy_bytes_per_us; rounds run one after the other. For the
// flat algorithms this reproduces the closed-form formulas of the registry.
double predict_schedule_us(const Schedule& schedule, const TamWangParams& model);

// The same, told one rank's schedule at a time (each round's busiest rank, and each group of
// transfers kept in flight, kept as the ranks come), without every rank's schedule at once.
class TamWangAccumulator {
 public:
  explicit TamWangAccumulator(const TamWangParams& model) : model_(model) {}
  void add(const RankSchedule& rank);
  double result() const;

 private:
  double messages_us(const Round& round, std::size_t overlap_rounds) const;

  TamWangParams model_;
  std::vector<double> round_us_;
  // (posted, completes) -> the group's time alone, and its most messages on one rank.
  std::map<std::pair<std::size_t, std::size_t>, std::pair<double, std::size_t>> in_flight_;
};

// An algorithm's Tam-Wang time: its closed form where the registry has one, else read off its
// schedule. The algorithm has a schedule (not `native`) and supports the problem.
double predict_tam_wang_us(const Algorithm& algorithm, const Problem& problem,
                           const TamWangParams& model);

}  // namespace topocoll
