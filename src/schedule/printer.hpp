// The plan printer: shows who sends what to whom in each round (text), or the schedule's
// statistics (JSON), for people and for scripts.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "schedule/schedule.hpp"
#include "schedule/statistics.hpp"

namespace topocoll {

// Round by round, one line per rank: its copies, sends and receives.
void print_schedule_text(std::ostream& out, const Schedule& schedule);

nlohmann::json stats_to_json(const ScheduleStats& stats);

}  // namespace topocoll
