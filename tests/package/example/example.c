/* Uses the installed topocoll from C: a total exchange of 5 ints per block with each
 * algorithm (and NULL, the default), checked block by block. Exit 0 when every rank got
 * every block right. */
#include <stdio.h>
#include <stdlib.h>

#include <topocoll/topocoll.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* algorithms[] = {"direct", "shift", "pairwise", "group-shuffle", "bruck", "native", NULL};
  const int count = 5;
  int* send = malloc(sizeof(int) * count * size);
  int* recv = malloc(sizeof(int) * count * size);
  for (int to = 0; to < size; ++to)
    for (int k = 0; k < count; ++k) send[to * count + k] = 100 * rank + 10 * to + k;

  int failures = 0;
  for (size_t a = 0; a < sizeof algorithms / sizeof algorithms[0]; ++a) {
    const char* name = algorithms[a] ? algorithms[a] : "(default)";
    if (topocoll_alltoall(send, count, MPI_INT, recv, count, MPI_INT, MPI_COMM_WORLD, algorithms[a]) != MPI_SUCCESS) {
      fprintf(stderr, "example_c: rank %d: %s failed: %s\n", rank, name, topocoll_error_message());
      ++failures;
      continue;
    }
    for (int from = 0; from < size; ++from)
      for (int k = 0; k < count; ++k)
        if (recv[from * count + k] != 100 * from + 10 * rank + k) {
          fprintf(stderr, "example_c: rank %d: %s: wrong block from rank %d\n", rank, name, from);
          ++failures;
          k = count;
        }
  }
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("example_c: %d ranks, 7 algorithm choices: %s\n", size, total == 0 ? "passed" : "FAILED");
  free(send);
  free(recv);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
