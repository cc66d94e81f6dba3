/* An ordinary MPI program, built without topocoll, that checks MPI_Alltoall's results on the
 * communicators an application uses: MPI_COMM_WORLD, a split, a duplicate with a derived
 * datatype, MPI_IN_PLACE, a block above the eager limit, MPI_Alltoallv and MPI_Alltoallw. Run it with
 * libtopocoll-pmpi.so preloaded (or linked) to check the library's answers.
 *
 *   preload_check              every check above; exit 0 when all pass on every rank
 *   preload_check intercomm    MPI_Alltoall on an intercommunicator between two halves
 *   preload_check config-error with MPI_ERRORS_RETURN: MPI_Alltoall and MPI_Alltoallv must
 *                              fail with MPI_ERR_ARG (run with a bad TOPOCOLL_* value)
 *   preload_check rooted       MPI_Scatter, MPI_Gather, MPI_Scatterv and MPI_Gatherv from every
 *                              root, MPI_IN_PLACE at the root, on MPI_COMM_WORLD and a split,
 *                              with every argument MPI ignores left unset */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value rank `from` sends to rank `to` at position `k` of the block. */
static int value(int from, int to, int k) { return from * 1000000 + to * 1000 + k % 1000; }

static int failures = 0;

static void expect(int ok, const char* what, int rank) {
  if (!ok) {
    fprintf(stderr, "preload_check: rank %d: %s failed\n", rank, what);
    ++failures;
  }
}

/* MPI_Alltoall of `count` ints per block on comm, separate buffers or MPI_IN_PLACE. */
static void check_alltoall(MPI_Comm comm, int count, int in_place, const char* what) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int* send = malloc(sizeof(int) * (size_t)count * (size_t)size);
  int* recv = malloc(sizeof(int) * (size_t)count * (size_t)size);
  for (int to = 0; to < size; ++to)
    for (int k = 0; k < count; ++k) send[to * count + k] = value(rank, to, k);
  int rc;
  if (in_place) {
    memcpy(recv, send, sizeof(int) * (size_t)count * (size_t)size);
    rc = MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv, count, MPI_INT, comm);
  } else {
    rc = MPI_Alltoall(send, count, MPI_INT, recv, count, MPI_INT, comm);
  }
  int ok = rc == MPI_SUCCESS;
  for (int from = 0; ok && from < size; ++from)
    for (int k = 0; k < count; ++k) ok = ok && recv[from * count + k] == value(from, rank, k);
  expect(ok, what, rank);
  free(send);
  free(recv);
}

/* Pairs of ints as one derived datatype on the sending side, plain ints on the receiving one. */
static void check_derived_datatype(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  const int pairs = 3;
  int* send = malloc(sizeof(int) * 2 * pairs * (size_t)size);
  int* recv = malloc(sizeof(int) * 2 * pairs * (size_t)size);
  for (int to = 0; to < size; ++to)
    for (int k = 0; k < 2 * pairs; ++k) send[to * 2 * pairs + k] = value(rank, to, k);
  int ok = MPI_Alltoall(send, pairs, pair, recv, 2 * pairs, MPI_INT, comm) == MPI_SUCCESS;
  for (int from = 0; ok && from < size; ++from)
    for (int k = 0; k < 2 * pairs; ++k) ok = ok && recv[from * 2 * pairs + k] == value(from, rank, k);
  expect(ok, "MPI_Alltoall with a derived send type on a duplicate", rank);
  MPI_Type_free(&pair);
  free(send);
  free(recv);
}

/* Rank r sends r+to+1 ints to rank `to`. */
static void check_alltoallv(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int *sendcounts = malloc(sizeof(int) * size), *sdispls = malloc(sizeof(int) * size);
  int *recvcounts = malloc(sizeof(int) * size), *rdispls = malloc(sizeof(int) * size);
  int sent = 0, received = 0;
  for (int p = 0; p < size; ++p) {
    sendcounts[p] = rank + p + 1;
    sdispls[p] = sent;
    sent += sendcounts[p];
    recvcounts[p] = p + rank + 1;
    rdispls[p] = received;
    received += recvcounts[p];
  }
  int* send = malloc(sizeof(int) * (size_t)sent);
  int* recv = malloc(sizeof(int) * (size_t)received);
  for (int to = 0; to < size; ++to)
    for (int k = 0; k < sendcounts[to]; ++k) send[sdispls[to] + k] = value(rank, to, k);
  int ok = MPI_Alltoallv(send, sendcounts, sdispls, MPI_INT, recv, recvcounts, rdispls, MPI_INT, comm) ==
           MPI_SUCCESS;
  for (int from = 0; ok && from < size; ++from)
    for (int k = 0; k < recvcounts[from]; ++k) ok = ok && recv[rdispls[from] + k] == value(from, rank, k);
  expect(ok, "MPI_Alltoallv", rank);
  free(send), free(recv), free(sendcounts), free(sdispls), free(recvcounts), free(rdispls);
}

