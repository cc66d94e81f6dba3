#include "model/liu_flat_cost.hpp"

#include <algorithm>
#include <vector>

namespace topocoll {

LiuFlatParams LiuFlatParams::of(const MachineCost& machine) {
  LiuFlatParams params;
  if (!machine.levels.empty()) {
    const LevelCost& outermost = machine.levels.front();
    params.startup_us = machine.send_overhead_us + outermost.latency_us;
    double bandwidth = outermost.bytes_per_us;
    if (machine.injection_bytes_per_us > 0.0) bandwidth = std::min(bandwidth, machine.injection_bytes_per_us);
    params.us_per_byte = bandwidth > 0.0 ? 1.0 / bandwidth : 0.0;
  }
  const double copy = machine.copy_bytes_per_us > 0.0 ? 1.0 / machine.copy_bytes_per_us : 0.0;
  params.us_per_copied_byte = copy;
  params.us_per_memory_byte = copy;
  return params;
}

LiuFlatCost liu_flat_cost(const Schedule& schedule, const LiuFlatParams& params) {
  LiuFlatCost cost;
  std::size_t rounds = 0;
  for (const RankSchedule& rank : schedule.ranks) rounds = std::max(rounds, rank.rounds.size());
  std::vector<std::size_t> traffic(schedule.ranks.size(), 0);
  for (std::size_t t = 0; t < rounds; ++t) {
    double slowest_us = 0.0;
    std::size_t most_messages = 0;
    for (std::size_t i = 0; i < schedule.ranks.size(); ++i) {
      const auto& rounds_of_rank = schedule.ranks[i].rounds;
      if (t >= rounds_of_rank.size()) continue;
      const Round& round = rounds_of_rank[t];
      std::size_t sent = 0, received = 0, composed = 0, other = 0;
      for (const Transfer& send : round.sends) sent += send.bytes();
      for (const Transfer& recv : round.recvs) received += recv.bytes();
      for (const LocalCopy& copy : round.copies) {
        (copy.to.buffer == BufferKind::scratch ? composed : other) += copy.from.length;
      }
      const std::size_t load = std::max(sent, received);
      traffic[i] += load;
      most_messages = std::max(most_messages, round.sends.size());
      const double us = static_cast<double>(round.sends.size()) * params.startup_us +
                        static_cast<double>(load) * params.us_per_byte +
                        static_cast<double>(composed) * params.us_per_copied_byte +
                        static_cast<double>(other) * params.us_per_memory_byte;
      slowest_us = std::max(slowest_us, us);
    }
    cost.predicted_us += slowest_us;
    cost.startups += most_messages;
  }
  for (std::size_t bytes : traffic) cost.max_traffic = std::max(cost.max_traffic, bytes);
  return cost;
}

}  // namespace topocoll
