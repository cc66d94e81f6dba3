// topocoll-bench: OSU-style latency benchmark of total exchange (MPI_Alltoall semantics) for
// every algorithm of topocoll's registry and the MPI library's own (`native`), on a real MPI
// or under SMPI (where MPI_Wtime is simulated time). `topocoll-bench --help` lists the options.
#include <mpi.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "bench_buffers.hpp"
#include "bench_measure.hpp"
#include "bench_options.hpp"
#include "bench_report.hpp"
#include "model/tam_wang.hpp"
#include "topocoll/topocoll.hpp"

namespace {

using namespace topocoll;
using namespace topocoll::bench;

void run_benchmark(const BenchOptions& options, MPI_Comm comm) {
  int rank = 0;
  int p = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);

  const std::vector<std::size_t> sizes = options.message_sizes();
  const std::size_t largest_exchange = static_cast<std::size_t>(p) * *std::max_element(sizes.begin(), sizes.end());
  MessageBuffer send(largest_exchange, options.shared_malloc);
  MessageBuffer recv(largest_exchange, options.shared_malloc);
  MessageBuffer reference(options.validate ? largest_exchange : 0, false);
  const TamWangParams model = TamWangParams::table1(p);

  Report report(std::cout, options, p, rank == 0);
  for (const std::string& name : options.algorithms) {
    const AlltoallAlgorithm& algorithm = *find_alltoall_algorithm(name);
    AlltoallOptions call_options;
    call_options.algorithm = name;
    call_options.group_width = options.group_width;
    call_options.max_requests = options.max_requests;
    call_options.copy_bandwidth = options.copy_bandwidth;

    report.begin_algorithm(name);
    for (const std::size_t block_bytes : sizes) {
      AlltoallProblem problem;
      problem.size = p;
      problem.block_bytes = block_bytes;
      problem.knobs.group_width = options.group_width;
      if (const Applicability applicability = algorithm.supports(problem); !applicability.ok) {
        report.not_applicable(name, block_bytes, applicability.reason);
        continue;
      }
      const ExchangePoint point{send, recv, block_bytes, call_options, comm};
      PointResult result;
      result.block_bytes = block_bytes;
      result.validity = options.validate ? validate_alltoall(point, reference) : Validity::skipped;
      result.iterations = options.iterations_for(block_bytes);
      result.latency = time_alltoall(point, options.warmup_for(block_bytes), result.iterations);
      if (options.predict && algorithm.predict_us != nullptr) result.predicted_us = algorithm.predict_us(problem, model);
      report.point(name, result);
    }
  }
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
  run_benchmark(*command_line.options, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
