// What `topocoll-bench --repeat N` collects and writes: every repetition's time of every
// algorithm and size, in the order they ran, then reduced by bench_statistics.hpp. Rank 0 only.
// Two CSV files beside the benchmark's own output (whose columns stay fixed):
//   --repetitions FILE: order,op,algorithm,np,bytes,repetition,avg_us,min_us,max_us
//     (one row per timed block, in the order run: the interleaving can be checked)
//   --statistics FILE (else standard error): op,algorithm,np,bytes,repetitions,median_avg_us,
//     lowest_avg_us,highest_avg_us,spread_avg_pct,median_max_us,lowest_max_us,highest_max_us,
//     baseline,median_ratio_avg,median_ratio_max
#pragma once

#include <cstddef>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bench_statistics.hpp"

namespace topocoll::bench {

class RepeatedRuns {
 public:
  void record(std::string_view algorithm, std::size_t block_bytes, int repetition, const RepetitionTime& time);

  // The repetitions of one algorithm at one size, by repetition number.
  std::vector<RepetitionTime> times(std::string_view algorithm, std::size_t block_bytes) const;
  std::optional<RepetitionSummary> summary(std::string_view algorithm, std::size_t block_bytes) const;

  void write_repetitions(std::ostream& out, std::string_view op, int np) const;
  // One row per algorithm (in `algorithms` order) and size that has repetitions; ratios against
  // ratio_baseline(algorithms), empty where it has no time at that size.
  void write_statistics(std::ostream& out, std::string_view op, int np, std::span<const std::string> algorithms,
                        std::span<const std::size_t> sizes) const;

 private:
  struct Entry {
    std::string algorithm;
    std::size_t block_bytes = 0;
    int repetition = 0;
    RepetitionTime time;
  };
  std::vector<Entry> entries_;  // in the order run
};

}  // namespace topocoll::bench
