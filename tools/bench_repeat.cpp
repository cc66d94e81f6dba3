// Collecting and writing the repetitions of `topocoll-bench --repeat N` (see bench_repeat.hpp).
#include "bench_repeat.hpp"

#include <algorithm>
#include <iomanip>

namespace topocoll::bench {

namespace {

void write_optional(std::ostream& out, const std::optional<double>& value) {
  if (value) out << *value;
}

}  // namespace

void RepeatedRuns::record(std::string_view algorithm, std::size_t block_bytes, int repetition,
                          const RepetitionTime& time) {
  entries_.push_back({std::string(algorithm), block_bytes, repetition, time});
}

std::vector<RepetitionTime> RepeatedRuns::times(std::string_view algorithm, std::size_t block_bytes) const {
  std::vector<const Entry*> mine;
  for (const Entry& e : entries_) {
    if (e.algorithm == algorithm && e.block_bytes == block_bytes) mine.push_back(&e);
  }
  std::stable_sort(mine.begin(), mine.end(), [](const Entry* a, const Entry* b) { return a->repetition < b->repetition; });
  std::vector<RepetitionTime> times;
  for (const Entry* e : mine) times.push_back(e->time);
  return times;
}

std::optional<RepetitionSummary> RepeatedRuns::summary(std::string_view algorithm, std::size_t block_bytes) const {
  return summarise(times(algorithm, block_bytes));
}

void RepeatedRuns::write_repetitions(std::ostream& out, std::string_view op, int np) const {
  out << "order,op,algorithm,np,bytes,repetition,avg_us,min_us,max_us\n" << std::fixed << std::setprecision(3);
  int order = 0;
  for (const Entry& e : entries_) {
    out << ++order << ',' << op << ',' << e.algorithm << ',' << np << ',' << e.block_bytes << ',' << e.repetition
        << ',' << e.time.avg_us << ',' << e.time.min_us << ',' << e.time.max_us << '\n';
  }
  out << std::flush;
}

void RepeatedRuns::write_statistics(std::ostream& out, std::string_view op, int np,
                                    std::span<const std::string> algorithms,
                                    std::span<const std::size_t> sizes) const {
  const std::string baseline = ratio_baseline(algorithms);
  out << "op,algorithm,np,bytes,repetitions,median_avg_us,lowest_avg_us,highest_avg_us,spread_avg_pct,"
         "median_max_us,lowest_max_us,highest_max_us,baseline,median_ratio_avg,median_ratio_max\n"
      << std::fixed << std::setprecision(3);
  for (const std::string& algorithm : algorithms) {
    for (const std::size_t bytes : sizes) {
      const std::vector<RepetitionTime> mine = times(algorithm, bytes);
      const std::optional<RepetitionSummary> s = summarise(mine);
      if (!s) continue;
      const std::vector<RepetitionTime> base = times(baseline, bytes);
      out << op << ',' << algorithm << ',' << np << ',' << bytes << ',' << s->repetitions << ',' << s->median.avg_us
          << ',' << s->lowest_avg_us << ',' << s->highest_avg_us << ','
          << spread_percent(s->lowest_avg_us, s->highest_avg_us, s->median.avg_us) << ',' << s->median.max_us << ','
          << s->lowest_max_us << ',' << s->highest_max_us << ',' << baseline << ',';
      out << std::setprecision(4);
      const auto ratio = [&](double RepetitionTime::*statistic) {
        return median_ratio(values_of(mine, statistic), values_of(base, statistic));
      };
      write_optional(out, ratio(&RepetitionTime::avg_us));
      out << ',';
      write_optional(out, ratio(&RepetitionTime::max_us));
      out << std::setprecision(3) << '\n';
    }
  }
  out << std::flush;
}

}  // namespace topocoll::bench
