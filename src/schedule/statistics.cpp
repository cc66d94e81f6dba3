#include "schedule/statistics.hpp"

#include <algorithm>

namespace topocoll {

StatsAccumulator::StatsAccumulator(const Topology* topology) : topology_(topology) {
  const int levels = topology ? topology->level_count() : 0;
  if (topology) stats_.level_names = topology->levels();
  stats_.level_names.push_back("same group");
  stats_.by_level.resize(static_cast<std::size_t>(levels) + 1);
}

void StatsAccumulator::add(int rank, const RankSchedule& rs) {
  const auto levels = stats_.by_level.size() - 1;
  stats_.rounds = std::max(stats_.rounds, static_cast<int>(rs.rounds.size()));
  stats_.max_scratch_bytes = std::max(stats_.max_scratch_bytes, rs.scratch_bytes);
  std::size_t sent = 0;
  for (const Round& round : rs.rounds) {
    stats_.copies += round.copies.size();
    for (const LocalCopy& c : round.copies) stats_.copy_bytes += c.from.length;
    for (const Transfer& send : round.sends) {
      const std::size_t bytes = send.bytes();
      ++sent;
      stats_.total.messages++;
      stats_.total.bytes += bytes;
      const int level = topology_ ? topology_->separating_level(rank, send.peer) : -1;
      Traffic& bucket = stats_.by_level[level < 0 ? levels : static_cast<std::size_t>(level)];
      bucket.messages++;
      bucket.bytes += bytes;
      if (level == 0) {
        stats_.cross.messages++;
        stats_.cross.bytes += bytes;
      }
    }
  }
  stats_.max_messages_per_rank = std::max(stats_.max_messages_per_rank, sent);
}

ScheduleStats compute_stats(const Schedule& schedule, const Topology* topology) {
  StatsAccumulator accumulator(topology);
  for (int rank = 0; rank < static_cast<int>(schedule.ranks.size()); ++rank) {
    accumulator.add(rank, schedule.ranks[static_cast<std::size_t>(rank)]);
  }
  return accumulator.stats();
}

}  // namespace topocoll
