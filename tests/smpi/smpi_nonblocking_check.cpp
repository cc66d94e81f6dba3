// Simulated checks of topocoll's nonblocking collectives under SMPI, where the program's
// completion calls are topocoll's (src/exec/smpi_completion_calls.cpp): byte for byte against
// SMPI's own blocking calls, for every alltoall algorithm of the registry that applies on the
// crossbar, ialltoallv, iscatter and igather; several outstanding on two communicators, started
// in opposite orders on even and odd ranks and completed with the program's own messages in one
// MPI_Waitall; MPI_Test polling to the end; MPI_Waitany and MPI_Waitsome; and that the
// simulated time of a nonblocking call, waited for at once, is the blocking call's (nothing is
// polled, so SMPI charges no test). Rank 0 prints "N passed, M failed"; every rank returns
// non-zero when anything failed.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "check_tally.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace {

int value(int from, int to, int k, int salt) { return salt * 1000003 + from * 10007 + to * 101 + k; }

std::vector<int> alltoall_input(int rank, int p, int n, int salt) {
  std::vector<int> send(static_cast<std::size_t>(p * n));
  for (int to = 0; to < p; ++to) {
    for (int k = 0; k < n; ++k) send[static_cast<std::size_t>(to * n + k)] = value(rank, to, k, salt);
  }
  return send;
}

std::vector<int> native_alltoall(const std::vector<int>& send, int n, MPI_Comm comm) {
  int p = 0;
  MPI_Comm_size(comm, &p);
  std::vector<int> expected(static_cast<std::size_t>(p * n));
  MPI_Alltoall(send.data(), n, MPI_INT, expected.data(), n, MPI_INT, comm);
  return expected;
}

// Every registry alltoall algorithm that needs no topology, each block size, MPI_Wait.
void check_every_algorithm(Tally& tally, int rank, int p) {
  for (const auto& algorithm : topocoll::algorithms_for(topocoll::Operation::alltoall)) {
    if (algorithm.needs_topology || algorithm.self_describing || algorithm.name == "native") continue;
    for (int n : {0, 1, 700}) {
      const std::vector<int> send = alltoall_input(rank, p, n, 1);
      const std::vector<int> expected = native_alltoall(send, n, MPI_COMM_WORLD);
      std::vector<int> got(expected.size(), -1);
      topocoll::CollectiveOptions options;
      options.algorithm = std::string(algorithm.name);
      MPI_Request request = MPI_REQUEST_NULL;
      int rc = topocoll::ialltoall(send.data(), n, MPI_INT, got.data(), n, MPI_INT, MPI_COMM_WORLD, &request, options);
      if (rc == MPI_SUCCESS) rc = MPI_Wait(&request, MPI_STATUS_IGNORE);
      tally.record("ialltoall " + std::string(algorithm.name) + " n=" + std::to_string(n),
                   rc == MPI_SUCCESS && request == MPI_REQUEST_NULL && got == expected);
    }
  }
}

