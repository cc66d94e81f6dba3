// What topocoll-bench prints (rank 0 only): OSU-style tables, one per algorithm, or CSV rows
// with the fixed columns op,algorithm,np,bytes,avg_us,min_us,max_us,iterations,valid.
#pragma once

#include <cstddef>
#include <optional>
#include <ostream>
#include <string_view>

#include "bench_measure.hpp"
#include "bench_options.hpp"

namespace topocoll::bench {

struct PointResult {
  std::size_t block_bytes = 0;
  Latency latency;
  int iterations = 0;
  Validity validity = Validity::skipped;
  std::optional<double> predicted_us;  // --predict, when the algorithm has a formula
};

class Report {
 public:
  // Prints nothing unless `is_root`.
  Report(std::ostream& out, const BenchOptions& options, int np, bool is_root);

  void begin_algorithm(std::string_view algorithm);
  void point(std::string_view algorithm, const PointResult& result);
  void not_applicable(std::string_view algorithm, std::size_t block_bytes, std::string_view reason);
  // What `auto` ran at this size: on standard error with --format csv (the columns stay
  // fixed), as a '#' line of the table with --format osu.
  void auto_choice(std::size_t block_bytes, std::string_view chosen);

 private:
  std::ostream& out_;
  const BenchOptions& options_;
  int np_;
  bool is_root_;
  bool first_table_ = true;
};

}  // namespace topocoll::bench
