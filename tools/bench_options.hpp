// Command-line options of topocoll-bench, parsed with CLI11, and what follows from them: the
// message sizes of a sweep, and the iteration counts of each size (OSU defaults unless given).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "bench_pattern.hpp"
#include "schedule/operation.hpp"

namespace topocoll::bench {

// Whether this is the SMPI build (simulated time, shared buffers), for options that need it.
#ifdef TOPOCOLL_SMPI
inline constexpr bool kBuiltForSmpi = true;
#else
inline constexpr bool kBuiltForSmpi = false;
#endif

enum class OutputFormat { osu, csv };

struct BenchOptions {
  Operation operation = Operation::alltoall;  // --op
  int root = 0;                     // --root: scatter, gather and their v forms
  std::size_t min_bytes = 1;        // -m MIN:MAX, bytes per block
  std::size_t max_bytes = 1 << 20;
  std::vector<std::size_t> size_list;  // a tool that names its sizes (topocoll-tune): these, not the sweep
  std::optional<int> iterations;    // -i; unset: OSU's 1000 (small) / 100 (large)
  std::optional<int> warmup;        // -x; unset: OSU's 200 (small) / 10 (large)
  std::vector<std::string> algorithms;
  OutputFormat format = OutputFormat::osu;
  bool validate = false;            // -c; default on for --format csv
  bool predict = false;             // OSU format only: Tam-Wang prediction column
  int group_width = 4;
  int max_requests = 0;
  double copy_bandwidth = 0.0;      // bytes/s, 0: the library default
  bool shared_malloc = false;       // SMPI only
  std::string calibration;          // --calibration, else TOPOCOLL_CALIBRATION: for auto
  std::string topology;             // --topology, else TOPOCOLL_TOPOLOGY; empty: node level only
  std::string network;              // --network, else TOPOCOLL_NETWORK: a platform whose routes linkaware reads
  std::size_t max_scratch_bytes = 0;  // lg: scratch cap per rank (0: none)
  std::size_t segment_bytes = 0;      // lg: pipeline piece size (0: from the cap)
  int stripes = 0;                    // overlap: messages per block across (0: one; auto chooses)
  int group_level = -1;               // lg, overlap: the level of their groups (-1: outermost; auto chooses)
  unsigned topo_stars = 0;            // topo: phases that are stars (bit l: phase l)
  unsigned topo_skip = 0;             // topo: topology levels without a phase (bit l: level l)
  bool window_sync = false;           // --sync window (SMPI only): synchronised start
  double sync_window = 0.05;          // seconds, first window (doubled when too short)
  std::optional<int> repeat;          // --repeat N: interleaved repetitions (bench_repeat.hpp)
  std::string statistics_file;        // --statistics: their summary (default: standard error)
  std::string repetitions_file;       // --repetitions: every repetition, in the order run
  int background_ranks = 0;           // --background-ranks: the last ranks run a background job
  std::size_t background_bytes = 4u << 20;  // --background-bytes: its bytes per pair of ranks
  std::optional<TrafficPattern> pattern;    // --pattern, --seed: alltoallv's per-pair sizes

  // size_list when set, else min, 2*min, 4*min, ... up to max (as in the OSU benchmarks); a size
  // of 0 is followed by 1.
  std::vector<std::size_t> message_sizes() const;
  int iterations_for(std::size_t bytes) const;
  int warmup_for(std::size_t bytes) const;
};

// The result of parsing: options to run with, or (after --help or an error) the exit status.
struct ParsedCommandLine {
  std::optional<BenchOptions> options;
  int exit_status = 0;
};

// Parses the command line. Help and error messages are printed only when `print` is true (on
// rank 0), so that every rank can parse and all of them agree on the outcome.
ParsedCommandLine parse_command_line(int argc, char** argv, bool print);

}  // namespace topocoll::bench
