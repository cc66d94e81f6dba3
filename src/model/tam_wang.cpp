#include "model/tam_wang.hpp"

#include <algorithm>

#include "schedule/schedule.hpp"

namespace topocoll {

TamWangParams TamWangParams::table1(int p) {
  TamWangParams params;
  params.latency_us = 0.3387 * p + 149.0;
  return params;
}

double predict_schedule_us(const Schedule& schedule, const TamWangParams& model) {
  std::size_t rounds = 0;
  for (const RankSchedule& rs : schedule.ranks) rounds = std::max(rounds, rs.rounds.size());
  double total = 0.0;
  for (std::size_t t = 0; t < rounds; ++t) {
    double slowest = 0.0;
    for (const RankSchedule& rs : schedule.ranks) {
      if (t >= rs.rounds.size()) continue;
      const Round& round = rs.rounds[t];
      double time = 0.0;
      if (model.copy_bytes_per_us > 0) {
        for (const LocalCopy& c : round.copies) time += static_cast<double>(c.from.length) / model.copy_bytes_per_us;
      }
      std::size_t sent = 0, received = 0;
      for (const Transfer& tr : round.sends) sent += model.packets(tr.bytes());
      for (const Transfer& tr : round.recvs) received += model.packets(tr.bytes());
      if (!round.sends.empty() || !round.recvs.empty()) {
        time += static_cast<double>(std::max(sent, received)) * model.gap_us + model.t_w();
      }
      slowest = std::max(slowest, time);
    }
    total += slowest;
  }
  return total;
}

}  // namespace topocoll
