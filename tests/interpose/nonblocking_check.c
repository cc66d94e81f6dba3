/* An ordinary MPI program, built without topocoll, that checks the nonblocking collectives'
 * results: MPI_Ialltoall before and after the communicator's first blocking call (the very
 * first start followed by a message the peer receives before its own start), several
 * outstanding at once and completed by MPI_Waitall, MPI_Test polling, MPI_Iscatter, MPI_Igather,
 * MPI_Iscatterv, MPI_Igatherv, MPI_Ialltoallv and MPI_Ialltoallw (then MPI_Ialltoallv again after a
 * blocking MPI_Alltoallv; the v forms also started before a peer's message), MPI_Ialltoall and
 * MPI_Ialltoallw whose derived datatypes are freed right after the start, a fresh communicator
 * whose first calls are nonblocking (with a blocking call while they are outstanding, and one
 * freed right after a start), and with the argument
 * `null-request` a null request. Run it with libtopocoll-pmpi.so preloaded; exit 0 when every
 * check passes on every rank. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value rank `from` sends to rank `to` at position `k` of the block. */
static int value(int from, int to, int k) { return from * 1000000 + to * 1000 + k % 1000; }

static int failures = 0;
static int rank, size;

static void expect(int ok, const char* what) {
  if (!ok) {
    fprintf(stderr, "nonblocking_check: rank %d: %s failed\n", rank, what);
    ++failures;
  }
}

static int* alltoall_send(int count) {
  int* send = malloc(sizeof(int) * (size_t)count * (size_t)size);
  for (int to = 0; to < size; ++to)
    for (int k = 0; k < count; ++k) send[to * count + k] = value(rank, to, k);
  return send;
}

static int alltoall_received(const int* recv, int count) {
  for (int from = 0; from < size; ++from)
    for (int k = 0; k < count; ++k)
      if (recv[from * count + k] != value(from, rank, k)) return 0;
  return 1;
}