/* MPI_Alltoallw: the blocks of check_alltoallv at byte displacements, sent as plain ints to
 * even peers and from every other int of a spaced-out buffer (a strided type) to odd ones. */
static void check_alltoallw(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Datatype every_other, strided;
  MPI_Type_vector(1, 1, 2, MPI_INT, &every_other);
  MPI_Type_create_resized(every_other, 0, 2 * sizeof(int), &strided);
  MPI_Type_commit(&strided);
  int *sendcounts = malloc(sizeof(int) * size), *sdispls = malloc(sizeof(int) * size);
  int *recvcounts = malloc(sizeof(int) * size), *rdispls = malloc(sizeof(int) * size);
  MPI_Datatype *sendtypes = malloc(sizeof(MPI_Datatype) * size), *recvtypes = malloc(sizeof(MPI_Datatype) * size);
  int sent = 0, received = 0; /* in ints */
  for (int p = 0; p < size; ++p) {
    sendcounts[p] = rank + p + 1;
    sendtypes[p] = p % 2 == 1 ? strided : MPI_INT;
    sdispls[p] = sent * (int)sizeof(int);
    sent += sendcounts[p] * (p % 2 == 1 ? 2 : 1);
    recvcounts[p] = p + rank + 1;
    recvtypes[p] = MPI_INT;
    rdispls[p] = received * (int)sizeof(int);
    received += recvcounts[p];
  }
  int* send = malloc(sizeof(int) * (size_t)sent);
  int* recv = malloc(sizeof(int) * (size_t)received);
  for (int i = 0; i < sent; ++i) send[i] = -1; /* the strided type's holes: never sent */
  for (int to = 0; to < size; ++to) {
    const int stride = to % 2 == 1 ? 2 : 1;
    for (int k = 0; k < sendcounts[to]; ++k) send[sdispls[to] / (int)sizeof(int) + stride * k] = value(rank, to, k);
  }
  int ok = MPI_Alltoallw(send, sendcounts, sdispls, sendtypes, recv, recvcounts, rdispls, recvtypes, comm) ==
           MPI_SUCCESS;
  for (int from = 0; ok && from < size; ++from)
    for (int k = 0; k < recvcounts[from]; ++k)
      ok = ok && recv[rdispls[from] / (int)sizeof(int) + k] == value(from, rank, k);
  expect(ok, "MPI_Alltoallw", rank);
  MPI_Type_free(&every_other);
  MPI_Type_free(&strided);
  free(send), free(recv), free(sendcounts), free(sdispls), free(recvcounts), free(rdispls);
  free(sendtypes), free(recvtypes);
}

static void check_intracommunicators(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  check_alltoall(MPI_COMM_WORLD, 3, 0, "MPI_Alltoall of 3 ints on MPI_COMM_WORLD");
  check_alltoall(MPI_COMM_WORLD, 3, 0, "MPI_Alltoall of 3 ints on MPI_COMM_WORLD, again (cached plan)");
  check_alltoall(MPI_COMM_WORLD, 20000, 0, "MPI_Alltoall of 80 KB blocks on MPI_COMM_WORLD");
  check_alltoall(MPI_COMM_WORLD, 5, 1, "MPI_Alltoall with MPI_IN_PLACE");

  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  check_alltoall(half, 7, 0, "MPI_Alltoall on a split communicator");
  MPI_Comm_free(&half);

  MPI_Comm duplicate;
  MPI_Comm_dup(MPI_COMM_WORLD, &duplicate);
  check_derived_datatype(duplicate);
  MPI_Comm_free(&duplicate);

  check_alltoallv(MPI_COMM_WORLD);
  check_alltoallw(MPI_COMM_WORLD);
}

