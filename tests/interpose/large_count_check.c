/* MPI-4's large-count forms, as an ordinary program calls them: MPI_Alltoallv_c with a block
 * of 2^31 + 16 bytes to the other rank (past what an int counts), MPI_Alltoall_c and
 * MPI_Scatter_c with small counts, every byte checked. Run on 2 ranks with libtopocoll-pmpi.so
 * preloaded; it needs about 9 GB of memory. Built against an MPI library older than MPI-4
 * (Open MPI 4.1), which has no such calls, it says so and exits 77 (skipped). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#if MPI_VERSION >= 4

/* Byte k of the block rank `from` sends rank `to`. */
static unsigned char byte_of(int from, int to, MPI_Count k) { return (unsigned char)(k * 131 + from * 7 + to); }

static int failures = 0;

static void expect(int ok, const char* what, int rank) {
  if (!ok) {
    fprintf(stderr, "large_count_check: rank %d: %s failed\n", rank, what);
    ++failures;
  }
}

/* Block q of `counts` bytes at `displs`: what `rank` sends q, or (checking) what q sent `rank`. */
static void fill(unsigned char* buffer, const MPI_Count* counts, const MPI_Aint* displs, int rank, int size) {
  for (int q = 0; q < size; ++q)
    for (MPI_Count k = 0; k < counts[q]; ++k) buffer[displs[q] + k] = byte_of(rank, q, k);
}

static int holds(const unsigned char* buffer, const MPI_Count* counts, const MPI_Aint* displs, int rank, int size) {
  for (int q = 0; q < size; ++q)
    for (MPI_Count k = 0; k < counts[q]; ++k)
      if (buffer[displs[q] + k] != byte_of(q, rank, k)) return 0;
  return 1;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) fprintf(stderr, "large_count_check: run it on 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int other = 1 - rank;
  const MPI_Count big = ((MPI_Count)1 << 31) + 16;

  /* MPI_Alltoallv_c: big bytes to the other rank, 16 to itself. */
  MPI_Count counts[2];
  MPI_Aint displs[2];
  counts[rank] = 16;
  counts[other] = big;
  displs[0] = 0;
  displs[1] = (MPI_Aint)counts[0];
  const size_t total = (size_t)(counts[0] + counts[1]);
  unsigned char* send = malloc(total);
  unsigned char* recv = malloc(total);
  if (send == NULL || recv == NULL) {
    fprintf(stderr, "large_count_check: rank %d: no memory for 2 x %zu bytes\n", rank, total);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  fill(send, counts, displs, rank, size);
  int rc = MPI_Alltoallv_c(send, counts, displs, MPI_BYTE, recv, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
  expect(rc == MPI_SUCCESS && holds(recv, counts, displs, rank, size), "MPI_Alltoallv_c of 2^31 + 16 bytes", rank);
  free(send);
  free(recv);

  /* MPI_Alltoall_c and MPI_Scatter_c of 1000 bytes a block. */
  const MPI_Count small = 1000;
  const MPI_Count small_counts[2] = {small, small};
  const MPI_Aint small_displs[2] = {0, (MPI_Aint)small};
  unsigned char blocks[2000], received[2000], mine[1000];
  fill(blocks, small_counts, small_displs, rank, size);
  rc = MPI_Alltoall_c(blocks, small, MPI_BYTE, received, small, MPI_BYTE, MPI_COMM_WORLD);
  expect(rc == MPI_SUCCESS && holds(received, small_counts, small_displs, rank, size), "MPI_Alltoall_c", rank);
  rc = MPI_Scatter_c(blocks, small, MPI_BYTE, mine, small, MPI_BYTE, 0, MPI_COMM_WORLD);
  int ok = rc == MPI_SUCCESS;
  for (MPI_Count k = 0; ok && k < small; ++k) ok = mine[k] == byte_of(0, rank, k);
  expect(ok, "MPI_Scatter_c", rank);

  int total_failures = 0;
  MPI_Allreduce(&failures, &total_failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) fprintf(stderr, "large_count_check: %s\n", total_failures == 0 ? "every check passed" : "FAILED");
  MPI_Finalize();
  return total_failures == 0 ? 0 : 1;
}

#else

int main(void) {
  fprintf(stderr, "large_count_check: this MPI library (MPI %d.%d) has no large-count forms\n", MPI_VERSION,
          MPI_SUBVERSION);
  return 77;
}

#endif
