#include "schedule/printer.hpp"

namespace topocoll {

namespace {

void print_segments(std::ostream& out, const std::vector<Segment>& segments) {
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const Segment& s = segments[i];
    out << (i ? "+" : "") << to_string(s.buffer) << '[' << s.offset << ',' << s.offset + s.length << ')';
  }
}

// Transfers kept in flight across rounds say when they complete.
void print_completion(std::ostream& out, std::size_t round, const Transfer& tr) {
  if (tr.overlap_rounds > 0) out << " (in flight until round " << round + tr.overlap_rounds << ')';
  out << ';';
}

}  // namespace

void print_schedule_text(std::ostream& out, const Schedule& schedule) {
  std::size_t rounds = 0;
  for (const RankSchedule& rs : schedule.ranks) rounds = std::max(rounds, rs.rounds.size());
  for (std::size_t t = 0; t < rounds; ++t) {
    out << "round " << t << '\n';
    for (std::size_t r = 0; r < schedule.ranks.size(); ++r) {
      const auto& list = schedule.ranks[r].rounds;
      if (t >= list.size()) continue;
      const Round& round = list[t];
      if (round.copies.empty() && round.sends.empty() && round.recvs.empty()) continue;
      out << "  rank " << r << ':';
      // Copies in the order they run: before the posts, the transfers, after the posts.
      const auto print_copies = [&](bool after_posts) {
        for (const LocalCopy& c : round.copies) {
          if (c.after_posts != after_posts) continue;
          out << (after_posts ? " then copy " : " copy ");
          print_segments(out, {c.from});
          out << "->";
          print_segments(out, {c.to});
          out << ';';
        }
      };
      print_copies(false);
      for (const Transfer& tr : round.sends) {
        out << " to " << tr.peer << ' ';
        print_segments(out, tr.segments);
        print_completion(out, t, tr);
      }
      for (const Transfer& tr : round.recvs) {
        out << " from " << tr.peer << ' ';
        print_segments(out, tr.segments);
        print_completion(out, t, tr);
      }
      print_copies(true);
      out << '\n';
    }
  }
}

nlohmann::json stats_to_json(const ScheduleStats& stats) {
  nlohmann::json levels = nlohmann::json::array();
  for (std::size_t l = 0; l < stats.by_level.size(); ++l) {
    levels.push_back({{"level", stats.level_names.at(l)},
                      {"messages", stats.by_level[l].messages},
                      {"bytes", stats.by_level[l].bytes}});
  }
  return {{"rounds", stats.rounds},
          {"messages", stats.total.messages},
          {"bytes", stats.total.bytes},
          {"cross_messages", stats.cross.messages},
          {"cross_bytes", stats.cross.bytes},
          {"by_level", levels},
          {"local_copies", stats.copies},
          {"copy_bytes", stats.copy_bytes},
          {"max_scratch_bytes", stats.max_scratch_bytes},
          {"max_messages_per_rank", stats.max_messages_per_rank}};
}

}  // namespace topocoll
