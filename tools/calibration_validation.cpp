// The validation pass of topocoll-calibrate (calibration_validation.hpp).
#include "calibration_validation.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <stdexcept>

#include "bench_buffers.hpp"
#include "calibration_probes.hpp"
#include "start_sync.hpp"
#include "select/auto_select.hpp"
#include "select/tuning.hpp"
#include "select/validation_check.hpp"
#include "topocoll/topocoll.hpp"

namespace topocoll::calibrate {

namespace {

// Buffers above this (per rank, each of send and receive) are not allocated on a real machine:
// the point is skipped and the log says so.
constexpr std::size_t kMaxBufferBytes = std::size_t{512} << 20;

// A real machine's point is a loop of calls, the time of one the loop's average: one call of a
// few microseconds timed alone is mostly the barrier's exit skew and the timer (on 16 cores, 8 B
// per block, single calls put direct 14% below native where loops of them put it 27% above).
// Enough calls to fill this, by the untimed call's time; under SMPI one, its times repeating
// exactly.
constexpr double kLoopUs = 2000.0;
constexpr int kMostCallsPerLoop = 1000;

// One algorithm at one size: how it is run, how many calls a timed loop makes, and the loops' times.
struct TimedRun {
  ValidationPoint point;
  CollectiveOptions options;
  int calls = 1;
  std::vector<double> times;  // us per call
};

// `calls` calls back to back from one start; the slowest rank's time per call (us). Throws when a
// call fails (every rank does, the call being collective). Repeats the loop from a start every
// rank can meet when one learned it too late.
double time_loop(MPI_Comm comm, bench::MessageBuffer& send, bench::MessageBuffer& recv, std::size_t bytes,
                 const CollectiveOptions& options, int calls, bench::StartSync& sync) {
  const int count = static_cast<int>(bytes);
  for (;;) {
    bool late = false;
    const double start = bench::start_call(comm, sync, late);
    // Every rank makes every call, a failed one too, so that none waits for a call another left out.
    int rc = MPI_SUCCESS;
    for (int c = 0; c < calls; ++c) {
      const int call_rc = alltoall(send.data(), count, MPI_BYTE, recv.data(), count, MPI_BYTE, comm, options);
      if (rc == MPI_SUCCESS) rc = call_rc;
    }
    double elapsed = (MPI_Wtime() - start) / calls;
    int failed = rc != MPI_SUCCESS ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, comm);
    if (failed != 0) throw std::runtime_error("validation: alltoall '" + options.algorithm + "' failed");
    if (bench::calls_late(comm, sync, late)) continue;
    MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, comm);
    return elapsed * 1e6;
  }
}

// Every run timed `repetitions` times, the runs taking turns (A B C A B C ...) so that a slow
// spell of the machine falls on all of them; each point keeps its median. The untimed first call
// of each sets its loop's length (the same on every rank: the slowest rank's time).
void time_runs(MPI_Comm comm, bench::MessageBuffer& send, bench::MessageBuffer& recv, std::size_t bytes,
               std::vector<TimedRun>& runs, int repetitions, bool loops, bench::StartSync& sync) {
  for (TimedRun& run : runs) {
    const double first_us = time_loop(comm, send, recv, bytes, run.options, 1, sync);
    if (loops) {
      run.calls = static_cast<int>(std::clamp(std::ceil(kLoopUs / std::max(first_us, 1e-3)), 1.0,
                                              static_cast<double>(kMostCallsPerLoop)));
    }
  }
  for (int r = 0; r < repetitions; ++r) {
    for (TimedRun& run : runs) run.times.push_back(time_loop(comm, send, recv, bytes, run.options, run.calls, sync));
  }
  for (TimedRun& run : runs) run.point.measured_us = median(run.times);
}

// The points of one size, and what auto does there: `measured` is the calibration with the
// points measured so far (select/validation_check.hpp decides whether they overrule the model).
void log_size(const Calibration& measured, std::size_t bytes, const std::string& auto_pick, std::ostream& log) {
  const ValidationPoint* fastest = nullptr;
  const ValidationPoint* picked = nullptr;
  for (const ValidationPoint& v : measured.validation) {
    if (v.bytes != bytes) continue;
    log << "validation " << bytes << " B per block, " << v.algorithm << ": measured " << v.measured_us << " us";
    if (const auto error = v.error()) {
      log << ", predicted " << *v.predicted_us << " us (" << std::showpos << std::fixed << std::setprecision(1)
          << 100.0 * *error << "%" << std::noshowpos << std::defaultfloat << std::setprecision(6) << ")";
    }
    log << '\n';
    if (!fastest || v.measured_us < fastest->measured_us) fastest = &v;
    if (v.algorithm == auto_pick) picked = &v;
  }
  if (picked && fastest) {
    log << "validation " << bytes << " B per block: the model picks " << picked->algorithm << ", measured "
        << std::fixed << std::setprecision(1) << 100.0 * (picked->measured_us / fastest->measured_us - 1.0)
        << std::defaultfloat << std::setprecision(6) << "% above the fastest measured (" << fastest->algorithm << ")";
    const auto overruled = overrule_by_validation(Operation::alltoall, bytes, measured.ranks, auto_pick, measured,
                                                  algorithms_for(Operation::alltoall));
    if (overruled) {
      log << "; auto runs " << overruled->algorithm << " here, chosen by " << overruled->chosen_by;
    } else {
      log << "; auto runs it";
    }
    log << '\n';
  }
}

