// topocoll-tune: measured tuning where a machine is at hand (real MPI, or SMPI on a simulated
// platform). For each operation and block size it times every applicable algorithm and the MPI
// library's own, and auto's cost model, with topocoll-bench's measurement (bench_run.hpp:
// validated once, then interleaved repetitions), picks the winners (src/select/tuning.hpp: native
// unless a paired test says an algorithm is faster) and writes them into the calibration file as
// auto's decision table (src/select/decision_table.hpp). `topocoll-tune -h` lists the options.
#include <mpi.h>

#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "bench_report.hpp"
#include "bench_run.hpp"
#include "exec/topology_discovery.hpp"
#include "select/calibration.hpp"
#include "select/tuning.hpp"
#include "tune_options.hpp"

namespace {

using namespace topocoll;
using namespace topocoll::bench;
using namespace topocoll::tune;

// The benchmark's options for one operation: every algorithm of its registry (native included),
// and auto's own choice from `model_calibration` (the calibration without its decision table:
// the cost model alone, whatever an earlier tuning wrote). Where auto is the fastest, the table
// hands those sizes to the model (kModelDecision), whose choice can be a tuned setting of an
// algorithm (a topo variant) that no fixed name runs; a fixed name wins a tie, being listed first.
BenchOptions bench_options_for(const TuneOptions& tune, Operation operation, const Calibration& calibration,
                               const std::string& model_calibration) {
  BenchOptions options;
  options.operation = operation;
  options.root = tune.root;
  options.size_list = tune.sizes;
  options.iterations = tune.iterations;
  options.warmup = tune.warmup;
  for (const Algorithm& a : algorithms_for(operation)) options.algorithms.emplace_back(a.name);
  options.algorithms.emplace_back(kModelDecision);
  options.calibration = model_calibration;
  options.format = OutputFormat::csv;
  options.validate = true;  // a wrong answer must not win
  options.topology = tune.topology;
  options.repeat = tune.repeat;
  // Under SMPI copies cost what the library is told; charge what the calibration measured with.
  options.copy_bandwidth = kBuiltForSmpi ? calibration.copy.bytes_per_s : 0.0;
  // Under SMPI every rank starts each timed block at one instant of the simulated clock, as the
  // studies time (topocoll-bench --sync window): with a barrier's exit skew a tree's time moves by
  // microseconds, enough to swap winners that are a few percent apart.
  options.window_sync = kBuiltForSmpi;
  return options;
}

// What each algorithm measured at one size: the slowest rank's time (a collective is done when
// its last rank is), per repetition and its median. Invalid points are left out.
std::vector<TunedTimes> times_at(std::size_t bytes, const std::vector<std::string>& algorithms,
                                 const RepeatedRuns& runs, const std::vector<MeasuredPoint>& points) {
  std::vector<TunedTimes> measured;
  for (const std::string& algorithm : algorithms) {
    bool valid = false;
    for (const MeasuredPoint& p : points) valid |= p.algorithm == algorithm && p.block_bytes == bytes && p.validity != Validity::no;
    const std::optional<RepetitionSummary> summary = runs.summary(algorithm, bytes);
    if (!valid || !summary) continue;
    measured.push_back({algorithm, summary->median.max_us, values_of(runs.times(algorithm, bytes), &RepetitionTime::max_us)});
  }
  return measured;
}

// One row per size: every algorithm's median (- where it does not apply, "invalid" where its
// answer was wrong), and the winner with why.
void print_size_row(std::ostream& out, std::size_t bytes, const std::vector<std::string>& algorithms,
                    const std::vector<TunedTimes>& measured, const std::vector<MeasuredPoint>& points,
                    const std::optional<SizeWinner>& winner) {
  out << std::setw(9) << bytes;
  for (const std::string& algorithm : algorithms) {
    std::string cell = "-";
    for (const MeasuredPoint& p : points) {
      if (p.algorithm == algorithm && p.block_bytes == bytes && p.validity == Validity::no) cell = "invalid";
    }
    for (const TunedTimes& t : measured) {
      if (t.algorithm != algorithm) continue;
      std::ostringstream number;
      number << std::fixed << std::setprecision(1) << t.median_us;
      cell = number.str();
    }
    out << ' ' << std::setw(std::max<int>(10, static_cast<int>(algorithm.size()))) << cell;
  }
  if (winner) {
    out << "  " << winner->algorithm << " (" << winner->why << ")";
  } else {
    out << "  no winner: native did not run";
  }
  out << '\n';
}

// One measured size: its row of the printed table, its winner, and the repetitions it took.
struct TunedSize {
  std::string row;
  std::optional<SizeWinner> winner;
  int repetitions = 0;
};

// Measures `sizes` (every algorithm, validated, then `repetitions` interleaved repetitions) into
// `tuned`, replacing what was measured there before.
bool measure_sizes(const TuneOptions& tune, BenchOptions options, const std::vector<std::size_t>& sizes,
                   int repetitions, MPI_Comm comm, std::map<std::size_t, TunedSize>& tuned) {
  int p = 1;
  MPI_Comm_size(comm, &p);
  options.size_list = sizes;
  options.repeat = repetitions;
  std::ostream silent(nullptr);
  Report report(silent, options, p, false);  // tune prints its own table
  RepeatedRuns runs;
  std::vector<MeasuredPoint> points;
  if (measure(options, comm, "topocoll-tune", report, runs, &points) != 0) return false;
  for (const std::size_t bytes : sizes) {
    const std::vector<TunedTimes> measured = times_at(bytes, options.algorithms, runs, points);
    TunedSize& size = tuned[bytes];
    size.winner = pick_winner(bytes, measured, tune.confidence);
    size.repetitions = repetitions;
    std::ostringstream row;
    print_size_row(row, bytes, options.algorithms, measured, points, size.winner);
    size.row = row.str();
  }
  return true;
}

// Rank 0's list, on every rank: the winners are told from the repetitions' slowest-rank times,
// which only rank 0 holds (the benchmark reduces them there), and every rank must measure the
// same sizes next.
std::vector<std::size_t> rank_zeros(std::vector<std::size_t> sizes, MPI_Comm comm) {
  unsigned long long count = sizes.size();
  MPI_Bcast(&count, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  std::vector<unsigned long long> values(sizes.begin(), sizes.end());
  values.resize(static_cast<std::size_t>(count));
  MPI_Bcast(values.data(), static_cast<int>(count), MPI_UNSIGNED_LONG_LONG, 0, comm);
  return std::vector<std::size_t>(values.begin(), values.end());
}

// Measures `sizes` with --repeat repetitions, then again with twice as many, up to --max-repeat,
// those whose paired test could not tell (undecided_sizes): the machine decides how many
// repetitions a size needs, not a guess made before measuring it.
bool measure_until_decided(const TuneOptions& tune, const BenchOptions& options, const std::vector<std::size_t>& sizes,
                           MPI_Comm comm, std::map<std::size_t, TunedSize>& tuned) {
  if (!measure_sizes(tune, options, sizes, tune.repeat, comm, tuned)) return false;
  for (int repetitions = 2 * tune.repeat; repetitions <= tune.max_repeat; repetitions *= 2) {
    std::vector<SizeWinner> winners;
    for (const std::size_t bytes : sizes) {
      if (tuned[bytes].winner) winners.push_back(*tuned[bytes].winner);
    }
    const std::vector<std::size_t> again = rank_zeros(undecided_sizes(winners), comm);
    if (again.empty()) break;
    if (!measure_sizes(tune, options, again, repetitions, comm, tuned)) return false;
  }
  return true;
}

// Tunes one operation; the table's new entries (every rank returns them; rank 0 prints). After
// the sizes asked for, up to --refine rounds of bisection where adjacent winners differ, so that
// a range's boundary lies near where the winner changes, not wherever the next asked size was.
std::optional<std::vector<Decision>> tune_operation(const TuneOptions& tune, Operation operation,
                                                    const Calibration& calibration, const std::string& model_calibration,
                                                    const std::string& shape, MPI_Comm comm, std::ostream& out) {
  int p = 1;
  MPI_Comm_size(comm, &p);
  const BenchOptions options = bench_options_for(tune, operation, calibration, model_calibration);
  std::map<std::size_t, TunedSize> tuned;
  if (!measure_until_decided(tune, options, tune.sizes, comm, tuned)) return std::nullopt;
  const auto winners = [&] {
    std::vector<SizeWinner> list;
    for (const auto& [bytes, size] : tuned) {
      if (size.winner) list.push_back(*size.winner);
    }
    return list;
  };
  std::vector<std::size_t> bisected;
  for (int round = 0; round < tune.refine; ++round) {
    const std::vector<std::size_t> between = rank_zeros(sizes_between_changing_winners(winners()), comm);
    if (between.empty()) break;
    if (!measure_until_decided(tune, options, between, comm, tuned)) return std::nullopt;
    bisected.insert(bisected.end(), between.begin(), between.end());
  }
  out << "topocoll-tune: " << to_string(operation) << " on " << p << " ranks, shape " << shape << ", "
      << tune.repeat << " repetitions; median of the slowest rank's time per call, us\n"
      << std::setw(9) << "bytes";
  for (const std::string& algorithm : options.algorithms) out << ' ' << std::setw(std::max<int>(10, static_cast<int>(algorithm.size()))) << algorithm;
  out << "  winner\n";
  std::vector<std::string> remeasured;
  for (const auto& [bytes, size] : tuned) {
    out << size.row;
    if (size.repetitions > tune.repeat) remeasured.push_back(std::to_string(bytes) + " (" + std::to_string(size.repetitions) + ")");
  }
  if (!remeasured.empty()) {
    out << "  measured again with more repetitions, the test undecided:";
    for (const std::string& r : remeasured) out << ' ' << r;
    out << '\n';
  }
  if (!bisected.empty()) {
    out << "  bisected where the winner changes:";
    for (const std::size_t bytes : bisected) out << ' ' << bytes;
    out << '\n';
  }
  std::vector<Decision> table = decisions_from(operation, p, shape, winners());
  for (const Decision& d : table) {
    out << "  " << d.from_bytes << "-" << d.to_bytes << " bytes per block: " << d.algorithm
        << (d.measured.empty() ? " (outside the tuned sizes)" : "") << '\n';
  }
  return table;
}

// Rank 0 writes the calibration; every rank learns whether that worked.
bool write_calibration(const Calibration& calibration, const std::string& path, MPI_Comm comm, int rank) {
  int ok = 1;
  if (rank == 0) {
    std::ofstream file(path);
    file << calibration_to_json(calibration);
    if (!file) {
      std::cerr << "topocoll-tune: cannot write '" << path << "'\n";
      ok = 0;
    }
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
  return ok != 0;
}

int run_tuning(const TuneOptions& tune, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string error;
  std::optional<Calibration> calibration = load_calibration(tune.calibration, &error);
  if (!calibration) {
    if (rank == 0) std::cerr << "topocoll-tune: " << error << '\n';
    return 2;
  }
  // The shape auto will see: the topology the library discovers under the same spec.
  Topology topology;
  if (auto failure = exec::discover_topology(comm, tune.topology, topology)) {
    if (rank == 0) std::cerr << "topocoll-tune: topology '" << tune.topology << "': " << failure->message << '\n';
    return 2;
  }
  const std::string shape = topology_shape(topology);
  std::ostream silent(nullptr);
  std::ostream& out = rank == 0 ? std::cout : silent;
  // auto is measured from the calibration without its table, written beside the output for the
  // run (every rank reads it, as every rank reads --calibration).
  Calibration model_only = *calibration;
  model_only.decisions.clear();
  const std::string model_calibration = tune.output + ".model-only.tmp";
  if (!write_calibration(model_only, model_calibration, comm, rank)) return 1;
  std::vector<Decision> fresh;
  bool measured = true;
  for (const Operation operation : tune.operations) {
    const auto table = tune_operation(tune, operation, *calibration, model_calibration, shape, comm, out);
    if (!table) {
      measured = false;
      break;
    }
    fresh.insert(fresh.end(), table->begin(), table->end());
  }
  MPI_Barrier(comm);  // every rank is done reading it
  if (rank == 0) std::remove(model_calibration.c_str());
  if (!measured) return 2;
  calibration->decisions = merge_decisions(calibration->decisions, fresh);
  if (!write_calibration(*calibration, tune.output, comm, rank)) return 1;
  out << "topocoll-tune: wrote " << fresh.size() << (fresh.size() == 1 ? " decision table entry (" : " decision table entries (")
      << calibration->decisions.size() << " in all) to " << tune.output << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const ParsedTuneCommandLine command_line = parse_tune_command_line(argc, argv, rank == 0);
  int status = command_line.exit_status;
  if (command_line.options) {
    // Failures come back as error codes, so that the measurement can say which point failed.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    status = run_tuning(*command_line.options, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return status;
}
