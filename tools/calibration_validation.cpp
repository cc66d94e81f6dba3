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
#include "select/validation_check.hpp"
#include "topocoll/topocoll.hpp"

namespace topocoll::calibrate {

namespace {

// Buffers above this (per rank, each of send and receive) are not allocated on a real machine:
// the point is skipped and the log says so.
constexpr std::size_t kMaxBufferBytes = std::size_t{512} << 20;

// The median over `repetitions` calls of the slowest rank's time, after one untimed call; each
// started as `sync` says (after a barrier; under SMPI at one simulated instant, so that the
// barrier's exit skew across a WAN is not timed). Throws when the call fails (every rank does,
// the call being collective).
double time_alltoall(MPI_Comm comm, bench::MessageBuffer& send, bench::MessageBuffer& recv, std::size_t bytes,
                     const CollectiveOptions& options, int repetitions, bench::StartSync& sync) {
  const int count = static_cast<int>(bytes);
  std::vector<double> times;
  for (int i = 0; i <= repetitions; ++i) {
    bool late = false;
    const double start = bench::start_call(comm, sync, late);
    const int rc = alltoall(send.data(), count, MPI_BYTE, recv.data(), count, MPI_BYTE, comm, options);
    double elapsed = MPI_Wtime() - start;
    int failed = rc != MPI_SUCCESS ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, comm);
    if (failed != 0) throw std::runtime_error("validation: alltoall '" + options.algorithm + "' failed");
    if (bench::calls_late(comm, sync, late)) {
      --i;  // the same call again, from a start every rank can meet
      continue;
    }
    MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, comm);
    if (i > 0) times.push_back(elapsed * 1e6);
  }
  return median(times);
}

void log_size(const std::vector<ValidationPoint>& points, std::size_t bytes, const std::string& auto_pick,
              double noise, std::ostream& log) {
  const ValidationPoint* fastest = nullptr;
  const ValidationPoint* picked = nullptr;
  for (const ValidationPoint& v : points) {
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
    log << "validation " << bytes << " B per block: auto would run " << picked->algorithm << ", measured "
        << std::fixed << std::setprecision(1) << 100.0 * (picked->measured_us / fastest->measured_us - 1.0)
        << std::defaultfloat << std::setprecision(6) << "% above the fastest measured (" << fastest->algorithm
        << ")";
    // What auto then does (select/validation_check.hpp): these measurements outrank the model.
    if (picked != fastest && picked->measured_us > fastest->measured_us * (1.0 + noise)) {
      log << "; beyond the noise, so auto runs " << fastest->algorithm
          << " here, and between the validated sizes prices the algorithms from these times";
    }
    log << '\n';
  }
}

}  // namespace

std::vector<ValidationPoint> validate_calibration(MPI_Comm comm, const Calibration& calibration,
                                                  const Topology& topology, const ValidationSettings& settings,
                                                  std::ostream& log) {
  const MachineCost machine = calibration.machine();
  if (const auto why = check_machine(machine)) {
    throw std::runtime_error("the measured parameters describe no machine (" + *why +
                             "): measure again on a quieter machine, or with more --repetitions");
  }
  const int p = topology.size();
  bench::StartSync sync{settings.window_start};
  std::vector<ValidationPoint> points;
  for (const std::size_t bytes : settings.sizes) {
    const std::size_t buffer_bytes = static_cast<std::size_t>(p) * bytes;
    if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()) ||
        (!settings.smpi_shared_buffers && buffer_bytes > kMaxBufferBytes)) {
      log << "validation " << bytes << " B per block: skipped (" << buffer_bytes << " bytes of buffers per rank)\n";
      continue;
    }
    bench::MessageBuffer send(buffer_bytes, settings.smpi_shared_buffers);
    bench::MessageBuffer recv(buffer_bytes, settings.smpi_shared_buffers);
    const Problem problem{p, bytes, &topology, {}};
    const AutoChoice choice = select_algorithm(problem, machine, Predictions::all);
    std::vector<std::pair<AlgorithmPrediction, CollectiveOptions>> runs;
    for (const AlgorithmPrediction& prediction : choice.predictions) {
      if (!prediction.predicted_us) continue;  // does not apply here, or not modelled
      CollectiveOptions options;
      options.algorithm = prediction.algorithm;
      options.overlap.stripes = prediction.knobs.stripes;
      options.topology = settings.topology;
      options.copy_bandwidth = settings.copy_bandwidth;
      runs.emplace_back(prediction, options);
    }
    AlgorithmPrediction unpredicted;
    unpredicted.algorithm = "native";
    CollectiveOptions native;
    native.algorithm = "native";
    runs.emplace_back(unpredicted, native);
    for (const auto& [prediction, options] : runs) {
      ValidationPoint v;
      v.operation = "alltoall";
      v.bytes = bytes;
      v.algorithm = describe_run(prediction.algorithm, prediction.knobs);
      v.predicted_us = prediction.predicted_us;
      v.measured_us = time_alltoall(comm, send, recv, bytes, options, settings.repetitions, sync);
      points.push_back(std::move(v));
    }
    log_size(points, bytes, describe_run(choice.algorithm, choice.knobs), validation_noise(calibration), log);
  }
  return points;
}

}  // namespace topocoll::calibrate