// The sizes to measure next: the geometric midpoints between neighbouring validated sizes more
// than twice apart whose winners differ (select/tuning.hpp's bisection, as topocoll-tune's).
// Strictly between two validated sizes an algorithm runs only where it won at both ends, so
// without them auto would run native across the whole gap: on two clusters of 6 + 16 nodes
// (1 Gbit/s, 500 us apart), validated at 16 B (direct 5x faster than native) and 1 KiB (native,
// direct within the noise), native at 128 B took 4.9x the bound and direct 1.0x.
std::vector<std::size_t> sizes_to_bisect(const Calibration& measured) {
  std::vector<SizeWinner> winners;
  std::vector<std::size_t> sizes;
  for (const ValidationPoint& v : measured.validation) {
    if (v.algorithm != "native") continue;
    const auto winner =
        validated_winner_at(Operation::alltoall, v.bytes, measured.ranks, measured, algorithms_for(Operation::alltoall));
    if (!winner) continue;
    SizeWinner w;
    w.bytes = v.bytes;
    w.algorithm = *winner;
    winners.push_back(std::move(w));
    sizes.push_back(v.bytes);
  }
  std::sort(sizes.begin(), sizes.end());
  std::vector<std::size_t> between;
  for (const std::size_t middle : sizes_between_changing_winners(std::move(winners))) {
    const auto above = std::upper_bound(sizes.begin(), sizes.end(), middle);
    if (above != sizes.begin() && above != sizes.end() && *above > 2 * *std::prev(above)) between.push_back(middle);
  }
  return between;
}

}  // namespace

Validation validate_calibration(MPI_Comm comm, const Calibration& calibration, const Topology& topology,
                                const ValidationSettings& settings, std::ostream& log) {
  const MachineCost machine = calibration.machine();
  if (const auto why = check_machine(machine)) {
    throw std::runtime_error("the measured parameters describe no machine (" + *why +
                             "): measure again on a quieter machine, or with more --repetitions");
  }
  const int p = topology.size();
  // The calibration with the points measured so far (each size's log line reads them).
  Calibration measured = calibration;
  measured.validation.clear();
  std::vector<std::vector<double>> repetitions;  // each point's timed repetitions (us)
  bench::StartSync sync{settings.window_start};
  const auto validate_size = [&](std::size_t bytes) {
    const std::size_t buffer_bytes = static_cast<std::size_t>(p) * bytes;
    if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()) ||
        (!settings.smpi_shared_buffers && buffer_bytes > kMaxBufferBytes)) {
      log << "validation " << bytes << " B per block: skipped (" << buffer_bytes << " bytes of buffers per rank)\n";
      return;
    }
    bench::MessageBuffer send(buffer_bytes, settings.smpi_shared_buffers);
    bench::MessageBuffer recv(buffer_bytes, settings.smpi_shared_buffers);
    const Problem problem{p, bytes, &topology, {}};
    const AutoChoice choice = select_algorithm(problem, machine, Predictions::all);
    std::vector<TimedRun> runs;
    const auto add_run = [&](const AlgorithmPrediction& prediction, const std::string& algorithm) {
      TimedRun run;
      run.point.operation = "alltoall";
      run.point.bytes = bytes;
      run.point.algorithm = describe_run(prediction.algorithm, prediction.knobs);
      run.point.predicted_us = prediction.predicted_us;
      run.options.algorithm = algorithm;
      if (algorithm != "native") {
        run.options.overlap.stripes = prediction.knobs.stripes;
        run.options.group_level = prediction.knobs.group_level;
        run.options.topology = settings.topology;
        run.options.copy_bandwidth = settings.copy_bandwidth;
      }
      runs.push_back(std::move(run));
    };
    for (const AlgorithmPrediction& prediction : choice.predictions) {
      if (prediction.predicted_us) add_run(prediction, prediction.algorithm);  // else not modelled here
    }
    AlgorithmPrediction unpredicted;
    unpredicted.algorithm = "native";
    add_run(unpredicted, "native");
    time_runs(comm, send, recv, bytes, runs, settings.repetitions, settings.timed_loops, sync);
    for (TimedRun& run : runs) {
      measured.validation.push_back(std::move(run.point));
      repetitions.push_back(std::move(run.times));
    }
    // On a real machine the winners are judged with the noise the repetitions show so far
    // (what the file will record), under SMPI with the calibration's own.
    if (settings.timed_loops) {
      if (const auto noise = noise_of_repetitions(repetitions)) measured.validation_noise = *noise;
    }
    log_size(measured, bytes, describe_run(choice.algorithm, choice.knobs), log);
  };
  for (const std::size_t bytes : settings.sizes) validate_size(bytes);
  // Every rank measured the same times (the slowest rank's), so every rank bisects alike.
  for (int round = 0; round < settings.bisections; ++round) {
    const std::vector<std::size_t> between = sizes_to_bisect(measured);
    if (between.empty()) break;
    log << "validation: the winners differ between neighbouring sizes; bisecting at";
    for (const std::size_t bytes : between) log << ' ' << bytes;
    log << " B per block\n";
    for (const std::size_t bytes : between) validate_size(bytes);
  }
  std::stable_sort(measured.validation.begin(), measured.validation.end(),
                   [](const ValidationPoint& a, const ValidationPoint& b) { return a.bytes < b.bytes; });
  return {std::move(measured.validation), noise_of_repetitions(repetitions)};
}

}  // namespace topocoll::calibrate
