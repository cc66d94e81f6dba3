// Timing and validation of one benchmark point (see bench_measure.hpp). A failing call is
// reported with the rank, the algorithm and the size, and aborts the whole job.
#include "bench_measure.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "topocoll/topocoll.h"

namespace topocoll::bench {

namespace {

std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return "MPI error " + std::to_string(code);
  return {text, static_cast<std::size_t>(length)};
}

[[noreturn]] void abort_on_failure(const char* what, int code, const ExchangePoint& point) {
  int rank = 0;
  MPI_Comm_rank(point.comm, &rank);
  std::fprintf(stderr, "topocoll-bench: rank %d: %s failed (algorithm %s, %zu bytes per block): %s%s%s\n", rank,
               what, point.options.algorithm.c_str(), point.block_bytes, mpi_error_text(code).c_str(),
               *topocoll_error_message() != '\0' ? ": " : "", topocoll_error_message());
  MPI_Abort(point.comm, 1);
  std::abort();  // MPI_Abort does not return; this tells the compiler so
}

int block_count(const ExchangePoint& point) { return static_cast<int>(point.block_bytes); }

void run_alltoall(const ExchangePoint& point) {
  const int code = topocoll::alltoall(point.send.data(), block_count(point), MPI_BYTE, point.recv.data(),
                                      block_count(point), MPI_BYTE, point.comm, point.options);
  if (code != MPI_SUCCESS) abort_on_failure("topocoll::alltoall", code, point);
}

}  // namespace

Latency time_alltoall(const ExchangePoint& point, int warmup, int iterations) {
  double timed_seconds = 0.0;
  for (int i = 0; i < warmup + iterations; ++i) {
    MPI_Barrier(point.comm);
    const double start = MPI_Wtime();
    run_alltoall(point);
    const double elapsed = MPI_Wtime() - start;
    if (i >= warmup) timed_seconds += elapsed;
  }
  const double my_average_us = timed_seconds * 1e6 / iterations;
  int p = 1;
  MPI_Comm_size(point.comm, &p);
  Latency latency;
  double sum_us = 0.0;
  MPI_Reduce(&my_average_us, &latency.min_us, 1, MPI_DOUBLE, MPI_MIN, 0, point.comm);
  MPI_Reduce(&my_average_us, &latency.max_us, 1, MPI_DOUBLE, MPI_MAX, 0, point.comm);
  MPI_Reduce(&my_average_us, &sum_us, 1, MPI_DOUBLE, MPI_SUM, 0, point.comm);
  latency.avg_us = sum_us / p;
  return latency;
}

Validity validate_alltoall(const ExchangePoint& point, MessageBuffer& reference) {
  int rank = 0;
  int p = 1;
  MPI_Comm_rank(point.comm, &rank);
  MPI_Comm_size(point.comm, &p);
  const std::size_t total_bytes = static_cast<std::size_t>(p) * point.block_bytes;
  fill_send_pattern(point.send.first(total_bytes), rank, p, point.block_bytes);
  const int code = MPI_Alltoall(point.send.data(), block_count(point), MPI_BYTE, reference.data(),
                                block_count(point), MPI_BYTE, point.comm);
  if (code != MPI_SUCCESS) abort_on_failure("the reference MPI_Alltoall", code, point);
  fill_complement(point.recv.first(total_bytes), reference.first(total_bytes));
  run_alltoall(point);
  int all_match = std::memcmp(point.recv.data(), reference.data(), total_bytes) == 0 ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all_match, 1, MPI_INT, MPI_LAND, point.comm);
  return all_match != 0 ? Validity::yes : Validity::no;
}

}  // namespace topocoll::bench
