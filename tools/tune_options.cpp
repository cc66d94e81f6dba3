// Parsing of topocoll-tune's command line (tune_options.hpp).
#include "tune_options.hpp"

// smpicxx force-includes smpi_helpers.h, whose exit(x) macro would rewrite CLI11's App::exit.
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

namespace topocoll::tune {

namespace {

constexpr std::size_t kLargestBlock = static_cast<std::size_t>(std::numeric_limits<int>::max());
constexpr const char* kDefaultSizes = "8,64,512,4096,32768,262144,1048576";

std::size_t byte_count(const std::string& text) {
  std::size_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc{} || stop != end || value == 0 || value > kLargestBlock) {
    throw CLI::ValidationError("--sizes", "'" + text + "' is not a block size in bytes (1 to 2^31-1)");
  }
  return value;
}

// "MIN:MAX" doubles from MIN to MAX (as topocoll-bench -m); "A,B,C" names the sizes.
std::vector<std::size_t> parse_sizes(const std::string& text) {
  std::vector<std::size_t> sizes;
  if (const auto colon = text.find(':'); colon != std::string::npos) {
    const std::size_t low = byte_count(text.substr(0, colon));
    const std::size_t high = byte_count(text.substr(colon + 1));
    if (low > high) throw CLI::ValidationError("--sizes", "MIN:MAX with MIN above MAX");
    for (std::size_t size = low; size <= high; size *= 2) sizes.push_back(size);
    return sizes;
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    sizes.push_back(byte_count(text.substr(start, comma - start)));
    start = comma + 1;
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

std::vector<Operation> parse_operations(const std::vector<std::string>& names) {
  std::vector<Operation> operations;
  for (const std::string& name : names) {
    if (name == "all") return std::vector<Operation>(std::begin(kOperations), std::end(kOperations));
    const auto op = operation_named(name);
    if (!op) {
      throw CLI::ValidationError("--op", "unknown operation '" + name +
                                             "'; valid: alltoall, alltoallv, scatter, gather, scatterv, gatherv, all");
    }
    if (std::find(operations.begin(), operations.end(), *op) == operations.end()) operations.push_back(*op);
  }
  return operations;
}

constexpr const char* kFooter = R"(What it does:
  For each operation and block size, every algorithm that applies, the MPI library's own
  (native) and auto's cost model (from the calibration without its table) are validated once,
  then timed as topocoll-bench --repeat N times them: their timed blocks take turns
  (A B C A B C ...) N times. The time of a repetition is the slowest rank's average per call
  (under SMPI every rank starts at one simulated instant, as with topocoll-bench --sync window).
  The fastest by median wins a size if it is native or if a one-sided paired t-test on the
  logarithms of its per-repetition ratios to native says it is faster at --confidence (0.95:
  p < 0.05); else native wins (the fastest is within its noise). More repetitions make the
  test able to see smaller gains: with 5, a gain must be large or steady. A size where the
  fastest was faster than native on the geometric mean but not at the confidence asked is
  measured again with twice the repetitions, up to --max-repeat, until the test tells. A win by
  auto hands the size to the cost model (its choice can be a tuned setting, a topo variant,
  that no fixed name runs). So auto, following the table, runs the fastest measured or
  something within its noise, and is never slower than the MPI library beyond the noise
  measured here.
  Where adjacent sizes have different winners, --refine rounds of bisection measure their
  geometric midpoint, so that a boundary lies near where the winner changes. Adjacent sizes
  with the same winner become one range; the unmeasured gap between two ranges goes to native
  where either is native (else to the smaller sizes' winner), and sizes below the first and
  above the last tuned size to native. The table is added to the calibration file under
  "decisions" (replacing the entries for the same operation, number of ranks and topology
  shape); auto follows it (docs/tuning.md).
Example:
  mpirun -np 16 topocoll-tune --op alltoall,gather --calibration my.calibration.json \
      --topology my.topology.json --sizes 8:1048576 --repeat 7)";

}  // namespace

ParsedTuneCommandLine parse_tune_command_line(int argc, char** argv, bool print) {
  TuneOptions options;
  options.command = "topocoll-tune";
  for (int i = 1; i < argc; ++i) options.command += std::string(" ") + argv[i];

  CLI::App app{"topocoll-tune: measures every algorithm and the MPI library's own over a size sweep and writes "
               "the winners into the calibration file as auto's decision table.",
               "topocoll-tune"};
  app.footer(kFooter);
  app.get_formatter()->column_width(30);
  std::vector<std::string> operations{"alltoall"};
  app.add_option("--op", operations,
                 "Operations, comma-separated: alltoall, alltoallv, scatter, gather, scatterv, gatherv, or all")
      ->delimiter(',')
      ->capture_default_str();
  std::string sizes = kDefaultSizes;
  app.add_option("--sizes", sizes, "Bytes per block: a comma-separated list, or MIN:MAX (MIN, 2*MIN, ... MAX)")
      ->capture_default_str();
  app.add_option("--repeat", options.repeat, "Interleaved repetitions per size")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()))
      ->capture_default_str();
  app.add_option("--max-repeat", options.max_repeat,
                 "Repetitions a size may grow to (doubling from --repeat) while its test cannot tell")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()))
      ->capture_default_str();
  app.add_option("--confidence", options.confidence,
                 "Confidence that the winner is faster than native (a paired t-test on the repetitions)")
      ->check(CLI::Range(0.5, 0.9999))
      ->capture_default_str();
  app.add_option("--refine", options.refine,
                 "Rounds of bisection between adjacent sizes whose winners differ (0: none)")
      ->check(CLI::Range(0, 20))
      ->capture_default_str();
  app.add_option("--calibration", options.calibration,
                 "The calibration file (topocoll-calibrate) the table is added to (default: TOPOCOLL_CALIBRATION)");
  app.add_option("--output", options.output, "Write the calibration with its table here (default: back to --calibration)");
  app.add_option("--topology", options.topology,
                 "The topology, as topocoll-bench takes it: clusters:N1,N2,..., flat:N, pattern:REGEX or a file "
                 "(default: TOPOCOLL_TOPOLOGY, else Slurm's or the node level)");
  app.add_option("--root", options.root, "scatter and gather: the root rank")
      ->check(CLI::Range(0, std::numeric_limits<int>::max()))
      ->capture_default_str();
  app.add_option("-i,--iterations", options.iterations, "Timed calls per repetition (default: topocoll-bench's)")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  app.add_option("-x,--warmup", options.warmup, "Untimed calls before them (default: topocoll-bench's)")
      ->check(CLI::Range(0, std::numeric_limits<int>::max()));
  // SimGrid's smpirun takes --help for itself, so point to -h, which works everywhere.
  app.failure_message([](const CLI::App*, const CLI::Error& error) {
    return "topocoll-tune: " + std::string(error.what()) + "\nRun topocoll-tune -h for the options.\n";
  });
  try {
    app.parse(argc, argv);
    options.operations = parse_operations(operations);
    options.sizes = parse_sizes(sizes);
    // Read at the entry point only, as topocoll-bench does.
    if (options.calibration.empty()) {
      if (const char* env = std::getenv("TOPOCOLL_CALIBRATION")) options.calibration = env;
    }
    if (options.topology.empty()) {
      if (const char* env = std::getenv("TOPOCOLL_TOPOLOGY")) options.topology = env;
    }
    if (options.calibration.empty()) {
      throw CLI::ValidationError("--calibration", "the table goes into a calibration file: give --calibration FILE "
                                                  "(made by topocoll-calibrate) or TOPOCOLL_CALIBRATION");
    }
    if (options.output.empty()) options.output = options.calibration;
  } catch (const CLI::ParseError& error) {
    std::ostream silent{nullptr};
    return {std::nullopt, print ? app.exit(error) : app.exit(error, silent, silent)};
  }
  return {std::move(options), 0};
}

}  // namespace topocoll::tune
