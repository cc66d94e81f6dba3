#include "schedule/statistics.hpp"

#include <algorithm>

namespace topocoll {

ScheduleStats compute_stats(const Schedule& schedule, const Topology* topology) {
  ScheduleStats stats;
  const int levels = topology ? topology->level_count() : 0;
  if (topology) stats.level_names = topology->levels();
  stats.level_names.push_back("same group");
  stats.by_level.resize(static_cast<std::size_t>(levels) + 1);
  for (int rank = 0; rank < static_cast<int>(schedule.ranks.size()); ++rank) {
    const RankSchedule& rs = schedule.ranks[rank];
    stats.rounds = std::max(stats.rounds, static_cast<int>(rs.rounds.size()));
    stats.max_scratch_bytes = std::max(stats.max_scratch_bytes, rs.scratch_bytes);
    std::size_t sent = 0;
    for (const Round& round : rs.rounds) {
      stats.copies += round.copies.size();
      for (const LocalCopy& c : round.copies) stats.copy_bytes += c.from.length;
      for (const Transfer& send : round.sends) {
        const std::size_t bytes = send.bytes();
        ++sent;
        stats.total.messages++;
        stats.total.bytes += bytes;
        const int level = topology ? topology->separating_level(rank, send.peer) : -1;
        Traffic& bucket = stats.by_level[level < 0 ? static_cast<std::size_t>(levels) : static_cast<std::size_t>(level)];
        bucket.messages++;
        bucket.bytes += bytes;
        if (level == 0) {
          stats.cross.messages++;
          stats.cross.bytes += bytes;
        }
      }
    }
    stats.max_messages_per_rank = std::max(stats.max_messages_per_rank, sent);
  }
  return stats;
}

}  // namespace topocoll
