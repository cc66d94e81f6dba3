// Counts of what a schedule puts on the wire: rounds, messages, bytes, local copies, split by
// the outermost topology level that each message crosses.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "schedule/schedule.hpp"
#include "topology/topology.hpp"

namespace topocoll {

struct Traffic {
  std::size_t messages = 0;
  std::size_t bytes = 0;
};

struct ScheduleStats {
  int rounds = 0;  // the most rounds any rank runs
  Traffic total;
  Traffic cross;   // between different groups of the outermost level
  // by_level[l]: messages whose outermost separating level is l; the last entry counts
  // messages between ranks that share every group.
  std::vector<std::string> level_names;
  std::vector<Traffic> by_level;
  std::size_t copies = 0;
  std::size_t copy_bytes = 0;
  std::size_t max_scratch_bytes = 0;
  std::size_t max_messages_per_rank = 0;  // sends of the busiest rank
};

// The statistics told one rank's schedule at a time (any order), so that a tool need not hold
// every rank's at once (topocoll-plan at thousands of ranks). `topology` may be null (then
// everything counts as one group).
class StatsAccumulator {
 public:
  explicit StatsAccumulator(const Topology* topology);
  void add(int rank, const RankSchedule& schedule);
  const ScheduleStats& stats() const { return stats_; }

 private:
  const Topology* topology_;
  ScheduleStats stats_;
};

// `topology` may be null (then everything counts as one group).
ScheduleStats compute_stats(const Schedule& schedule, const Topology* topology);

}  // namespace topocoll
