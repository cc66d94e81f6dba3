/* topocoll-call-cost: what one MPI_Alltoall costs a program, for comparing the drop-in
 * library's routes (scripts/call-cost-benchmark.sh). A plain MPI program that knows nothing of
 * topocoll: run it as it is, or with libtopocoll-pmpi.so preloaded. It makes CALLS calls of
 * BYTES bytes per block, timed in ROUNDS rounds after one untimed round, each round begun by a
 * barrier, and prints on rank 0 the median, least and greatest microseconds per call over the
 * rounds (each round's time is the slowest rank's).
 * Usage: topocoll-call-cost [BYTES [CALLS [ROUNDS]]]   (defaults 8, 1000, 5) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing_arguments.h"

/* The calls of one round (a function of its own: scripts/call-cost-benchmark.sh counts the
 * instructions inside it with callgrind's --toggle-collect). */
__attribute__((noinline)) void alltoall_calls(const char* send, char* recv, int bytes, int calls) {
  for (int i = 0; i < calls; ++i) {
    if (MPI_Alltoall(send, bytes, MPI_BYTE, recv, bytes, MPI_BYTE, MPI_COMM_WORLD) != MPI_SUCCESS) {
      fprintf(stderr, "topocoll-call-cost: MPI_Alltoall failed\n");
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int bytes = argc > 1 ? parse_count("topocoll-call-cost", argv[1], "BYTES", 30) : 8;
  const int calls = argc > 2 ? parse_count("topocoll-call-cost", argv[2], "CALLS", 30) : 1000;
  const int rounds = argc > 3 ? parse_count("topocoll-call-cost", argv[3], "ROUNDS", 30) : 5;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char* send = calloc((size_t)bytes * (size_t)size, 1);
  char* recv = calloc((size_t)bytes * (size_t)size, 1);
  double* per_call = malloc(sizeof(double) * (size_t)rounds);
  for (int round = -1; round < rounds; ++round) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    alltoall_calls(send, recv, bytes, calls);
    double elapsed = MPI_Wtime() - start, slowest = 0.0;
    MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (round >= 0) per_call[round] = slowest / calls * 1e6;
  }
  if (rank == 0) {
    qsort(per_call, (size_t)rounds, sizeof(double), compare_doubles);
    printf("%d ranks, %d bytes per block: median %.3f us per call (least %.3f, greatest %.3f; %d rounds of %d)\n",
           size, bytes, per_call[rounds / 2], per_call[0], per_call[rounds - 1], rounds, calls);
  }
  free(send), free(recv), free(per_call);
  MPI_Finalize();
  return 0;
}
