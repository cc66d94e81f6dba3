// Parsing of topocoll-bench's command line (CLI11) and the checks that need more than one
// option at a time: algorithm names against the registry, format-specific options, SMPI-only
// options.
#include "bench_options.hpp"

// smpicxx force-includes smpi_helpers.h, whose exit(x) macro would rewrite CLI11's App::exit.
// Nothing here means the C library's exit.
#ifdef exit
#undef exit
#endif

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <ostream>

#include "algorithms/group_level.hpp"
#include "algorithms/registry.hpp"

namespace topocoll::bench {

namespace {

// OSU's split between small and large messages (LARGE_MESSAGE_SIZE) and its defaults.
constexpr std::size_t kLargeMessageBytes = 8192;
constexpr int kIterationsSmall = 1000;
constexpr int kIterationsLarge = 100;
constexpr int kWarmupSmall = 200;
constexpr int kWarmupLarge = 10;
constexpr int kIntMax = std::numeric_limits<int>::max();

std::size_t parse_byte_count(const std::string& text, const std::string& option, const std::string& what) {
  std::size_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc{} || stop != end) {
    throw CLI::ValidationError(option, what + " '" + text + "' is not a byte count");
  }
  return value;
}

// "-m 1024" names one size, "-m 4:65536" a doubling sweep from 4 to 65536.
void parse_size_range(const std::string& text, BenchOptions& options) {
  const auto colon = text.find(':');
  if (colon == std::string::npos) {
    options.min_bytes = options.max_bytes = parse_byte_count(text, "--message-size", "size");
  } else {
    options.min_bytes = parse_byte_count(text.substr(0, colon), "--message-size", "minimum size");
    options.max_bytes = parse_byte_count(text.substr(colon + 1), "--message-size", "maximum size");
  }
  if (options.min_bytes > options.max_bytes) {
    throw CLI::ValidationError("--message-size", "minimum size " + std::to_string(options.min_bytes) +
                                                     " exceeds maximum size " + std::to_string(options.max_bytes));
  }
  // Every rank sends p blocks described by an int count of MPI_BYTE.
  if (options.max_bytes > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw CLI::ValidationError("--message-size", "a block may hold at most " +
                                                     std::to_string(std::numeric_limits<int>::max()) + " bytes");
  }
}

void check_algorithm_names(const std::vector<std::string>& names, Operation op) {
  if (names.empty()) throw CLI::ValidationError("--algorithms", "the list of algorithms is empty");
  for (const std::string& name : names) {
    if (name != "auto" && find_algorithm(op, name) == nullptr) {
      throw CLI::ValidationError("--algorithms", "unknown " + std::string(to_string(op)) + " algorithm '" + name +
                                                     "'; valid names: " + algorithm_names(op) + ", auto");
    }
  }
}

std::vector<std::string> all_algorithm_names(Operation op) {
  std::vector<std::string> names;
  for (const Algorithm& a : algorithms_for(op)) names.emplace_back(a.name);
  return names;
}

std::string algorithm_help() {
  std::string text = "Comma-separated algorithm names (default: all of the operation's). Alltoall:";
  for (Operation op : {Operation::alltoall, Operation::scatter}) {
    if (op == Operation::scatter) text += "\nScatter, gather and their v forms:";
    for (const Algorithm& a : algorithms_for(op)) {
      text += "\n  ";
      text += a.name;
      text += ": ";
      text += a.summary;
    }
  }
  text += "\nEvery operation:\n  auto: the algorithm the calibrated cost model predicts fastest (needs --calibration)";
  return text;
}

constexpr const char* kFooter = R"(Output:
  --format osu (default) prints one OSU-style table per algorithm; --format csv prints the
  header op,algorithm,np,bytes,avg_us,min_us,max_us,iterations,valid and one row per
  algorithm and size (op = the --op value; bytes = bytes per block: each rank's block of a
  scatter or gather, each pair's of an alltoall; valid = yes, no or skipped). Only rank 0 prints.
Operations (--op): alltoall (the default), alltoallv (every block of the -m size, through
  MPI_Alltoallv's interface; with --pattern, irregular sizes around it, printed as a
  '# pattern:' line: on standard output, or standard error under --format csv), scatter, gather,
  scatterv, gatherv (rooted at --root).
Timing (as the OSU micro-benchmarks): warm-up calls, then timed calls with a barrier between
  them outside the timed region; each rank averages its calls, the table shows the average,
  minimum and maximum of those per-rank averages. Before its first size, each algorithm makes one
  untimed call with 1-byte blocks (the library's one-time set-up). With --sync window every rank
  starts at one instant and times from it: max is then the time until the last rank is done.
Validation (-c): before timing, each size is run once and its receive buffer compared byte by
  byte with the MPI library's own call of the operation on the same data. Off by default for --format osu (as in OSU), on by
  default for --format csv so that its 'valid' column means something; --no-validate turns it off.
Repetitions (--repeat N): at each size every algorithm is validated once, then its timed block
  (warm-up and timed calls) runs N times, the algorithms taking turns (A B C A B C ...). Each row
  then shows the median over the N repetitions of the repetition's avg, min and max; the spread
  and the per-repetition ratios to the baseline go to --statistics (CSV), every repetition to
  --repetitions (CSV).
auto: what it runs at each size, and what chose it (the cost model, or the calibration's
  decision table from topocoll-tune), is said on standard error with --format csv ("auto at N
  bytes per block runs X, chosen by the cost model"), as a '# N bytes: auto runs X, chosen by
  ...' line of the table with --format osu.
Busy network (--background-ranks N): the job's last N ranks (the hostfile's last N lines) are
  a background job; the measured ranks are the others, and np is theirs. Each background rank
  sends --background-bytes to every background rank in another group of the outermost level of
  the topology (--topology), none inside its own group (pairwise steps: one send and one
  receive in flight per rank), exchange after exchange until the measured ranks are done; it says how many
  exchanges it made on standard error.
Topology-aware algorithms (lg) need a topology (--topology or TOPOCOLL_TOPOLOGY); without one,
  or when it does not fit them, they print no row and say why on standard error.
Examples:
  mpirun -np 16 topocoll-bench --algorithms direct,native -m 1:65536
  scripts/simulate.sh two-clusters-20-40 60 -- --format csv --algorithms lg,direct -m 65536 -i 3 -x 1
  scripts/simulate.sh crossbar-16 16 -- --format csv -m 5968:763904 -i 5 -x 1
  scripts/simulate.sh --hostfile platforms/ib-switch-tree-busy.hosts ib-switch-tree 392 -- --op gather
    --background-ranks 96 --algorithms binomial,topo -m 1024 -i 1 -x 0 --sync window)";

}  // namespace

std::vector<std::size_t> BenchOptions::message_sizes() const {
  if (!size_list.empty()) return size_list;
  std::vector<std::size_t> sizes;
  std::size_t size = min_bytes;
  if (size == 0) {
    sizes.push_back(0);
    size = 1;
  }
  for (; size <= max_bytes; size *= 2) sizes.push_back(size);
  return sizes;
}

int BenchOptions::iterations_for(std::size_t bytes) const {
  if (iterations) return *iterations;
  return bytes > kLargeMessageBytes ? kIterationsLarge : kIterationsSmall;
}

int BenchOptions::warmup_for(std::size_t bytes) const {
  if (warmup) return *warmup;
  return bytes > kLargeMessageBytes ? kWarmupLarge : kWarmupSmall;
}

ParsedCommandLine parse_command_line(int argc, char** argv, bool print) {
  BenchOptions options;

  CLI::App app{"topocoll-bench: latency of a collective (MPI_Alltoall by default; --op) for topocoll's "
               "algorithms and the MPI library's own (native), OSU micro-benchmark style.",
               "topocoll-bench"};
  app.footer(kFooter);
  app.get_formatter()->column_width(30);

  std::string size_range = std::to_string(options.min_bytes) + ":" + std::to_string(options.max_bytes);
  app.add_option("-m,--message-size", size_range,
                 "Bytes per block: MIN:MAX sweeps MIN, 2*MIN, 4*MIN... up to MAX; a single "
                 "number runs that size only")
      ->capture_default_str();
  app.add_option("-i,--iterations", options.iterations,
                 "Timed calls per size (default: 1000 up to 8192 bytes, 100 above)")
      ->check(CLI::Range(1, kIntMax));
  app.add_option("-x,--warmup", options.warmup, "Untimed warm-up calls per size (default: 200 up to "
                                                "8192 bytes, 10 above)")
      ->check(CLI::Range(0, kIntMax));
  std::string operation = "alltoall";
  app.add_option("--op", operation, "The operation measured")
      ->check(CLI::IsMember({"alltoall", "alltoallv", "scatter", "gather", "scatterv", "gatherv"}))
      ->capture_default_str();
  app.add_option("--root", options.root, "scatter and gather: the root rank")
      ->check(CLI::Range(0, kIntMax))
      ->capture_default_str();
  CLI::Option* algorithms_option = app.add_option("--algorithms", options.algorithms, algorithm_help())->delimiter(',');
  std::string format = "osu";
  app.add_option("--format", format, "Output format")->check(CLI::IsMember({"osu", "csv"}))->capture_default_str();
  CLI::Option* validate_flag = app.add_flag(
      "-c,--validate,!--no-validate", options.validate,
      "Check every size byte-exactly against MPI_Alltoall (default: off for osu, on for csv)");
  app.add_flag("--predict", options.predict,
               "osu format only: add the Tam-Wang predicted time (Table 1 parameters at this np) "
               "as a Predicted(us) column");
  app.add_option("--group-width", options.group_width, "group-shuffle: partners per round (the paper's w)")
      ->check(CLI::Range(1, kIntMax))
      ->capture_default_str();
  app.add_option("--stripes", options.stripes,
                 "overlap: messages per block across the outermost level, sent at once (0: one; under "
                 "auto, chosen by the cost model)")
      ->check(CLI::Range(0, kIntMax))
      ->capture_default_str();
  app.add_option("--group-level", options.group_level,
                 "lg, overlap: the topology level whose groups they use (0: the outermost, the node level "
                 "innermost; -1: the outermost, or under auto each level priced)")
      ->check(CLI::Range(-1, kMaxGroupLevel))
      ->capture_default_str();
  app.add_option("--topo-stars", options.topo_stars,
                 "topo: bit l set makes phase l (0: the outermost level) a star instead of a binomial tree")
      ->capture_default_str();
  app.add_option("--topo-skip", options.topo_skip,
                 "topo: bit l set gives topology level l no phase (its leaders are skipped)")
      ->capture_default_str();
  app.add_option("--max-requests", options.max_requests,
                 "Bound on point-to-point requests in flight per rank (0: no bound)")
      ->check(CLI::Range(0, kIntMax))
      ->capture_default_str();
  app.add_option("--copy-bandwidth", options.copy_bandwidth,
                 "Simulation: bytes/s charged for topocoll's local copies (0: library default)")
      ->capture_default_str();
  app.add_flag("--shared-malloc", options.shared_malloc,
               "SMPI only: SMPI_SHARED_MALLOC buffers (timing only: the data is garbage, so valid "
               "is 'skipped')");
  app.add_option("--topology", options.topology,
                 "Topology for topology-aware algorithms (lg): clusters:N1,N2,..., flat:N, pattern:REGEX "
                 "(named groups of a regular expression on the host name: the levels) or a topology file "
                 "(default: the TOPOCOLL_TOPOLOGY environment variable, else Slurm's SLURM_TOPOLOGY_ADDR)");
  app.add_option("--network", options.network,
                 "The SimGrid platform the ranks run on (written by topocoll-platform), for algorithms that "
                 "read the network's routes (linkaware) and for auto, whose cost model then charges its links; "
                 "each rank's host is its MPI_Get_processor_name "
                 "(default: the TOPOCOLL_NETWORK environment variable; none: the topology read as a tree)");
  app.add_option("--calibration", options.calibration,
                 "auto: the machine's calibration file, made by topocoll-calibrate (default: the "
                 "TOPOCOLL_CALIBRATION environment variable)");
  std::string sync = "barrier";
  app.add_option("--sync", sync,
                 "How timed calls start: barrier (OSU: each rank times from its own barrier exit) or window "
                 "(SMPI only: all ranks start at one time, rank 0's clock + --sync-window, and time from "
                 "it; keeps the barrier's exit skew out)")
      ->check(CLI::IsMember({"barrier", "window"}))
      ->capture_default_str();
  app.add_option("--sync-window", options.sync_window,
                 "--sync window: first delay in seconds between the barrier and the start (doubled and "
                 "the call repeated when some rank learns the start too late)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--repeat", options.repeat,
                 "Run the timed block of every algorithm N times, interleaved (A B C A B C ...) at each size; "
                 "the rows then give the median over the repetitions (docs/tuning.md)")
      ->check(CLI::Range(1, kIntMax));
  app.add_option("--statistics", options.statistics_file,
                 "--repeat: write the median, the spread and the median ratio to the baseline (native, else "
                 "the first algorithm) of every point to this CSV file (default: standard error)");
  app.add_option("--repetitions", options.repetitions_file,
                 "--repeat: write every repetition's time, in the order run, to this CSV file");
  std::string background_bytes;
  app.add_option("--background-ranks", options.background_ranks,
                 "A busy network: the last N ranks of the job are not measured but run a background job, "
                 "an all-to-all between the groups of the topology's outermost level only (e.g. between "
                 "switches), over and over until the measured ranks are done (0: none)")
      ->check(CLI::Range(0, kIntMax))
      ->capture_default_str();
  app.add_option("--background-bytes", background_bytes,
                 "The background job's bytes per pair of ranks in different groups, per call (default: "
                 "4194304, the 4 MB of Kandalla et al.'s busy network)");
  std::string pattern;
  std::uint64_t seed = 1;
  app.add_option("--pattern", pattern,
                 "alltoallv: per-pair sizes around the -m size M: uniform (M), random (uniform in [0, 2M]), "
                 "zipf:S (each sender's p*M bytes over the destinations by a Zipf law of exponent S, in a "
                 "seeded order), sparse:K (M bytes to about K random receivers), hotspot:H (3/4 of each "
                 "sender's p*M bytes to H seeded hot ranks) (default: uniform)");
  app.add_option("--seed", seed, "--pattern: the seed of its random choices")->capture_default_str();
  std::string max_scratch, segment;
  app.add_option("--max-scratch", max_scratch, "lg: cap on library scratch per rank in bytes; larger "
                                               "exchanges are pipelined in pieces (default: no cap)");
  app.add_option("--segment-bytes", segment, "lg: pipeline blocks in pieces of this many bytes (default: "
                                             "whole blocks, or what --max-scratch allows)");

  // SimGrid's smpirun takes --help for itself, so point to -h, which works everywhere.
  app.failure_message([](const CLI::App*, const CLI::Error& error) {
    return "topocoll-bench: " + std::string(error.what()) + "\nRun topocoll-bench -h for the options.\n";
  });

  try {
    app.parse(argc, argv);
    options.format = format == "csv" ? OutputFormat::csv : OutputFormat::osu;
    parse_size_range(size_range, options);
    if (!max_scratch.empty()) options.max_scratch_bytes = parse_byte_count(max_scratch, "--max-scratch", "scratch cap");
    if (!background_bytes.empty()) {
      if (options.background_ranks == 0) {
        throw CLI::ValidationError("--background-bytes", "applies only with --background-ranks N");
      }
      options.background_bytes = parse_byte_count(background_bytes, "--background-bytes", "byte count");
      if (options.background_bytes == 0) {
        throw CLI::ValidationError("--background-bytes", "a background that sends nothing is a quiet network");
      }
    }
    if (!segment.empty()) options.segment_bytes = parse_byte_count(segment, "--segment-bytes", "segment size");
    if (!pattern.empty()) {
      if (operation != "alltoallv") throw CLI::ValidationError("--pattern", "applies only to --op alltoallv");
      try {
        options.pattern = TrafficPattern::parse(pattern, seed);
      } catch (const std::invalid_argument& e) {
        throw CLI::ValidationError("--pattern", e.what());
      }
    }
    // Read at the entry point only: what the library would read itself, needed here too so that
    // "not applicable" can be told before a call.
    if (options.topology.empty()) {
      if (const char* env = std::getenv("TOPOCOLL_TOPOLOGY")) options.topology = env;
    }
    if (options.calibration.empty()) {
      if (const char* env = std::getenv("TOPOCOLL_CALIBRATION")) options.calibration = env;
    }
    if (options.network.empty()) {
      if (const char* env = std::getenv("TOPOCOLL_NETWORK")) options.network = env;
    }
    options.operation = *operation_named(operation);
    if (algorithms_option->count() == 0) options.algorithms = all_algorithm_names(options.operation);
    check_algorithm_names(options.algorithms, options.operation);
    const bool wants_auto =
        std::find(options.algorithms.begin(), options.algorithms.end(), "auto") != options.algorithms.end();
    if (wants_auto && options.calibration.empty()) {
      throw CLI::ValidationError("--algorithms", "auto needs --calibration FILE (or TOPOCOLL_CALIBRATION)");
    }
    if (!(options.copy_bandwidth >= 0.0)) {
      throw CLI::ValidationError("--copy-bandwidth", "must be a number of bytes per second, 0 or more");
    }
    if (options.predict && options.format != OutputFormat::osu) {
      throw CLI::ValidationError("--predict", "applies to --format osu only (the CSV columns are fixed)");
    }
    options.window_sync = sync == "window";
    if (!options.repeat && (!options.statistics_file.empty() || !options.repetitions_file.empty())) {
      throw CLI::ValidationError(options.statistics_file.empty() ? "--repetitions" : "--statistics",
                                 "applies to --repeat N only");
    }
    if (options.window_sync && !kBuiltForSmpi) {
      throw CLI::ValidationError("--sync", "window needs a global clock: the SMPI build (build/smpi)");
    }
    if (options.shared_malloc && !kBuiltForSmpi) {
      throw CLI::ValidationError("--shared-malloc", "needs the SMPI build (build/smpi)");
    }
    const bool validate_given = validate_flag->count() > 0;
    if (options.shared_malloc && validate_given && options.validate) {
      throw CLI::ValidationError("--shared-malloc", "buffers hold no real data: it cannot be combined with -c");
    }
    if (!validate_given) options.validate = options.format == OutputFormat::csv;
    if (options.shared_malloc) options.validate = false;
  } catch (const CLI::ParseError& error) {
    std::ostream silent{nullptr};
    return {std::nullopt, print ? app.exit(error) : app.exit(error, silent, silent)};
  }
  return {std::move(options), 0};
}

}  // namespace topocoll::bench
