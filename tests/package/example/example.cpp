// Uses the installed topocoll from C++: group-shuffle with a chosen width over a split
// communicator, and an unknown algorithm name reported as MPI_ERR_ARG with a message.
// Exit 0 when both behave on every rank.
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

#include <topocoll/topocoll.hpp>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world_rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &half);
  MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN);
  int rank = 0, size = 0;
  MPI_Comm_rank(half, &rank);
  MPI_Comm_size(half, &size);

  const int count = 3;
  std::vector<double> send(count * size), recv(count * size);
  for (int to = 0; to < size; ++to)
    for (int k = 0; k < count; ++k) send[to * count + k] = rank + 0.5 * to + 0.01 * k;

  topocoll::CollectiveOptions options;
  options.algorithm = "group-shuffle";
  options.group_shuffle.group_width = 2;
  int failures = 0;
  if (topocoll::alltoall(send.data(), count, MPI_DOUBLE, recv.data(), count, MPI_DOUBLE, half, options) != MPI_SUCCESS) {
    ++failures;
  }
  for (int from = 0; from < size; ++from)
    for (int k = 0; k < count; ++k) failures += recv[from * count + k] != from + 0.5 * rank + 0.01 * k;

  options.algorithm = "no-such-algorithm";
  const int rc = topocoll::alltoall(send.data(), count, MPI_DOUBLE, recv.data(), count, MPI_DOUBLE, half, options);
  int error_class = MPI_SUCCESS;
  MPI_Error_class(rc, &error_class);
  const std::string message = topocoll_error_message();
  if (error_class != MPI_ERR_ARG || message.find("no-such-algorithm") == std::string::npos) {
    std::fprintf(stderr, "example_cpp: rank %d: expected MPI_ERR_ARG naming the algorithm, got '%s'\n", world_rank,
                 message.c_str());
    ++failures;
  }

  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (world_rank == 0) std::printf("example_cpp: group-shuffle on split communicators, errors: %s\n", total == 0 ? "passed" : "FAILED");
  MPI_Comm_free(&half);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