static void check_intercommunicator(void) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int first_half = rank < size / 2;
  MPI_Comm local, inter;
  MPI_Comm_split(MPI_COMM_WORLD, first_half, rank, &local);
  const int remote_leader = first_half ? size / 2 : 0;
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, remote_leader, 17, &inter);
  int local_rank, remote_size;
  MPI_Comm_rank(inter, &local_rank);
  MPI_Comm_remote_size(inter, &remote_size);
  const int count = 4;
  int* send = malloc(sizeof(int) * count * (size_t)remote_size);
  int* recv = malloc(sizeof(int) * count * (size_t)remote_size);
  /* Ranks of the two groups are told apart by the sign. */
  const int me = first_half ? local_rank : -local_rank - 1;
  for (int to = 0; to < remote_size; ++to)
    for (int k = 0; k < count; ++k) send[to * count + k] = value(me, to, k);
  int ok = MPI_Alltoall(send, count, MPI_INT, recv, count, MPI_INT, inter) == MPI_SUCCESS;
  for (int from = 0; ok && from < remote_size; ++from) {
    const int sender = first_half ? -from - 1 : from;
    for (int k = 0; k < count; ++k) ok = ok && recv[from * count + k] == value(sender, local_rank, k);
  }
  expect(ok, "MPI_Alltoall on an intercommunicator", rank);
  free(send);
  free(recv);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
}

/* What a program may leave in the arguments MPI says are not significant (the root's side on
 * the other ranks, the root's own side when in place): a datatype handle that was never set
 * (reading it crashes), a nonsense count and buffer. */
#define UNSET_TYPE ((MPI_Datatype)(uintptr_t)0x5a5a5a5a)
#define UNSET_COUNT (-7)
#define UNSET_BUFFER ((void*)(uintptr_t)0x5a5a5a5a)

/* Scatter and gather of `count` ints per rank from `root`, then their v forms with rank q's
 * block holding q + 1 ints, placed in reverse rank order at the root. Every argument MPI
 * ignores is left unset. */
static void check_rooted_from(MPI_Comm comm, int root, int count, int in_place) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int* all = malloc(sizeof(int) * (size_t)count * (size_t)size);
  int* mine = malloc(sizeof(int) * (size_t)count);
  for (int q = 0; q < size; ++q)
    for (int k = 0; k < count; ++k) all[q * count + k] = value(root, q, k);
  const int at_root = rank == root;
  const int root_in_place = at_root && in_place;
  int ok = (at_root ? MPI_Scatter(all, count, MPI_INT, root_in_place ? MPI_IN_PLACE : mine,
                                  root_in_place ? UNSET_COUNT : count, root_in_place ? UNSET_TYPE : MPI_INT, root, comm)
                    : MPI_Scatter(UNSET_BUFFER, UNSET_COUNT, UNSET_TYPE, mine, count, MPI_INT, root, comm)) ==
           MPI_SUCCESS;
  for (int k = 0; ok && !(at_root && in_place) && k < count; ++k) ok = mine[k] == value(root, rank, k);
  expect(ok, in_place ? "MPI_Scatter, in place at the root" : "MPI_Scatter", rank);

  int* gathered = calloc((size_t)count * (size_t)size, sizeof(int));
  for (int k = 0; k < count; ++k) mine[k] = value(root, rank, k);
  if (at_root && in_place) memcpy(gathered + rank * count, mine, sizeof(int) * (size_t)count);
  ok = (at_root ? MPI_Gather(root_in_place ? MPI_IN_PLACE : mine, root_in_place ? UNSET_COUNT : count,
                             root_in_place ? UNSET_TYPE : MPI_INT, gathered, count, MPI_INT, root, comm)
               : MPI_Gather(mine, count, MPI_INT, UNSET_BUFFER, UNSET_COUNT, UNSET_TYPE, root, comm)) == MPI_SUCCESS;
  for (int i = 0; ok && at_root && i < count * size; ++i) ok = gathered[i] == all[i];
  expect(ok, in_place ? "MPI_Gather, in place at the root" : "MPI_Gather", rank);

  int *counts = malloc(sizeof(int) * size), *displs = malloc(sizeof(int) * size), total = 0;
  for (int q = size - 1; q >= 0; --q) counts[q] = q + 1, displs[q] = total, total += q + 1;
  int* spread = malloc(sizeof(int) * (size_t)total);
  for (int q = 0; q < size; ++q)
    for (int k = 0; k < counts[q]; ++k) spread[displs[q] + k] = value(root, q, k);
  int* block = malloc(sizeof(int) * (size_t)(rank + 1));
  ok = (at_root ? MPI_Scatterv(spread, counts, displs, MPI_INT, block, rank + 1, MPI_INT, root, comm)
               : MPI_Scatterv(UNSET_BUFFER, NULL, NULL, UNSET_TYPE, block, rank + 1, MPI_INT, root, comm)) ==
       MPI_SUCCESS;
  for (int k = 0; ok && k <= rank; ++k) ok = block[k] == value(root, rank, k);
  expect(ok, "MPI_Scatterv", rank);
  int* back = calloc((size_t)total, sizeof(int));
  ok = (at_root ? MPI_Gatherv(block, rank + 1, MPI_INT, back, counts, displs, MPI_INT, root, comm)
               : MPI_Gatherv(block, rank + 1, MPI_INT, UNSET_BUFFER, NULL, NULL, UNSET_TYPE, root, comm)) ==
       MPI_SUCCESS;
  for (int i = 0; ok && at_root && i < total; ++i) ok = back[i] == spread[i];
  expect(ok, "MPI_Gatherv", rank);
  free(all), free(mine), free(gathered), free(counts), free(displs), free(spread), free(block), free(back);
}

