/* An ordinary MPI program, built without topocoll, that checks the persistent collectives
 * (Open MPI's pcollreq extension, MPIX_Alltoall_init ...; MPI-4's MPI_Alltoall_init ...
 * elsewhere, MPICH 4): one handle started and waited
 * for again and again with new data, polled with MPI_Test, MPI_Startall over persistent
 * collectives and the program's own persistent point-to-point requests, MPI_Request_free of an
 * inactive handle and, with the argument `free-active`, of an active one (which MPI allows and
 * Open MPI 4.1's own persistent collectives refuse with MPI_ERR_REQUEST), the rooted and
 * irregular forms; with `blocking-first`, after a blocking MPI_Alltoall. Run it with
 * libtopocoll-pmpi.so preloaded; exit 0 when every check passes on
 * every rank. */
#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#define INIT(op) MPIX_##op##_init
#define INIT_NAME(op) "MPIX_" #op "_init"
#else
#define INIT(op) MPI_##op##_init
#define INIT_NAME(op) "MPI_" #op "_init"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int value(int round, int from, int to, int k) { return round * 100000000 + from * 1000000 + to * 1000 + k; }

static int failures = 0;
static int rank, size;

static void expect(int ok, const char* what) {
  if (!ok) {
    fprintf(stderr, "persistent_check: rank %d: %s failed\n", rank, what);
    ++failures;
  }
}

/* One alltoall handle, started four times with new data: waited for, then polled. */
static void check_restarts(void) {
  const int n = 500;
  int* send = malloc(sizeof(int) * (size_t)n * (size_t)size);
  int* recv = malloc(sizeof(int) * (size_t)n * (size_t)size);
  MPI_Request handle = MPI_REQUEST_NULL;
  expect(INIT(Alltoall)(send, n, MPI_INT, recv, n, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &handle) == MPI_SUCCESS,
         INIT_NAME(Alltoall));
  for (int round = 0; round < 4; ++round) {
    for (int to = 0; to < size; ++to)
      for (int k = 0; k < n; ++k) send[to * n + k] = value(round, rank, to, k);
    memset(recv, 0, sizeof(int) * (size_t)n * (size_t)size);
    expect(MPI_Start(&handle) == MPI_SUCCESS, "MPI_Start");
    if (round % 2 == 0) {
      expect(MPI_Wait(&handle, MPI_STATUS_IGNORE) == MPI_SUCCESS, "MPI_Wait");
    } else {
      int done = 0;
      while (!done) MPI_Test(&handle, &done, MPI_STATUS_IGNORE);
    }
    expect(handle != MPI_REQUEST_NULL, "a persistent handle stays after its completion");
    int ok = 1;
    for (int from = 0; from < size; ++from)
      for (int k = 0; k < n; ++k) ok = ok && recv[from * n + k] == value(round, from, rank, k);
    expect(ok, round % 2 == 0 ? INIT_NAME(Alltoall) ", started and waited for" : INIT_NAME(Alltoall) ", polled");
  }
  expect(MPI_Request_free(&handle) == MPI_SUCCESS && handle == MPI_REQUEST_NULL, "MPI_Request_free (inactive)");
  free(send);
  free(recv);
}

/* MPI_Startall over a scatter and a gather from the last rank, an alltoallv, and the program's
 * own ring of persistent sends and receives; then the alltoallv freed while active. */
