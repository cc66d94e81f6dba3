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

void LiuFlatAccumulator::add(const RankSchedule& rank) {
  if (rank.rounds.size() > slowest_us_.size()) {
    slowest_us_.resize(rank.rounds.size(), 0.0);
    most_messages_.resize(rank.rounds.size(), 0);
  }
  std::size_t traffic = 0;
  for (std::size_t t = 0; t < rank.rounds.size(); ++t) {
    const Round& round = rank.rounds[t];
    std::size_t sent = 0, received = 0, composed = 0, other = 0;
    for (const Transfer& send : round.sends) sent += send.bytes();
    for (const Transfer& recv : round.recvs) received += recv.bytes();
    for (const LocalCopy& copy : round.copies) {
      (copy.to.buffer == BufferKind::scratch ? composed : other) += copy.from.length;
    }
    const std::size_t load = std::max(sent, received);
    traffic += load;
    most_messages_[t] = std::max(most_messages_[t], round.sends.size());
    const double us = static_cast<double>(round.sends.size()) * params_.startup_us +
                      static_cast<double>(load) * params_.us_per_byte +
                      static_cast<double>(composed) * params_.us_per_copied_byte +
                      static_cast<double>(other) * params_.us_per_memory_byte;
    slowest_us_[t] = std::max(slowest_us_[t], us);
  }
  max_traffic_ = std::max(max_traffic_, traffic);
}

LiuFlatCost LiuFlatAccumulator::result() const {
  LiuFlatCost cost;
  for (std::size_t t = 0; t < slowest_us_.size(); ++t) {
    cost.predicted_us += slowest_us_[t];
    cost.startups += most_messages_[t];
  }
  cost.max_traffic = max_traffic_;
  return cost;
}

LiuFlatCost liu_flat_cost(const Schedule& schedule, const LiuFlatParams& params) {
  LiuFlatAccumulator accumulator(params);
  for (const RankSchedule& rank : schedule.ranks) accumulator.add(rank);
  return accumulator.result();
}

}  // namespace topocoll