// Two communicators, a collective on each, started in opposite orders on even and odd ranks;
// each rank's own ring message in the same MPI_Waitall. Waiting on one collective alone would
// deadlock: the wait must move both, and see the program's messages.
void check_opposite_orders(Tally& tally, int rank, int p) {
  MPI_Comm first = MPI_COMM_NULL, second = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &first);
  MPI_Comm_dup(MPI_COMM_WORLD, &second);
  const int n = 300;
  const std::vector<int> send_a = alltoall_input(rank, p, n, 2), send_b = alltoall_input(rank, p, n, 3);
  const std::vector<int> expected_a = native_alltoall(send_a, n, first);
  const std::vector<int> expected_b = native_alltoall(send_b, n, second);
  std::vector<int> got_a(expected_a.size(), -1), got_b(expected_b.size(), -1);
  topocoll::CollectiveOptions bruck, pairwise;
  bruck.algorithm = "bruck";
  pairwise.algorithm = "pairwise";
  // A communicator's first topocoll call makes its private duplicate, collectively (as
  // MPI_Comm_dup): in the same order on every rank, by a blocking call on each.
  std::vector<int> warm(expected_a.size());
  topocoll::alltoall(send_a.data(), n, MPI_INT, warm.data(), n, MPI_INT, first, bruck);
  topocoll::alltoall(send_b.data(), n, MPI_INT, warm.data(), n, MPI_INT, second, pairwise);
  MPI_Request requests[4] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  int out = rank, in = -1;
  // A tag topocoll's calls here never reach: SMPI 3.32 may match a message of another
  // communicator (one whose id it has not assigned yet) when source and tag agree.
  const int ring_tag = 30001;
  MPI_Irecv(&in, 1, MPI_INT, (rank + p - 1) % p, ring_tag, MPI_COMM_WORLD, &requests[2]);
  int rc_a = MPI_SUCCESS, rc_b = MPI_SUCCESS;
  if (rank % 2 == 0) {
    rc_a = topocoll::ialltoall(send_a.data(), n, MPI_INT, got_a.data(), n, MPI_INT, first, &requests[0], bruck);
    rc_b = topocoll::ialltoall(send_b.data(), n, MPI_INT, got_b.data(), n, MPI_INT, second, &requests[1], pairwise);
  } else {
    rc_b = topocoll::ialltoall(send_b.data(), n, MPI_INT, got_b.data(), n, MPI_INT, second, &requests[1], pairwise);
    rc_a = topocoll::ialltoall(send_a.data(), n, MPI_INT, got_a.data(), n, MPI_INT, first, &requests[0], bruck);
  }
  MPI_Isend(&out, 1, MPI_INT, (rank + 1) % p, ring_tag, MPI_COMM_WORLD, &requests[3]);
  MPI_Status statuses[4];
  const int rc = MPI_Waitall(4, requests, statuses);
  int received = 0;
  MPI_Get_count(&statuses[2], MPI_INT, &received);
  tally.record("two communicators in opposite orders, one MPI_Waitall with the program's messages",
               rc_a == MPI_SUCCESS && rc_b == MPI_SUCCESS && rc == MPI_SUCCESS && got_a == expected_a &&
                   got_b == expected_b && in == (rank + p - 1) % p && received == 1 &&
                   statuses[2].MPI_SOURCE == (rank + p - 1) % p);
  MPI_Comm_free(&first);
  MPI_Comm_free(&second);
}

