// topocoll-bench: OSU-style latency benchmark of a collective (MPI_Alltoall by default; --op
// alltoallv, scatter, gather, scatterv, gatherv) for every algorithm of the operation's
// registry and the MPI library's own (`native`), on a real MPI or under SMPI (where MPI_Wtime
// is simulated time). `topocoll-bench --help` lists the options.
#include <mpi.h>

#include <fstream>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "bench_background.hpp"
#include "bench_options.hpp"
#include "bench_repeat.hpp"
#include "bench_report.hpp"
#include "bench_run.hpp"

namespace {

using namespace topocoll;
using namespace topocoll::bench;

// Opens --statistics and --repetitions on rank 0; every rank learns whether that worked.
bool open_repeat_files(const BenchOptions& options, MPI_Comm comm, int rank, std::ofstream& statistics,
                       std::ofstream& repetitions) {
  int ok = 1;
  if (rank == 0) {
    for (auto [path, stream] : {std::pair{&options.statistics_file, &statistics},
                                std::pair{&options.repetitions_file, &repetitions}}) {
      if (path->empty()) continue;
      stream->open(*path);
      if (!*stream) {
        std::cerr << "topocoll-bench: cannot write '" << *path << "'\n";
        ok = 0;
      }
    }
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
  return ok != 0;
}

int run_benchmark(const BenchOptions& options, MPI_Comm comm) {
  int rank = 0;
  int p = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  std::ofstream statistics, repetitions;
  if (!open_repeat_files(options, comm, rank, statistics, repetitions)) return 2;
  Report report(std::cout, options, p, rank == 0);
  RepeatedRuns runs;
  if (const int status = measure(options, comm, "topocoll-bench", report, runs); status != 0) return status;
  if (options.repeat && rank == 0) {
    const std::vector<std::size_t> sizes = options.message_sizes();
    runs.write_statistics(statistics.is_open() ? statistics : std::cerr, to_string(options.operation), p,
                          options.algorithms, sizes);
    if (repetitions.is_open()) runs.write_repetitions(repetitions, to_string(options.operation), p);
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
