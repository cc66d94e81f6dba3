#include "model/tam_wang.hpp"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "model/round_timeline.hpp"
#include "schedule/schedule.hpp"

namespace topocoll {

double predict_schedule_us(const Schedule& schedule, const TamWangParams& model) {
  std::size_t rounds = 0;
  for (const RankSchedule& rs : schedule.ranks) rounds = std::max(rounds, rs.rounds.size());
  // A rank's messages in flight together cost max(packets out, packets in) * g + T_w.
  auto messages_us = [&](const Round& round, std::size_t overlap_rounds) {
    std::size_t sent = 0, received = 0, count = 0;
    for (const Transfer& tr : round.sends) {
      if (tr.overlap_rounds == overlap_rounds) sent += model.packets(tr.bytes()), ++count;
    }
    for (const Transfer& tr : round.recvs) {
      if (tr.overlap_rounds == overlap_rounds) received += model.packets(tr.bytes()), ++count;
    }
    return count == 0 ? 0.0 : static_cast<double>(std::max(sent, received)) * model.gap_us + model.t_w();
  };
  std::vector<double> round_us(rounds, 0.0);
  // (posted, completes) -> the group's time alone, and its most messages on one rank.
  std::map<std::pair<std::size_t, std::size_t>, std::pair<double, std::size_t>> in_flight;
  for (std::size_t t = 0; t < rounds; ++t) {
    for (const RankSchedule& rs : schedule.ranks) {
      if (t >= rs.rounds.size()) continue;
      const Round& round = rs.rounds[t];
      double time = 0.0;
      if (model.copy_bytes_per_us > 0) {
        for (const LocalCopy& c : round.copies) time += static_cast<double>(c.from.length) / model.copy_bytes_per_us;
      }
      round_us[t] = std::max(round_us[t], time + messages_us(round, 0));
      std::map<std::size_t, std::pair<std::size_t, std::size_t>> counts;  // overlap_rounds -> (sends, recvs)
      for (const Transfer& tr : round.sends)
        if (tr.overlap_rounds > 0) ++counts[tr.overlap_rounds].first;
      for (const Transfer& tr : round.recvs)
        if (tr.overlap_rounds > 0) ++counts[tr.overlap_rounds].second;
      for (const auto& [k, n] : counts) {
        auto& group = in_flight[{t, t + k}];
        group.first = std::max(group.first, messages_us(round, k));
        group.second = std::max({group.second, n.first, n.second});
      }
    }
  }
  std::vector<InFlightGroup> groups;
  for (const auto& [key, group] : in_flight) {
    const double posting_us = model.send_overhead_us * static_cast<double>(group.second);
    groups.push_back({key.first, key.second, group.first, posting_us});
  }
  double total = 0.0;
  for (double t : overlapped_round_times(round_us, groups)) total += t;
  return total;
}

double predict_tam_wang_us(const Algorithm& algorithm, const Problem& problem,
                           const TamWangParams& model) {
  if (algorithm.predict_us != nullptr) return algorithm.predict_us(problem, model);
  return predict_schedule_us(build_full_schedule(algorithm, problem), model);
}

}  // namespace topocoll
