#include "model/root_path_cost.hpp"

namespace topocoll {

RootPathCost root_path_cost(const Schedule& schedule, int root, const MachinePricing& pricing, double contention) {
  const MachineCost& machine = pricing.machine();
  RootPathCost cost;
  for (const LevelCost& level : machine.levels) cost.levels.push_back({level.name});
  const auto count = [&](const Transfer& transfer) {
    const LevelCost& level = pricing.between(root, transfer.peer);
    const auto index = static_cast<std::size_t>(&level - machine.levels.data());
    cost.levels[index].messages += 1;
    cost.levels[index].bytes += transfer.bytes();
  };
  for (const Round& round : schedule.ranks.at(root).rounds) {
    for (const Transfer& send : round.sends) count(send);
    for (const Transfer& recv : round.recvs) count(recv);
  }
  for (std::size_t l = 0; l < cost.levels.size(); ++l) {
    RootPathLevel& level = cost.levels[l];
    const LevelCost& priced = machine.levels[l];
    const double alpha = l == 0 ? contention : 1.0;
    level.predicted_us = alpha * (level.messages * (machine.send_overhead_us + priced.latency_us) +
                                  static_cast<double>(level.bytes) / priced.bytes_per_us);
    cost.predicted_us += level.predicted_us;
  }
  return cost;
}

}  // namespace topocoll
