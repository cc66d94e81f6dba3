// Timing and validation of one benchmark point (see bench_measure.hpp). A failing call is
// reported with the rank, the algorithm and the size, and aborts the whole job.
#include "bench_measure.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "exec/collective.hpp"
#include "exec/native_call.hpp"
#include "topocoll/topocoll.h"

#ifdef TOPOCOLL_SMPI
#include <simgrid/actor.h>
#endif

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

// Sleeps until the global clock reads `time` (only SMPI's simulated clock is global).
void sleep_until([[maybe_unused]] double time) {
#ifdef TOPOCOLL_SMPI
  sg_actor_sleep_until(time);
#else
  std::fprintf(stderr, "topocoll-bench: a synchronised start needs a global clock (the SMPI build)\n");
  std::abort();
#endif
}

// The point's call with `recv` as the receive buffer, as the API's entry points describe it:
// the v forms' sides take the counts and displacements, the others one count.
exec::CallArguments call_of(const ExchangePoint& point, void* recv) {
  const int n = block_count(point);
  exec::SideArguments send{point.send.data(), n, nullptr, nullptr, MPI_BYTE};
  exec::SideArguments receive{recv, n, nullptr, nullptr, MPI_BYTE};
  const Operation op = point.operation;
  if (op == Operation::alltoallv || op == Operation::scatterv) {
    send = {point.send.data(), 0, point.counts.data(), point.displs.data(), MPI_BYTE};
  }
  if (op == Operation::alltoallv || op == Operation::gatherv) {
    receive = {recv, 0, point.counts.data(), point.displs.data(), MPI_BYTE};
  }
  return {op, send, receive, point.root, point.comm};
}

void run_call(const ExchangePoint& point) {
  const int code = exec::run_collective(call_of(point, point.recv.data()), point.options);
  if (code != MPI_SUCCESS) abort_on_failure(("topocoll::" + std::string(to_string(point.operation))).c_str(), code, point);
}

// The bytes a rank receives: p blocks for alltoall and at the root of gather, one block at
// every rank of scatter, none at the other ranks of gather.
std::size_t received_bytes(const ExchangePoint& point, int rank, int p) {
  const std::size_t all = static_cast<std::size_t>(p) * point.block_bytes;
  if (!is_rooted(point.operation)) return all;
  if (flows_from_root(point.operation)) return point.block_bytes;
  return rank == point.root ? all : 0;
}

}  // namespace

ExchangePoint::ExchangePoint(MessageBuffer& send_buffer, MessageBuffer& recv_buffer, std::size_t bytes,
                             const CollectiveOptions& call_options, MPI_Comm communicator, Operation op, int root_rank)
    : send(send_buffer), recv(recv_buffer), block_bytes(bytes), options(call_options), comm(communicator),
      operation(op), root(root_rank) {
  int p = 1;
  MPI_Comm_size(comm, &p);
  for (int q = 0; q < p; ++q) {
    counts.push_back(static_cast<int>(block_bytes));
    displs.push_back(static_cast<int>(static_cast<std::size_t>(q) * block_bytes));
  }
}

void set_up_call(const ExchangePoint& point) {
  const bool choosing = point.options.algorithm == "auto";
  const ExchangePoint set_up{point.send, point.recv, choosing ? point.block_bytes : 1, point.options, point.comm,
                             point.operation, point.root};
  run_call(set_up);
}

// A barrier, then with sync.window a start common to all ranks: rank 0's clock plus the
// window, broadcast. Returns the time to measure from; `late` when this rank got it too late.
double start_call(MPI_Comm comm, const StartSync& sync, bool& late) {
  MPI_Barrier(comm);
  double start = MPI_Wtime();
  late = false;
  if (sync.window) {
    start += sync.window_seconds;
    MPI_Bcast(&start, 1, MPI_DOUBLE, 0, comm);
    late = MPI_Wtime() > start;
    if (!late) sleep_until(start);
  }
  return start;
}

Latency time_call(const ExchangePoint& point, int warmup, int iterations, StartSync& sync) {
  double timed_seconds = 0.0;
  for (int i = 0; i < warmup + iterations; ++i) {
    bool late = false;
    const double start = start_call(point.comm, sync, late);
    run_call(point);
    const double elapsed = MPI_Wtime() - start;
    if (sync.window) {
      int any_late = late ? 1 : 0;
      MPI_Allreduce(MPI_IN_PLACE, &any_late, 1, MPI_INT, MPI_LOR, point.comm);
      if (any_late != 0) {
        sync.window_seconds *= 2;
        --i;  // the same call again, with a start that every rank can meet
        continue;
      }
    }
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

Validity validate_call(const ExchangePoint& point, MessageBuffer& reference, const StartSync& sync) {
  int rank = 0;
  int p = 1;
  MPI_Comm_rank(point.comm, &rank);
  MPI_Comm_size(point.comm, &p);
  const std::size_t total_bytes = static_cast<std::size_t>(p) * point.block_bytes;
  const std::size_t received = received_bytes(point, rank, p);
  fill_send_pattern(point.send.first(total_bytes), rank, p, point.block_bytes);
  bool late = false;  // correctness does not depend on it; the start only keeps SMPI fast
  start_call(point.comm, sync, late);
  const int code = exec::call_native(call_of(point, reference.data()));
  if (code != MPI_SUCCESS) {
    abort_on_failure(("the reference " + std::string(exec::native_call_name(point.operation))).c_str(), code, point);
  }
  fill_complement(point.recv.first(received), reference.first(received));
  start_call(point.comm, sync, late);
  run_call(point);
  int all_match = std::memcmp(point.recv.data(), reference.data(), received) == 0 ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all_match, 1, MPI_INT, MPI_LAND, point.comm);
  return all_match != 0 ? Validity::yes : Validity::no;
}

}  // namespace topocoll::bench
