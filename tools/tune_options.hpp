// Command-line options of topocoll-tune, parsed with CLI11 (as topocoll-bench's).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "schedule/operation.hpp"

namespace topocoll::tune {

struct TuneOptions {
  std::vector<Operation> operations{Operation::alltoall};  // --op
  std::vector<std::size_t> sizes;  // --sizes: bytes per block, increasing
  int repeat = 5;                  // --repeat
  int max_repeat = 20;             // --max-repeat: repetitions an undecided size may grow to
  double confidence = 0.95;        // --confidence: the paired test's (select/tuning.hpp)
  int refine = 3;                  // --refine: rounds of bisection where adjacent winners differ
  std::string calibration;         // --calibration, else TOPOCOLL_CALIBRATION: read, and written back
  std::string output;              // --output: where to write (default: the calibration file)
  std::string topology;            // --topology, else TOPOCOLL_TOPOLOGY
  int root = 0;                    // --root: scatter, gather and their v forms
  std::optional<int> iterations;   // -i; unset: the benchmark's defaults
  std::optional<int> warmup;       // -x
  std::string command;             // the command line, for the log
};

struct ParsedTuneCommandLine {
  std::optional<TuneOptions> options;
  int exit_status = 0;
};

// Help and errors are printed only when `print` (rank 0); every rank parses alike.
ParsedTuneCommandLine parse_tune_command_line(int argc, char** argv, bool print);

}  // namespace topocoll::tune
