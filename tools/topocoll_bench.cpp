// topocoll-bench: OSU-style latency benchmark of a collective (MPI_Alltoall by default; --op
// alltoallv, scatter, gather, scatterv, gatherv) for every algorithm of the operation's
// registry and the MPI library's own (`native`), on a real MPI or under SMPI (where MPI_Wtime
// is simulated time). `topocoll-bench --help` lists the options.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "bench_background.hpp"
#include "bench_buffers.hpp"
#include "bench_measure.hpp"
#include "bench_options.hpp"
#include "bench_report.hpp"
#include "exec/topology_discovery.hpp"
#include "model/tam_wang.hpp"
#include "topocoll/topocoll.hpp"
#include "topology/topology.hpp"

namespace {

using namespace topocoll;
using namespace topocoll::bench;

// The topology the library will discover for `comm` under the benchmark's spec, so that a
// topology-aware algorithm that does not apply is reported as such instead of failing in the
// call. Nothing to discover (nullopt, no error) when no selected algorithm needs a topology or
// no spec is given; an unusable spec sets `error`.
std::optional<Topology> topology_for_checks(const BenchOptions& options, MPI_Comm comm, std::string& error) {
  const bool needed = std::any_of(options.algorithms.begin(), options.algorithms.end(), [&](const std::string& name) {
    return name == "auto" || find_algorithm(options.operation, name)->needs_topology;
  });
  if (!needed || options.topology.empty()) return std::nullopt;
  Topology topology;
  if (auto failure = exec::discover_topology(comm, options.topology, topology)) {
    error = "topology '" + options.topology + "': " + failure->message;
    return std::nullopt;
  }
  return topology;
}

int run_benchmark(const BenchOptions& options, MPI_Comm comm) {
  int rank = 0;
  int p = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  std::string topology_error;
  const std::optional<Topology> topology = topology_for_checks(options, comm, topology_error);
  if (!topology_error.empty()) {
    if (rank == 0) std::cerr << "topocoll-bench: " << topology_error << '\n';
    return 2;
  }
  const Operation op = options.operation;
  if (is_rooted(op) && options.root >= p) {
    if (rank == 0) std::cerr << "topocoll-bench: --root " << options.root << " is not a rank of " << p << '\n';
    return 2;
  }

  const std::vector<std::size_t> sizes = options.message_sizes();
  const std::size_t largest_exchange = static_cast<std::size_t>(p) * *std::max_element(sizes.begin(), sizes.end());
  MessageBuffer send(largest_exchange, options.shared_malloc);
  MessageBuffer recv(largest_exchange, options.shared_malloc);
  MessageBuffer reference(options.validate ? largest_exchange : 0, false);
  const TamWangParams model = TamWangParams::table1(p);

  Report report(std::cout, options, p, rank == 0);
  for (const std::string& name : options.algorithms) {
    // auto: the executor's choice from --calibration, on the discovered topology; it applies
    // wherever its candidates do, so the points are checked like a flat algorithm's.
    const bool choose = name == "auto";
    const Algorithm& algorithm = *find_algorithm(op, choose ? std::string(default_algorithm(op)) : name);
    CollectiveOptions call_options;
    call_options.algorithm = name;
    call_options.group_shuffle.group_width = options.group_width;
    call_options.max_requests = options.max_requests;
    call_options.copy_bandwidth = options.copy_bandwidth;
    call_options.topology = options.topology;
    call_options.lg.max_scratch_bytes = options.max_scratch_bytes;
    call_options.lg.segment_bytes = options.segment_bytes;
    call_options.overlap.stripes = options.stripes;
    call_options.topo.linear_phases = options.topo_stars;
    call_options.topo.skipped_levels = options.topo_skip;
    call_options.calibration = options.calibration;

    report.begin_algorithm(name);
    bool set_up = false;
    StartSync sync{options.window_sync, options.sync_window};
    for (const std::size_t block_bytes : sizes) {
      const RootedBlocks rooted = RootedBlocks::uniform(RootedBlocks::flow_of(op), options.root, p, block_bytes);
      const UniformBlocks uniform(block_bytes);
      Problem problem = is_rooted(op) ? Problem::rooted(op, rooted) : Problem{p, block_bytes, nullptr, {}};
      if (op == Operation::alltoallv) {
        problem.blocks = &uniform;
        problem.operation = op;
      }
      problem.knobs.group_width = options.group_width;
      problem.knobs.max_scratch_bytes = options.max_scratch_bytes;
      problem.knobs.segment_bytes = options.segment_bytes;
      problem.knobs.stripes = options.stripes;
      problem.knobs.topo_linear_phases = options.topo_stars;
      problem.knobs.topo_skipped_levels = options.topo_skip;
      if (algorithm.needs_topology && topology) problem.topology = &*topology;
      if (const Applicability applicability = algorithm.supports(problem); !applicability.ok) {
        const bool no_topology = algorithm.needs_topology && !topology;
        report.not_applicable(name, block_bytes,
                              applicability.reason + (no_topology ? " (give --topology or TOPOCOLL_TOPOLOGY)" : ""));
        continue;
      }
      if (is_variable(op) && static_cast<std::size_t>(p) * block_bytes > static_cast<std::size_t>(INT_MAX)) {
        report.not_applicable(name, block_bytes, "the v forms' displacements are ints: p blocks must fit 2^31-1 bytes");
        continue;
      }
      const ExchangePoint point{send, recv, block_bytes, call_options, comm, op, options.root};
      if (!set_up) {
        set_up_call(point);
        set_up = true;
      }
      PointResult result;
      result.block_bytes = block_bytes;
      result.validity = options.validate ? validate_call(point, reference, sync) : Validity::skipped;
      result.iterations = options.iterations_for(block_bytes);
      result.latency = time_call(point, options.warmup_for(block_bytes), result.iterations, sync);
      if (options.predict && op == Operation::alltoall && !choose && algorithm.has_schedule()) {
        result.predicted_us = predict_tam_wang_us(algorithm, problem, model);
      }
      report.point(name, result);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  const ParsedCommandLine command_line = parse_command_line(argc, argv, rank == 0);
  if (!command_line.options) {
    MPI_Finalize();
    return command_line.exit_status;
  }
  // Failures come back as error codes, so that the benchmark can say which point failed.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const BenchOptions& options = *command_line.options;
  const BackgroundJob background{options.background_ranks, options.background_bytes, options.topology};
  WorldPart part;
  int status = split_world(MPI_COMM_WORLD, background, part, rank == 0);
  if (status == 0) status = start_background(MPI_COMM_WORLD, part, background);
  if (status == 0 && !part.background) {
    status = run_benchmark(options, part.comm);
    stop_background(MPI_COMM_WORLD, background);
  }
  if (part.comm != MPI_COMM_WORLD && part.comm != MPI_COMM_NULL) MPI_Comm_free(&part.comm);
  MPI_Finalize();
  return status;
}
