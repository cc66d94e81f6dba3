/* topocoll-first-call-cost: what the first MPI_Alltoall on a new communicator costs against a
 * repeated one, i.e. a communicator's set-up (with the drop-in preloaded: topocoll's duplicate,
 * its topology's discovery, the topology file, the plan). A plain MPI program that knows nothing
 * of topocoll. For each of COMMUNICATORS duplicates of MPI_COMM_WORLD, after a barrier on it: two
 * MPI_Alltoall of BYTES bytes per block, each timed; prints on rank 0 the medians over the
 * communicators of the slowest rank's first and second call, and their difference.
 * Usage: topocoll-first-call-cost [BYTES [COMMUNICATORS]]   (defaults 4, 200) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing_arguments.h"

static double timed_alltoall(const char* send, char* recv, int bytes, MPI_Comm comm) {
  const double start = MPI_Wtime();
  if (MPI_Alltoall(send, bytes, MPI_BYTE, recv, bytes, MPI_BYTE, comm) != MPI_SUCCESS) {
    fprintf(stderr, "topocoll-first-call-cost: MPI_Alltoall failed\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return MPI_Wtime() - start;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int bytes = argc > 1 ? parse_count("topocoll-first-call-cost", argv[1], "BYTES", 20) : 4;
  const int communicators = argc > 2 ? parse_count("topocoll-first-call-cost", argv[2], "COMMUNICATORS", 20) : 200;
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char* send = calloc((size_t)bytes * (size_t)size, 1);
  char* recv = calloc((size_t)bytes * (size_t)size, 1);
  double* first = malloc(sizeof(double) * (size_t)communicators);
  double* again = malloc(sizeof(double) * (size_t)communicators);
  if (send == NULL || recv == NULL || first == NULL || again == NULL) {
    fprintf(stderr, "topocoll-first-call-cost: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (int i = 0; i < communicators; ++i) {
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Barrier(comm);
    double mine[2], slowest[2];
    mine[0] = timed_alltoall(send, recv, bytes, comm);
    mine[1] = timed_alltoall(send, recv, bytes, comm);
    MPI_Reduce(mine, slowest, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    first[i] = slowest[0];
    again[i] = slowest[1];
    MPI_Comm_free(&comm);
  }
  if (rank == 0) {
    qsort(first, (size_t)communicators, sizeof(double), compare_doubles);
    qsort(again, (size_t)communicators, sizeof(double), compare_doubles);
    const double f = first[communicators / 2] * 1e6, a = again[communicators / 2] * 1e6;
    printf("%d ranks, %d B per block, %d communicators: first call %.1f us, repeated call %.1f us, set-up %.1f us\n",
           size, bytes, communicators, f, a, f - a);
  }
  free(send);
  free(recv);
  free(first);
  free(again);
  MPI_Finalize();
  return 0;
}
