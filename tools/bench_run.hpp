// topocoll-bench's measurement, for the tools that measure as it does (topocoll-bench itself,
// topocoll-tune): every algorithm of options.algorithms at every size of
// options.message_sizes(), each validated once (options.validate) and timed the OSU way, one
// algorithm after the other or, with options.repeat, interleaved (bench_repeat.hpp).
// Collective over `comm`.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "bench_measure.hpp"
#include "bench_options.hpp"
#include "bench_repeat.hpp"
#include "bench_report.hpp"

namespace topocoll::bench {

// One point that ran (an algorithm applicable at that size), and what its validation said.
struct MeasuredPoint {
  std::string algorithm;
  std::size_t block_bytes = 0;
  Validity validity = Validity::skipped;
};

// Measures every point into `report` (rows, auto's choices, the points that do not apply) and,
// with options.repeat, every repetition into `runs`; the points that ran into `points` when given.
// Returns 0, or 2 after an error said on rank 0 as "TOOL: ..." (a topology that cannot be read,
// a root outside the communicator).
int measure(const BenchOptions& options, MPI_Comm comm, std::string_view tool, Report& report, RepeatedRuns& runs,
            std::vector<MeasuredPoint>* points = nullptr);

}  // namespace topocoll::bench