static void check_startall_and_free(int free_active) {
  const int root = size - 1, n = 4;
  int* many = malloc(sizeof(int) * (size_t)n * (size_t)size);
  int* gathered = malloc(sizeof(int) * (size_t)n * (size_t)size);
  int mine[4], scattered[4];
  int *sc = malloc(sizeof(int) * (size_t)size), *sd = malloc(sizeof(int) * (size_t)size);
  int* vsend = malloc(sizeof(int) * (size_t)(3 * size + 1));
  int* vrecv = malloc(sizeof(int) * (size_t)(3 * size + 1));
  int sent = 0;
  for (int q = 0; q < size; ++q) {
    sc[q] = (rank + q) % 3;
    sd[q] = sent;
    for (int k = 0; k < sc[q]; ++k) vsend[sent + k] = value(0, rank, q, k);
    sent += sc[q];
  }
  int* rc = malloc(sizeof(int) * (size_t)size);
  int* rd = malloc(sizeof(int) * (size_t)size);
  int received = 0;
  for (int q = 0; q < size; ++q) {
    rc[q] = (q + rank) % 3;
    rd[q] = received;
    received += rc[q];
  }
  for (int q = 0; q < size; ++q)
    for (int k = 0; k < n; ++k) many[q * n + k] = value(1, root, q, k);
  for (int k = 0; k < n; ++k) mine[k] = value(2, rank, root, k);
  int token_out = rank, token_in = -1;
  MPI_Request handles[5];
  INIT(Scatter)(many, n, MPI_INT, scattered, n, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &handles[0]);
  INIT(Gather)(mine, n, MPI_INT, gathered, n, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &handles[1]);
  INIT(Alltoallv)(vsend, sc, sd, MPI_INT, vrecv, rc, rd, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &handles[2]);
  MPI_Send_init(&token_out, 1, MPI_INT, (rank + 1) % size, 9, MPI_COMM_WORLD, &handles[3]);
  MPI_Recv_init(&token_in, 1, MPI_INT, (rank + size - 1) % size, 9, MPI_COMM_WORLD, &handles[4]);
  for (int round = 0; round < 2; ++round) {
    expect(MPI_Startall(5, handles) == MPI_SUCCESS, "MPI_Startall");
    expect(MPI_Waitall(5, handles, MPI_STATUSES_IGNORE) == MPI_SUCCESS, "MPI_Waitall");
    int ok = token_in == (rank + size - 1) % size;
    for (int k = 0; k < n; ++k) ok = ok && scattered[k] == value(1, root, rank, k);
    expect(ok, INIT_NAME(Scatter) " and the ring beside it");
    ok = 1;
    for (int q = 0; rank == root && q < size; ++q)
      for (int k = 0; k < n; ++k) ok = ok && gathered[q * n + k] == value(2, q, root, k);
    expect(ok, INIT_NAME(Gather));
    ok = 1;
    for (int q = 0; q < size; ++q)
      for (int k = 0; k < rc[q]; ++k) ok = ok && vrecv[rd[q] + k] == value(0, q, rank, k);
    expect(ok, INIT_NAME(Alltoallv));
  }
  /* Freed while active: the collective still completes on every rank (MPI says so). */
  if (free_active) {
    MPI_Start(&handles[2]);
    expect(MPI_Request_free(&handles[2]) == MPI_SUCCESS && handles[2] == MPI_REQUEST_NULL,
           "MPI_Request_free (active)");
  }
  for (int i = 0; i < 5; ++i)
    if (handles[i] != MPI_REQUEST_NULL) MPI_Request_free(&handles[i]);
  free(many);
  free(gathered);
  if (free_active) return; /* the freed call's buffers and arrays: nothing says when it is done */
  free(sc);
  free(sd);
  free(rc);
  free(rd);
  free(vsend);
  free(vrecv);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int free_active = 0;
  for (int a = 1; a < argc; ++a) {
    free_active = free_active || strcmp(argv[a], "free-active") == 0;
    /* A blocking alltoall first: where making topocoll's private duplicate waits for every
     * rank (MPICH), a first blocking call makes it, and only then may starts be answered. */
    if (strcmp(argv[a], "blocking-first") == 0) {
      int* send = calloc((size_t)size, sizeof(int));
      int* recv = calloc((size_t)size, sizeof(int));
      for (int q = 0; q < size; ++q) send[q] = rank * 100 + q;
      MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD);
      int ok = 1;
      for (int q = 0; q < size; ++q) ok = ok && recv[q] == q * 100 + rank;
      expect(ok, "MPI_Alltoall");
      free(send);
      free(recv);
    }
  }
  check_restarts();
  check_startall_and_free(free_active);
  check_restarts(); /* after a handle freed while active, later ones are right */
  int all_failures = 0;
  MPI_Allreduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("persistent_check: %s\n", all_failures == 0 ? "all passed" : "FAILED");
  MPI_Finalize();
  return all_failures == 0 ? 0 : 1;
}