/* MPI_Ialltoall of `count` ints per block, completed by MPI_Wait or by polling MPI_Test. */
static void check_ialltoall(int count, int poll, const char* what) {
  int* send = alltoall_send(count);
  int* recv = calloc((size_t)count * (size_t)size, sizeof(int));
  MPI_Request request = MPI_REQUEST_NULL;
  int ok = MPI_Ialltoall(send, count, MPI_INT, recv, count, MPI_INT, MPI_COMM_WORLD, &request) == MPI_SUCCESS;
  if (poll) {
    int done = 0;
    while (ok && !done) ok = MPI_Test(&request, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS;
  } else {
    ok = ok && MPI_Wait(&request, MPI_STATUS_IGNORE) == MPI_SUCCESS;
  }
  expect(ok && request == MPI_REQUEST_NULL && alltoall_received(recv, count), what);
  free(send);
  free(recv);
}

/* Three outstanding on MPI_COMM_WORLD, completed together. */
static void check_several_outstanding(void) {
  enum { kCalls = 3, kCount = 300 };
  int* send = alltoall_send(kCount);
  int* recv[kCalls];
  MPI_Request requests[kCalls];
  for (int i = 0; i < kCalls; ++i) {
    recv[i] = calloc((size_t)kCount * (size_t)size, sizeof(int));
    MPI_Ialltoall(send, kCount, MPI_INT, recv[i], kCount, MPI_INT, MPI_COMM_WORLD, &requests[i]);
  }
  expect(MPI_Waitall(kCalls, requests, MPI_STATUSES_IGNORE) == MPI_SUCCESS, "MPI_Waitall of three MPI_Ialltoall");
  for (int i = 0; i < kCalls; ++i) {
    expect(alltoall_received(recv[i], kCount), "one of three outstanding MPI_Ialltoall");
    free(recv[i]);
  }
  free(send);
}

/* Around a start: rank 1 receives a message that rank 0 sends only once its own start has
 * returned, so a start that waited for another rank would hang (the v forms whose algorithm
 * learns block sizes from other ranks learn them after the start). */
static void before_start(void) {
  int token = 0;
  if (size > 1 && rank == 1) MPI_Recv(&token, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  expect(size < 2 || rank != 1 || token == 43, "the message sent after a start");
}
static void after_start(void) {
  int token = 43;
  if (size > 1 && rank == 0) MPI_Send(&token, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
}

/* Rank 0 starts, then sends to rank 1, which receives before its own start: valid MPI, which
 * a start that waited for its peers would hang. */
static void check_start_does_not_wait(void) {
  if (size < 2) return;
  const int count = 64;
  int* send = alltoall_send(count);
  int* recv = calloc((size_t)count * (size_t)size, sizeof(int));
  MPI_Request request;
  before_start();
  MPI_Ialltoall(send, count, MPI_INT, recv, count, MPI_INT, MPI_COMM_WORLD, &request);
  after_start();
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  expect(alltoall_received(recv, count), "MPI_Ialltoall started before a peer's message");
  free(send);
  free(recv);
}

/* A fresh communicator whose first calls are nonblocking: MPI_Ialltoall three times and
 * MPI_Igather between them, then a blocking MPI_Alltoall on it while all four are outstanding,
 * then MPI_Waitall; an MPI_Ialltoall after that; and one more fresh communicator freed right after
 * its first MPI_Ialltoall's start (MPI completes the call). Where the topology is needed, the
 * starts discover it after they return (and may hand the call on then). */
static void check_fresh_communicator(void) {
  enum { kCalls = 3 };
  MPI_Comm fresh;
  MPI_Comm_dup(MPI_COMM_WORLD, &fresh);
  const int counts[kCalls] = {1, 40, 700};
  int* send[kCalls];
  int* recv[kCalls];
  MPI_Request requests[kCalls + 1];
  int gather_send[5] = {rank, rank, rank, rank, rank};
  int* gathered = calloc(5 * (size_t)size, sizeof(int));
  for (int i = 0; i < kCalls; ++i) {
    send[i] = alltoall_send(counts[i]);
    recv[i] = calloc((size_t)counts[i] * (size_t)size, sizeof(int));
    MPI_Ialltoall(send[i], counts[i], MPI_INT, recv[i], counts[i], MPI_INT, fresh, &requests[i]);
    if (i == 0) MPI_Igather(gather_send, 5, MPI_INT, gathered, 5, MPI_INT, 0, fresh, &requests[kCalls]);
  }
  int* blocking = alltoall_send(3);
  int* blocking_recv = calloc(3 * (size_t)size, sizeof(int));
  MPI_Alltoall(blocking, 3, MPI_INT, blocking_recv, 3, MPI_INT, fresh);
  expect(alltoall_received(blocking_recv, 3), "MPI_Alltoall while a fresh communicator's first calls are outstanding");
  expect(MPI_Waitall(kCalls + 1, requests, MPI_STATUSES_IGNORE) == MPI_SUCCESS,
         "MPI_Waitall of a fresh communicator's first calls");
  for (int i = 0; i < kCalls; ++i) {
    expect(alltoall_received(recv[i], counts[i]), "one of a fresh communicator's first MPI_Ialltoall");
    memset(recv[i], 0, sizeof(int) * (size_t)counts[i] * (size_t)size);
  }
  if (rank == 0) {
    int ok = 1;
    for (int q = 0; q < size; ++q)
      for (int k = 0; k < 5; ++k) ok = ok && gathered[q * 5 + k] == q;
    expect(ok, "MPI_Igather between a fresh communicator's first MPI_Ialltoall");
  }
  MPI_Ialltoall(send[1], counts[1], MPI_INT, recv[1], counts[1], MPI_INT, fresh, &requests[0]);
  MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
  expect(alltoall_received(recv[1], counts[1]), "MPI_Ialltoall after the fresh communicator's first blocking call");
  MPI_Comm_free(&fresh);

  MPI_Comm freed;
  MPI_Comm_dup(MPI_COMM_WORLD, &freed);
  memset(recv[2], 0, sizeof(int) * (size_t)counts[2] * (size_t)size);
  MPI_Ialltoall(send[2], counts[2], MPI_INT, recv[2], counts[2], MPI_INT, freed, &requests[0]);
  MPI_Comm_free(&freed);
  MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
  expect(alltoall_received(recv[2], counts[2]), "MPI_Ialltoall on a communicator freed after its start");
  for (int i = 0; i < kCalls; ++i) {
    free(send[i]);
    free(recv[i]);
  }
  free(gathered);
  free(blocking);
  free(blocking_recv);
}

/* MPI_Iscatter, MPI_Igather, MPI_Iscatterv and MPI_Igatherv from the last rank: block q has
 * q % 3 + 1 ints in the v forms, 5 in the others. */
static void check_rooted(void) {
  const int root = size - 1, n = 5;
  int* counts = malloc(sizeof(int) * (size_t)size);
  int* displs = malloc(sizeof(int) * (size_t)size);
  int total = 0;
  for (int q = 0; q < size; ++q) {
    counts[q] = q % 3 + 1;
    displs[q] = total;
    total += counts[q] + 1; /* a gap after each block */
  }
  int* all = calloc((size_t)n * (size_t)size + (size_t)total, sizeof(int));
  int mine[8];
  MPI_Request request;
  for (int q = 0; q < size; ++q)
    for (int k = 0; k < n; ++k) all[q * n + k] = rank == root ? value(root, q, k) : -1;
  MPI_Iscatter(all, n, MPI_INT, mine, n, MPI_INT, root, MPI_COMM_WORLD, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  int ok = 1;
  for (int k = 0; k < n; ++k) ok = ok && mine[k] == value(root, rank, k);
  expect(ok, "MPI_Iscatter");

  for (int k = 0; k < n; ++k) mine[k] = value(rank, root, k);
  memset(all, 0, sizeof(int) * (size_t)(n * size));
  MPI_Igather(mine, n, MPI_INT, all, n, MPI_INT, root, MPI_COMM_WORLD, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  ok = 1;
  for (int q = 0; rank == root && q < size; ++q)
    for (int k = 0; k < n; ++k) ok = ok && all[q * n + k] == value(q, root, k);
  expect(ok, "MPI_Igather");

  for (int q = 0; q < size; ++q)
    for (int k = 0; k < counts[q]; ++k) all[displs[q] + k] = rank == root ? value(root, q, k) : -1;
  before_start();
  MPI_Iscatterv(all, counts, displs, MPI_INT, mine, counts[rank], MPI_INT, root, MPI_COMM_WORLD, &request);
  after_start();
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  ok = 1;
  for (int k = 0; k < counts[rank]; ++k) ok = ok && mine[k] == value(root, rank, k);
  expect(ok, "MPI_Iscatterv");

  for (int k = 0; k < counts[rank]; ++k) mine[k] = value(rank, root, k);
  memset(all, 0, sizeof(int) * (size_t)total);
  before_start();
  MPI_Igatherv(mine, counts[rank], MPI_INT, all, counts, displs, MPI_INT, root, MPI_COMM_WORLD, &request);
  after_start();
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  ok = 1;
  for (int q = 0; rank == root && q < size; ++q)
    for (int k = 0; k < counts[q]; ++k) ok = ok && all[displs[q] + k] == value(q, root, k);
  expect(ok, "MPI_Igatherv");
  free(all);
  free(counts);
  free(displs);
}

/* MPI_Ialltoallv and MPI_Ialltoallw: (from + to) % 3 ints from `from` to `to`. */
static void check_irregular(void) {
  int *sc = malloc(sizeof(int) * (size_t)size), *sd = malloc(sizeof(int) * (size_t)size);
  int *rc = malloc(sizeof(int) * (size_t)size), *rd = malloc(sizeof(int) * (size_t)size);
  int *sdb = malloc(sizeof(int) * (size_t)size), *rdb = malloc(sizeof(int) * (size_t)size);
  MPI_Datatype* types = malloc(sizeof(MPI_Datatype) * (size_t)size);
  int sent = 0, received = 0;
  for (int q = 0; q < size; ++q) {
    sc[q] = (rank + q) % 3;
    rc[q] = (q + rank) % 3;
    sd[q] = sent;
    rd[q] = received;
    sdb[q] = sent * (int)sizeof(int);
    rdb[q] = received * (int)sizeof(int);
    sent += sc[q];
    received += rc[q];
    types[q] = MPI_INT;
  }
  int* send = malloc(sizeof(int) * (size_t)(sent + 1));
  int* recv = malloc(sizeof(int) * (size_t)(received + 1));
  for (int q = 0; q < size; ++q)
    for (int k = 0; k < sc[q]; ++k) send[sd[q] + k] = value(rank, q, k);
  /* MPI_Ialltoallv, MPI_Ialltoallw, a blocking MPI_Alltoallv, MPI_Ialltoallv again (auto takes
   * the traffic the blocking call exchanged). */
  const char* what[4] = {"MPI_Ialltoallv", "MPI_Ialltoallw", "MPI_Alltoallv", "MPI_Ialltoallv after MPI_Alltoallv"};
  for (int w = 0; w < 4; ++w) {
    MPI_Request request = MPI_REQUEST_NULL;
    memset(recv, 0, sizeof(int) * (size_t)(received + 1));
    if (w == 0 || w == 3) {
      before_start();
      MPI_Ialltoallv(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, MPI_COMM_WORLD, &request);
      after_start();
    } else if (w == 1) {
      MPI_Ialltoallw(send, sc, sdb, types, recv, rc, rdb, types, MPI_COMM_WORLD, &request);
    } else {
      MPI_Alltoallv(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, MPI_COMM_WORLD);
    }
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    int ok = 1;
    for (int q = 0; q < size; ++q)
      for (int k = 0; k < rc[q]; ++k) ok = ok && recv[rd[q] + k] == value(q, rank, k);
    expect(ok, what[w]);
  }
  free(send);
  free(recv);
  free(sc);
  free(sd);
  free(rc);
  free(rd);
  free(sdb);
  free(rdb);
  free(types);
}

/* Derived datatypes freed right after the start, as MPI allows (the run completes normally):
 * MPI_Ialltoall and MPI_Ialltoallw of every other int, on both sides (so that the received
 * blocks are unpacked with the type at the end); types made and freed before the wait take the
 * freed handles' places. */
static void churn_datatypes(void) {
  for (int k = 1; k <= 8; ++k) {
    MPI_Datatype other;
    MPI_Type_contiguous(k, MPI_DOUBLE, &other);
    MPI_Type_commit(&other);
    MPI_Type_free(&other);
  }
}

/* kCount ints, every other one of 2 x kCount. */
static MPI_Datatype every_other_int(int count) {
  MPI_Datatype strided, resized;
  MPI_Type_vector(count, 1, 2, MPI_INT, &strided);
  MPI_Type_create_resized(strided, 0, (MPI_Aint)(2 * count * (int)sizeof(int)), &resized);
  MPI_Type_free(&strided);
  MPI_Type_commit(&resized);
  return resized;
}

static int strided_received(const int* recv, int count) {
  for (int from = 0; from < size; ++from)
    for (int k = 0; k < count; ++k)
      if (recv[(from * count + k) * 2] != value(from, rank, k)) return 0;
  return 1;
}

static void check_types_freed_after_start(void) {
  enum { kCount = 20 };
  const size_t ints = 2 * kCount * (size_t)size;
  int* send = malloc(sizeof(int) * ints);
  int* recv = calloc(ints, sizeof(int));
  for (int to = 0; to < size; ++to)
    for (int k = 0; k < kCount; ++k) send[(to * kCount + k) * 2] = value(rank, to, k);
  MPI_Datatype send_type = every_other_int(kCount), recv_type = every_other_int(kCount);
  MPI_Request request = MPI_REQUEST_NULL;
  int ok = MPI_Ialltoall(send, 1, send_type, recv, 1, recv_type, MPI_COMM_WORLD, &request) == MPI_SUCCESS;
  MPI_Type_free(&send_type);
  MPI_Type_free(&recv_type);
  churn_datatypes();
  ok = ok && MPI_Wait(&request, MPI_STATUS_IGNORE) == MPI_SUCCESS;
  expect(ok && strided_received(recv, kCount), "MPI_Ialltoall with its datatypes freed after the start");

  /* MPI_Ialltoallw: a type of its own per peer, at byte displacements. */
  MPI_Datatype* types = malloc(sizeof(MPI_Datatype) * (size_t)size);
  int *counts = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
  memset(recv, 0, sizeof(int) * ints);
  for (int q = 0; q < size; ++q) {
    types[q] = every_other_int(kCount);
    counts[q] = 1;
    displs[q] = q * 2 * kCount * (int)sizeof(int);
  }
  ok =
      MPI_Ialltoallw(send, counts, displs, types, recv, counts, displs, types, MPI_COMM_WORLD, &request) == MPI_SUCCESS;
  for (int q = 0; q < size; ++q) {
    MPI_Datatype freed = types[q]; /* the array itself stays as it was passed */
    MPI_Type_free(&freed);
  }
  churn_datatypes();
  ok = ok && MPI_Wait(&request, MPI_STATUS_IGNORE) == MPI_SUCCESS;
  expect(ok && strided_received(recv, kCount), "MPI_Ialltoallw with its datatypes freed after the start");
  free(types);
  free(counts);
  free(displs);
  free(send);
  free(recv);
}

/* A null request is the program's error: the call fails (under MPI_ERRORS_RETURN), and runs no
 * collective, blocking or not, that the other ranks would have to match. Only where topocoll
 * answers (the argument `null-request`): Open MPI 4.1's own MPI_Ialltoall dereferences it. */
static void check_null_request(void) {
  int send[64] = {0}, recv[64] = {0};
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const int rc = MPI_Ialltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD, NULL);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  expect(rc != MPI_SUCCESS, "MPI_Ialltoall with a null request fails");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* Before any blocking call: the first start begins the communicator's private duplicate and
   * waits for no rank (a topology-aware algorithm is handed on: discovering the topology would). */
  check_start_does_not_wait();
  check_ialltoall(10, 0, "MPI_Ialltoall before any blocking call");
  check_fresh_communicator();
  {
    int* send = alltoall_send(1);
    int* recv = calloc((size_t)size, sizeof(int));
    MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD);
    expect(alltoall_received(recv, 1), "MPI_Alltoall");
    free(send);
    free(recv);
  }
  check_ialltoall(1000, 0, "MPI_Ialltoall, waited for");
  check_ialltoall(1000, 1, "MPI_Ialltoall, polled with MPI_Test");
  check_several_outstanding();
  check_rooted();
  check_irregular();
  check_types_freed_after_start();
  if (argc > 1 && strcmp(argv[1], "null-request") == 0) check_null_request();
  int all_failures = 0;
  MPI_Allreduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("nonblocking_check: %s\n", all_failures == 0 ? "all passed" : "FAILED");
  MPI_Finalize();
  return all_failures == 0 ? 0 : 1;
}
