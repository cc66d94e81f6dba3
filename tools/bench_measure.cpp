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

// The point's call with `recv` as the receive buffer, as the API's entry points describe it:
// the v forms' sides take the counts and displacements, the others one count.
exec::CallArguments call_of(const ExchangePoint& point, void* recv) {
  const int n = block_count(point);
  exec::SideArguments send{point.send.data(), n, nullptr, nullptr, MPI_BYTE};
  exec::SideArguments receive{recv, n, nullptr, nullptr, MPI_BYTE};
  const Operation op = point.operation;
  if (op == Operation::alltoallv || op == Operation::scatterv) {
    send = {point.send.data(), 0, point.send_counts.data(), point.send_displs.data(), MPI_BYTE};
  }
  if (op == Operation::alltoallv || op == Operation::gatherv) {
    receive = {recv, 0, point.recv_counts.data(), point.recv_displs.data(), MPI_BYTE};
  }
  return {op, send, receive, point.root, point.comm};
}

void run_call(const ExchangePoint& point) {
  const int code = exec::run_collective(call_of(point, point.recv.data()), point.options);
  if (code != MPI_SUCCESS) abort_on_failure(("topocoll::" + std::string(to_string(point.operation))).c_str(), code, point);
}

// The bytes a rank receives: all its receive blocks for alltoall(v) and at the root of gather,
// one block at every rank of scatter, none at the other ranks of gather.
std::size_t received_bytes(const ExchangePoint& point, int rank) {
  if (!is_rooted(point.operation)) return point.recv_total;
  if (flows_from_root(point.operation)) return point.block_bytes;
  return rank == point.root ? point.recv_total : 0;
}

// Blocks of `counts[q]` bytes, block q at displs[q], packed in order.
std::size_t pack_in_order(const std::vector<int>& counts, std::vector<int>& displs) {
  std::size_t at = 0;
  displs.clear();
  for (int count : counts) {
    displs.push_back(static_cast<int>(at));
    at += static_cast<std::size_t>(count);
  }
  return at;
}

}  // namespace

ExchangePoint::ExchangePoint(MessageBuffer& send_buffer, MessageBuffer& recv_buffer, std::size_t bytes,
                             const CollectiveOptions& call_options, MPI_Comm communicator, Operation op, int root_rank,
                             const TrafficPattern* traffic)
    : send(send_buffer), recv(recv_buffer), block_bytes(bytes), options(call_options), comm(communicator),
      operation(op), root(root_rank), pattern(traffic) {
  int p = 1, rank = 0;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &rank);
  const bool patterned = traffic != nullptr && op == Operation::alltoallv;
  for (int q = 0; q < p; ++q) {
    send_counts.push_back(static_cast<int>(patterned ? traffic->bytes(rank, q, p, block_bytes) : block_bytes));
    recv_counts.push_back(static_cast<int>(patterned ? traffic->bytes(q, rank, p, block_bytes) : block_bytes));
  }
  send_total = pack_in_order(send_counts, send_displs);
  recv_total = pack_in_order(recv_counts, recv_displs);
}

void set_up_call(const ExchangePoint& point) {
  const bool choosing = point.options.algorithm == "auto";
  const ExchangePoint set_up{point.send,      point.recv,      choosing ? point.block_bytes : 1,
                             point.options,   point.comm,      point.operation,
                             point.root,      choosing ? point.pattern : nullptr};
  run_call(set_up);
}

Latency time_call(const ExchangePoint& point, int warmup, int iterations, StartSync& sync) {
  double timed_seconds = 0.0;
  for (int i = 0; i < warmup + iterations; ++i) {
    bool late = false;
    const double start = start_call(point.comm, sync, late);
    run_call(point);
    const double elapsed = MPI_Wtime() - start;
    if (calls_late(point.comm, sync, late)) {
      --i;  // the same call again, with a start that every rank can meet
      continue;
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
  MPI_Comm_rank(point.comm, &rank);
  const std::size_t received = received_bytes(point, rank);
  fill_send_pattern(point.send.first(point.send_total), rank, point.send_counts);
  bool late = false;  // correctness does not depend on it; the start only keeps SMPI fast
  start_call(point.comm, sync, late);
  const exec::CallArguments reference_call = call_of(point, reference.data());
  const int code = exec::call_native(reference_call);
  if (code != MPI_SUCCESS) {
    abort_on_failure(("the reference " + std::string(exec::native_call_name(reference_call))).c_str(), code, point);
  }
  fill_complement(point.recv.first(received), reference.first(received));
  start_call(point.comm, sync, late);
  run_call(point);
  int all_match = std::memcmp(point.recv.data(), reference.data(), received) == 0 ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all_match, 1, MPI_INT, MPI_LAND, point.comm);
  return all_match != 0 ? Validity::yes : Validity::no;
}

}  // namespace topocoll::bench
