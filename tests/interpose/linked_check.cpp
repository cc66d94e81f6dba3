// A program that links both topocoll (its own copy, static) and libtopocoll-pmpi.so (ahead of
// the MPI library, instead of preloading it), and asks its own topocoll for `native`. That
// call goes topocoll -> MPI_Alltoall -> libtopocoll-pmpi.so's MPI_Alltoall -> the algorithm
// TOPOCOLL_ALLTOALL names (or PMPI_Alltoall), and must end there: the drop-in library never
// calls back into the program's copy, nor into its own MPI_Alltoall. Exit 0 when the results
// of every call are right on every rank.
#include <mpi.h>

#include <cstdio>
#include <vector>

#include "topocoll/topocoll.hpp"

namespace {

int value(int from, int to, int k) { return from * 1000000 + to * 1000 + k; }

// One exchange of `count` ints per block through `exchange`; true when every block is right.
template <typename Exchange>
bool exchange_is_right(int count, Exchange&& exchange) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<int> send(static_cast<std::size_t>(count * size)), recv(send.size(), -1);
  for (int to = 0; to < size; ++to)
    for (int k = 0; k < count; ++k) send[to * count + k] = value(rank, to, k);
  if (exchange(send.data(), recv.data(), count) != MPI_SUCCESS) return false;
  for (int from = 0; from < size; ++from)
    for (int k = 0; k < count; ++k)
      if (recv[from * count + k] != value(from, rank, k)) return false;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  topocoll::AlltoallOptions native;
  native.algorithm = "native";
  int failures = 0;
  for (int count : {1, 100, 5000}) {
    failures += !exchange_is_right(count, [&](const int* send, int* recv, int n) {
      return topocoll::alltoall(send, n, MPI_INT, recv, n, MPI_INT, MPI_COMM_WORLD, native);
    });
    failures += !exchange_is_right(count, [](const int* send, int* recv, int n) {
      return MPI_Alltoall(send, n, MPI_INT, recv, n, MPI_INT, MPI_COMM_WORLD);
    });
  }
  int total = 0, rank = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) std::printf("linked_check: %s\n", total == 0 ? "all checks passed" : "FAILED");
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
