#include "model/tam_wang.hpp"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "algorithms/round_plan.hpp"
#include "model/round_timeline.hpp"
#include "schedule/schedule.hpp"

namespace topocoll {

// A rank's messages in flight together cost max(packets out, packets in) * g + T_w.
double TamWangAccumulator::messages_us(const Round& round, std::size_t overlap_rounds) const {
  std::size_t sent = 0, received = 0, count = 0;
  for (const Transfer& tr : round.sends) {
    if (tr.overlap_rounds == overlap_rounds) sent += model_.packets(tr.bytes()), ++count;
  }
  for (const Transfer& tr : round.recvs) {
    if (tr.overlap_rounds == overlap_rounds) received += model_.packets(tr.bytes()), ++count;
  }
  return count == 0 ? 0.0 : static_cast<double>(std::max(sent, received)) * model_.gap_us + model_.t_w();
}

void TamWangAccumulator::add(const RankSchedule& rs) {
  if (rs.rounds.size() > round_us_.size()) round_us_.resize(rs.rounds.size(), 0.0);
  for (std::size_t t = 0; t < rs.rounds.size(); ++t) {
    const Round& round = rs.rounds[t];
    double time = 0.0;
    if (model_.copy_bytes_per_us > 0) {
      for (const LocalCopy& c : round.copies) time += static_cast<double>(c.from.length) / model_.copy_bytes_per_us;
    }
    round_us_[t] = std::max(round_us_[t], time + messages_us(round, 0));
    std::map<std::size_t, std::pair<std::size_t, std::size_t>> counts;  // overlap_rounds -> (sends, recvs)
    for (const Transfer& tr : round.sends)
      if (tr.overlap_rounds > 0) ++counts[tr.overlap_rounds].first;
    for (const Transfer& tr : round.recvs)
      if (tr.overlap_rounds > 0) ++counts[tr.overlap_rounds].second;
    for (const auto& [k, n] : counts) {
      auto& group = in_flight_[{t, t + k}];
      group.first = std::max(group.first, messages_us(round, k));
      group.second = std::max({group.second, n.first, n.second});
    }
  }
}

double TamWangAccumulator::result() const {
  std::vector<InFlightGroup> groups;
  for (const auto& [key, group] : in_flight_) {
    const double posting_us = model_.send_overhead_us * static_cast<double>(group.second);
    groups.push_back({key.first, key.second, group.first, posting_us});
  }
  double total = 0.0;
  for (double t : overlapped_round_times(round_us_, groups)) total += t;
  return total;
}

double predict_schedule_us(const Schedule& schedule, const TamWangParams& model) {
  TamWangAccumulator accumulator(model);
  for (const RankSchedule& rs : schedule.ranks) accumulator.add(rs);
  return accumulator.result();
}

// Without a closed form, read rank by rank off the plan: no rank's schedule kept.
double predict_tam_wang_us(const Algorithm& algorithm, const Problem& problem,
                           const TamWangParams& model) {
  if (algorithm.predict_us != nullptr) return algorithm.predict_us(problem, model);
  TamWangAccumulator accumulator(model);
  const std::unique_ptr<RoundPlan> plan = algorithm.plan(problem);
  for (int r = 0; plan && r < problem.size; ++r) accumulator.add(record_rank(*plan, r));
  return accumulator.result();
}

}  // namespace topocoll
