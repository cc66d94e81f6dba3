// Two threads of an MPI_THREAD_MULTIPLE program, each on its own communicator, call topocoll at
// the same moment and many times over: alltoalls with a derived send type (each call probes the
// datatype on MPI_COMM_SELF's private duplicate) and with a bad count under MPI_ERRORS_RETURN
// (each records its error in MPI_COMM_SELF's state). Both threads first reach that shared
// state together. Every result is checked; exits 0 when all pass, 77 (skipped) when the MPI
// library gives less than MPI_THREAD_MULTIPLE.
#include <mpi.h>

#include <atomic>
#include <barrier>
#include <cstdio>
#include <thread>
#include <vector>

#include "topocoll/topocoll.hpp"

namespace {

int value(int from, int to, int k) { return from * 1000000 + to * 1000 + k; }

// One thread's work on `comm`; returns its failures.
int exchange_many_times(MPI_Comm comm, std::barrier<>& start) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  constexpr int kCount = 3, kCalls = 200;
  std::vector<int> send(static_cast<std::size_t>(size) * kCount), recv(send.size());
  for (int to = 0; to < size; ++to)
    for (int k = 0; k < kCount; ++k) send[static_cast<std::size_t>(to * kCount + k)] = value(rank, to, k);
  topocoll::CollectiveOptions options;
  options.algorithm = "pairwise";
  int failures = 0;
  start.arrive_and_wait();
  for (int call = 0; call < kCalls; ++call) {
    MPI_Datatype triple = MPI_DATATYPE_NULL;
    MPI_Type_contiguous(kCount, MPI_INT, &triple);
    MPI_Type_commit(&triple);
    recv.assign(recv.size(), -1);
    if (topocoll::alltoall(send.data(), 1, triple, recv.data(), kCount, MPI_INT, comm, options) != MPI_SUCCESS) {
      ++failures;
    }
    MPI_Type_free(&triple);
    for (int from = 0; from < size; ++from)
      for (int k = 0; k < kCount; ++k) failures += recv[static_cast<std::size_t>(from * kCount + k)] != value(from, rank, k);
    // A bad count, on every rank alike: an error of this call only.
    if (topocoll::alltoall(send.data(), -1, MPI_INT, recv.data(), -1, MPI_INT, comm, options) == MPI_SUCCESS) {
      ++failures;
    }
  }
  return failures;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (provided < MPI_THREAD_MULTIPLE) {
    if (rank == 0) std::printf("thread_multiple_check: the MPI library gives no MPI_THREAD_MULTIPLE: skipped\n");
    MPI_Finalize();
    return 77;
  }
  MPI_Comm comms[2];
  for (MPI_Comm& comm : comms) {
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  }
  std::barrier start(2);
  std::atomic<int> failures{0};
  std::thread second([&] { failures += exchange_many_times(comms[1], start); });
  failures += exchange_many_times(comms[0], start);
  second.join();
  for (MPI_Comm& comm : comms) MPI_Comm_free(&comm);
  int local = failures.load(), total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::printf("thread_multiple_check: %s (%d failures)\n", total == 0 ? "passed" : "FAILED", total);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