// MPI_Test until done, then MPI_Waitany and MPI_Waitsome over two outstanding ones.
void check_tests_and_any(Tally& tally, int rank, int p) {
  const int n = 64;
  const std::vector<int> send = alltoall_input(rank, p, n, 4);
  const std::vector<int> expected = native_alltoall(send, n, MPI_COMM_WORLD);
  topocoll::CollectiveOptions options;
  options.algorithm = "pairwise";
  std::vector<int> got(expected.size(), -1);
  MPI_Request request = MPI_REQUEST_NULL;
  int rc = topocoll::ialltoall(send.data(), n, MPI_INT, got.data(), n, MPI_INT, MPI_COMM_WORLD, &request, options);
  int done = 0, tests = 0;
  while (rc == MPI_SUCCESS && done == 0 && tests < 1000000) {
    rc = MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    ++tests;
  }
  tally.record("MPI_Test polled to the end", rc == MPI_SUCCESS && done != 0 && got == expected);

  std::vector<int> got2(expected.size(), -1), got3(expected.size(), -1);
  MPI_Request two[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  options.algorithm = "bruck";
  rc = topocoll::ialltoall(send.data(), n, MPI_INT, got2.data(), n, MPI_INT, MPI_COMM_WORLD, &two[0], options);
  options.algorithm = "direct";
  if (rc == MPI_SUCCESS) {
    rc = topocoll::ialltoall(send.data(), n, MPI_INT, got3.data(), n, MPI_INT, MPI_COMM_WORLD, &two[1], options);
  }
  int index = -1, outcount = 0, indices[2] = {-1, -1};
  int seen = 0;
  if (rc == MPI_SUCCESS) rc = MPI_Waitany(2, two, &index, MPI_STATUS_IGNORE);
  if (rc == MPI_SUCCESS && index >= 0 && index < 2 && two[index] == MPI_REQUEST_NULL) ++seen;
  if (rc == MPI_SUCCESS) rc = MPI_Waitsome(2, two, &outcount, indices, MPI_STATUSES_IGNORE);
  if (rc == MPI_SUCCESS && outcount == 1 && indices[0] == 1 - index) ++seen;
  tally.record("MPI_Waitany then MPI_Waitsome over two",
               rc == MPI_SUCCESS && seen == 2 && got2 == expected && got3 == expected);
}

void check_irregular_and_rooted(Tally& tally, int rank, int p) {
  std::vector<int> sendcounts(static_cast<std::size_t>(p)), recvcounts(static_cast<std::size_t>(p));
  std::vector<int> sdispls(static_cast<std::size_t>(p)), rdispls(static_cast<std::size_t>(p));
  int stotal = 0, rtotal = 0;
  for (int q = 0; q < p; ++q) {
    sendcounts[static_cast<std::size_t>(q)] = (rank + 2 * q) % 5;
    recvcounts[static_cast<std::size_t>(q)] = (q + 2 * rank) % 5;
    sdispls[static_cast<std::size_t>(q)] = stotal;
    rdispls[static_cast<std::size_t>(q)] = rtotal;
    stotal += sendcounts[static_cast<std::size_t>(q)];
    rtotal += recvcounts[static_cast<std::size_t>(q)];
  }
  std::vector<int> send(static_cast<std::size_t>(stotal));
  for (int i = 0; i < stotal; ++i) send[static_cast<std::size_t>(i)] = rank * 1000 + i;
  std::vector<int> expected(static_cast<std::size_t>(rtotal), -1), got(static_cast<std::size_t>(rtotal), -1);
  MPI_Alltoallv(send.data(), sendcounts.data(), sdispls.data(), MPI_INT, expected.data(), recvcounts.data(),
                rdispls.data(), MPI_INT, MPI_COMM_WORLD);
  for (const char* name : {"pairwise", "direct"}) {
    std::fill(got.begin(), got.end(), -1);
    topocoll::CollectiveOptions options;
    options.algorithm = name;
    MPI_Request request = MPI_REQUEST_NULL;
    int rc = topocoll::ialltoallv(send.data(), sendcounts.data(), sdispls.data(), MPI_INT, got.data(),
                                  recvcounts.data(), rdispls.data(), MPI_INT, MPI_COMM_WORLD, &request, options);
    if (rc == MPI_SUCCESS) rc = MPI_Wait(&request, MPI_STATUS_IGNORE);
    tally.record(std::string("ialltoallv ") + name, rc == MPI_SUCCESS && got == expected);
  }

  const int n = 50, root = p - 1;
  std::vector<int> all(static_cast<std::size_t>(p * n));
  for (int i = 0; i < p * n; ++i) all[static_cast<std::size_t>(i)] = 7 * i + 1;
  for (const char* name : {"linear", "binomial"}) {
    topocoll::CollectiveOptions options;
    options.algorithm = name;
    std::vector<int> mine(static_cast<std::size_t>(n), -1), gathered(static_cast<std::size_t>(p * n), -1);
    MPI_Request request = MPI_REQUEST_NULL;
    int rc =
        topocoll::iscatter(all.data(), n, MPI_INT, mine.data(), n, MPI_INT, root, MPI_COMM_WORLD, &request, options);
    if (rc == MPI_SUCCESS) rc = MPI_Wait(&request, MPI_STATUS_IGNORE);
    bool ok = rc == MPI_SUCCESS;
    for (int k = 0; k < n && ok; ++k)
      ok = mine[static_cast<std::size_t>(k)] == all[static_cast<std::size_t>(rank * n + k)];
    tally.record(std::string("iscatter ") + name, ok);
    rc = topocoll::igather(mine.data(), n, MPI_INT, gathered.data(), n, MPI_INT, root, MPI_COMM_WORLD, &request,
                           options);
    if (rc == MPI_SUCCESS) rc = MPI_Wait(&request, MPI_STATUS_IGNORE);
    tally.record(std::string("igather ") + name, rc == MPI_SUCCESS && (rank != root || gathered == all));
  }
}

// liu polls its stages: under SMPI its nonblocking form is refused with a message, not hung.
void check_liu_refused(Tally& tally, int rank, int p) {
  const int n = 4;
  const std::vector<int> send = alltoall_input(rank, p, n, 5);
  std::vector<int> counts(static_cast<std::size_t>(p), n), displs(static_cast<std::size_t>(p));
  for (int q = 0; q < p; ++q) displs[static_cast<std::size_t>(q)] = q * n;
  std::vector<int> got(send.size());
  topocoll::CollectiveOptions options;
  options.algorithm = "liu";
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Request request = MPI_REQUEST_NULL;
  const int rc = topocoll::ialltoallv(send.data(), counts.data(), displs.data(), MPI_INT, got.data(), counts.data(),
                                      displs.data(), MPI_INT, MPI_COMM_WORLD, &request, options);
  const std::string message = topocoll_error_message();
  tally.record("liu's nonblocking form refused under SMPI",
               rc != MPI_SUCCESS && request == MPI_REQUEST_NULL && message.find("under SMPI") != std::string::npos);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

// Started and waited for at once, a nonblocking call takes the blocking call's simulated time:
// its wait blocks on the requests, and SMPI charges no test.
void check_simulated_time(Tally& tally, int rank, int p) {
  const int n = 4096;
  const std::vector<int> send = alltoall_input(rank, p, n, 6);
  std::vector<int> got(send.size());
  topocoll::CollectiveOptions options;
  options.algorithm = "pairwise";
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  int rc = topocoll::alltoall(send.data(), n, MPI_INT, got.data(), n, MPI_INT, MPI_COMM_WORLD, options);
  const double blocking = MPI_Wtime() - start;
  MPI_Barrier(MPI_COMM_WORLD);
  start = MPI_Wtime();
  MPI_Request request = MPI_REQUEST_NULL;
  if (rc == MPI_SUCCESS) {
    rc = topocoll::ialltoall(send.data(), n, MPI_INT, got.data(), n, MPI_INT, MPI_COMM_WORLD, &request, options);
  }
  if (rc == MPI_SUCCESS) rc = MPI_Wait(&request, MPI_STATUS_IGNORE);
  const double nonblocking = MPI_Wtime() - start;
  const bool close = std::fabs(nonblocking - blocking) <= 0.01 * blocking;
  if (!close)
    std::printf("  rank %d: blocking %.1f us, nonblocking %.1f us\n", rank, blocking * 1e6, nonblocking * 1e6);
  tally.record("ialltoall waited for at once takes the blocking call's time (within 1%)", rc == MPI_SUCCESS && close);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Tally tally;
  int p = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &tally.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  check_every_algorithm(tally, tally.rank, p);
  check_opposite_orders(tally, tally.rank, p);
  check_tests_and_any(tally, tally.rank, p);
  check_irregular_and_rooted(tally, tally.rank, p);
  check_liu_refused(tally, tally.rank, p);
  check_simulated_time(tally, tally.rank, p);
  if (tally.rank == 0) std::printf("%d ranks: %d passed, %d failed\n", p, tally.passed, tally.failed);
  MPI_Finalize();
  return tally.failed == 0 ? 0 : 1;
}