static void check_rooted(void) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int root = 0; root < size; ++root) {
    check_rooted_from(MPI_COMM_WORLD, root, 3, 0);
    check_rooted_from(MPI_COMM_WORLD, root, 3, 1);
  }
  check_rooted_from(MPI_COMM_WORLD, size - 1, 20000, 0); /* 80 KB blocks */
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  check_rooted_from(half, 0, 5, 0);
  MPI_Comm_free(&half);
}

static void check_configuration_error(void) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int* buffer = calloc((size_t)size * 2, sizeof(int));
  int* counts = malloc(sizeof(int) * size);
  int* displs = malloc(sizeof(int) * size);
  for (int p = 0; p < size; ++p) counts[p] = 1, displs[p] = p;
  int error_class = MPI_SUCCESS;
  MPI_Error_class(MPI_Alltoall(buffer, 1, MPI_INT, buffer + size, 1, MPI_INT, MPI_COMM_WORLD), &error_class);
  expect(error_class == MPI_ERR_ARG, "MPI_Alltoall returning MPI_ERR_ARG for a bad TOPOCOLL_* value", rank);
  MPI_Error_class(MPI_Alltoallv(buffer, counts, displs, MPI_INT, buffer + size, counts, displs, MPI_INT,
                                MPI_COMM_WORLD), &error_class);
  expect(error_class == MPI_ERR_ARG, "MPI_Alltoallv returning MPI_ERR_ARG for a bad TOPOCOLL_* value", rank);
  free(buffer), free(counts), free(displs);
}

/* Rank 1 passes a negative send count, the others right arguments, under MPI_ERRORS_RETURN:
   rank 1 gets MPI_ERR_COUNT, no rank waits forever, and the right call after it is right. */
static void check_one_bad_rank(void) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int* send = malloc(sizeof(int) * (size_t)size);
  int* recv = malloc(sizeof(int) * (size_t)size);
  for (int p = 0; p < size; ++p) send[p] = value(rank, p, 0), recv[p] = -1;
  int error_class = MPI_SUCCESS;
  MPI_Error_class(MPI_Alltoall(send, rank == 1 ? -1 : 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD), &error_class);
  if (rank == 1) expect(error_class == MPI_ERR_COUNT, "MPI_Alltoall with a negative count on rank 1", rank);
  int ok = MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS;
  for (int p = 0; ok && p < size; ++p) ok = recv[p] == value(p, rank, 0);
  expect(ok, "MPI_Alltoall after one rank's bad call", rank);
  free(send), free(recv);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const char* mode = argc > 1 ? argv[1] : "all";
  if (strcmp(mode, "all") == 0) {
    check_intracommunicators();
  } else if (strcmp(mode, "intercomm") == 0) {
    check_intercommunicator();
  } else if (strcmp(mode, "config-error") == 0) {
    check_configuration_error();
  } else if (strcmp(mode, "rooted") == 0) {
    check_rooted();
  } else if (strcmp(mode, "one-bad-rank") == 0) {
    check_one_bad_rank();
  } else {
    fprintf(stderr, "preload_check: unknown mode '%s' (all, intercomm, config-error, rooted, one-bad-rank)\n", mode);
    ++failures;
  }
  int total = 0, rank;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) printf("preload_check %s: %s\n", mode, total == 0 ? "all checks passed" : "FAILED");
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
