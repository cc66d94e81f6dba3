// Nonblocking collectives (topocoll::ialltoall ... igatherv) against the MPI library's blocking
// ones, byte for byte: the schedule algorithms, several calls outstanding on one communicator
// and completed out of order, v forms that learn block sizes after their start, MPI_Test
// polling, MPI_Waitany in a mixed array, in place, a derived datatype (also freed right after the start), every rooted
// and irregular form (auto's and liu's too), MPI_Request_free of an outstanding call, later calls that need a duplicate
// a first start asked for, the verdicts that hand a call to the library, and errors at the start and at completion.
#include <numeric>
#include <string>
#include <vector>

#include "mpi_test_support.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {
namespace {

class Nonblocking : public MpiTest {};

CollectiveOptions named(const std::string& algorithm) {
  CollectiveOptions options;
  options.algorithm = algorithm;
  return options;
}

// An ialltoall of `count` ints per block, waited for, against MPI_Alltoall.
void expect_ialltoall_matches(MPI_Comm comm, std::size_t count, const CollectiveOptions& options) {
  const std::vector<int> send = make_send_blocks(comm, count);
  std::vector<int> result(send.size(), kCanary);
  MPI_Request request = MPI_REQUEST_NULL;
  const int c = static_cast<int>(count);
  const int rc = ialltoall(send.data(), c, MPI_INT, result.data(), c, MPI_INT, comm, &request, options);
  EXPECT_EQ(rc, MPI_SUCCESS) << options.algorithm << ": " << topocoll_error_message();
  if (rc != MPI_SUCCESS) return;
  EXPECT_NE(request, MPI_REQUEST_NULL);
  MPI_Status status;
  EXPECT_EQ(MPI_Wait(&request, &status), MPI_SUCCESS) << options.algorithm << ": " << topocoll_error_message();
  EXPECT_EQ(request, MPI_REQUEST_NULL);
  EXPECT_TRUE(same_elements(result, expected_receive_blocks(comm, count), count)) << options.algorithm;
}

TEST_F(Nonblocking, ScheduleAlgorithmsMatchMpiAlltoall) {
  const int p = size_of(MPI_COMM_WORLD);
  for (const char* name : {"direct", "shift", "pairwise", "group-shuffle", "bruck", "native"}) {
    for (std::size_t count : {std::size_t{1}, std::size_t{3000}}) {
      expect_ialltoall_matches(MPI_COMM_WORLD, count, named(name));
    }
  }
  CollectiveOptions bounded = named("direct");
  bounded.max_requests = 2;
  expect_ialltoall_matches(MPI_COMM_WORLD, 700, bounded);
  if (p >= 2) {  // topology-aware: lg and overlap on two clusters
    const std::string clusters = "clusters:" + std::to_string(p / 2) + "," + std::to_string(p - p / 2);
    for (const char* name : {"lg", "overlap"}) {
      CollectiveOptions options = named(name);
      options.topology = clusters;
      expect_ialltoall_matches(MPI_COMM_WORLD, 500, options);
    }
  }
}

TEST_F(Nonblocking, CApi) {
  const std::size_t count = 9;
  const std::vector<int> send = make_send_blocks(MPI_COMM_WORLD, count);
  std::vector<int> result(send.size(), kCanary);
  MPI_Request request = MPI_REQUEST_NULL;
  EXPECT_EQ(topocoll_ialltoall(send.data(), int(count), MPI_INT, result.data(), int(count), MPI_INT, MPI_COMM_WORLD,
                               &request, "shift"),
            MPI_SUCCESS);
  EXPECT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_TRUE(same_elements(result, expected_receive_blocks(MPI_COMM_WORLD, count), count));
}

// Three calls outstanding on one communicator, each with its own algorithm, completed in the
// reverse order of their starts (MPI_Wait one by one), then three completed by MPI_Waitall.
TEST_F(Nonblocking, SeveralOutstandingOnOneCommunicator) {
  const std::size_t count = 257;
  const std::vector<int> send = make_send_blocks(MPI_COMM_WORLD, count);
  const std::vector<int> expected = expected_receive_blocks(MPI_COMM_WORLD, count);
  const char* names[] = {"pairwise", "direct", "bruck"};
  for (bool all_at_once : {false, true}) {
    std::vector<std::vector<int>> results(3, std::vector<int>(send.size(), kCanary));
    std::vector<MPI_Request> requests(3, MPI_REQUEST_NULL);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(ialltoall(send.data(), int(count), MPI_INT, results[i].data(), int(count), MPI_INT, MPI_COMM_WORLD,
                          &requests[i], named(names[i])),
                MPI_SUCCESS);
    }
    if (all_at_once) {
      EXPECT_EQ(MPI_Waitall(3, requests.data(), MPI_STATUSES_IGNORE), MPI_SUCCESS);
    } else {
      for (int i = 2; i >= 0; --i) EXPECT_EQ(MPI_Wait(&requests[i], MPI_STATUS_IGNORE), MPI_SUCCESS);
    }
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(same_elements(results[i], expected, count)) << names[i];
  }
}

// A start never waits for another rank's: rank 0 starts, then sends a message that rank 1
// receives before its own start (a valid MPI program, which a start that waited would hang).
// On a fresh communicator, whose private duplicate the first start begins (MPI_Comm_idup).
TEST_F(Nonblocking, StartDoesNotWaitForPeers) {
  const int p = size_of(MPI_COMM_WORLD);
  if (p < 2) return;
  MPI_Comm fresh = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &fresh);
  const int rank = rank_in(fresh);
  const std::size_t count = 100;
  const std::vector<int> send = make_send_blocks(fresh, count);
#if defined(MPICH)
  // MPICH: the API's first call on a communicator duplicates it, waiting (comm_state.cpp).
  expect_matches_mpi_alltoall(fresh, count, named("pairwise"));
#endif
  for (const char* name : {"pairwise", "direct", "binomial"}) {
    const bool rooted = std::string(name) == "binomial";
    std::vector<int> result(send.size(), kCanary);
    MPI_Request request = MPI_REQUEST_NULL;
    const auto start = [&] {
      const int c = int(count);
      return rooted ? igather(send.data(), c, MPI_INT, result.data(), c, MPI_INT, 0, fresh, &request, named(name))
                    : ialltoall(send.data(), c, MPI_INT, result.data(), c, MPI_INT, fresh, &request, named(name));
    };
    int token = 7;
    if (rank == 1) MPI_Recv(&token, 1, MPI_INT, 0, 5, fresh, MPI_STATUS_IGNORE);
    EXPECT_EQ(start(), MPI_SUCCESS) << name;
    if (rank == 0) MPI_Send(&token, 1, MPI_INT, 1, 5, fresh);
    EXPECT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS) << name;
    if (!rooted) {
      EXPECT_TRUE(same_elements(result, expected_receive_blocks(fresh, count), count)) << name;
    }
  }
  MPI_Comm_free(&fresh);
}

// The v forms whose algorithm learns block sizes from other ranks before its plan (lg for
// alltoallv, binomial for gatherv and scatterv) learn them after the start: rank 0 starts, then
// sends to rank 1, which receives before its own start. The topology is discovered first by a
// blocking call, which waits for every rank by design.
TEST_F(Nonblocking, IrregularFormsLearnTheirSizesAfterTheStart) {
  const int p = size_of(MPI_COMM_WORLD);
  if (p < 2) return;
  MPI_Comm fresh = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &fresh);
  const int rank = rank_in(fresh), root = p - 1;
  CollectiveOptions lg = named("lg");
  lg.topology = "clusters:" + std::to_string(p / 2) + "," + std::to_string(p - p / 2);
  const IrregularExchange x = irregular_exchange(rank, p);
  // Large enough for the alltoallv's blocks and for scatterv's (at most 4 ints a rank).
  std::vector<int> send(x.send_displs.back() + x.send_counts.back() + 1 + 4 * p);
  std::iota(send.begin(), send.end(), rank * 1000);
  std::vector<int> reference(x.recv_size, kCanary), result(x.recv_size, kCanary);
  MPI_Alltoallv(send.data(), x.send_counts.data(), x.send_displs.data(), MPI_INT, reference.data(),
                x.recv_counts.data(), x.recv_displs.data(), MPI_INT, fresh);
  EXPECT_EQ(alltoallv(send.data(), x.send_counts.data(), x.send_displs.data(), MPI_INT, result.data(),
                      x.recv_counts.data(), x.recv_displs.data(), MPI_INT, fresh, lg),
            MPI_SUCCESS);
  EXPECT_TRUE(result == reference) << "lg alltoallv";
  // Gatherv's blocks: counts[q] = (q * 3) % 4 + 1 ints, gathered at `root` in rank order.
  std::vector<int> counts(p), displs(p);
  for (int q = 0; q < p; ++q) counts[q] = (q * 3) % 4 + 1;
  for (int q = 1; q < p; ++q) displs[q] = displs[q - 1] + counts[q - 1];
  const int total = displs[p - 1] + counts[p - 1];
  std::vector<int> gathered_reference(total, kCanary);
  MPI_Gatherv(send.data(), counts[rank], MPI_INT, gathered_reference.data(), counts.data(), displs.data(), MPI_INT,
              root, fresh);
  std::vector<int> scattered_reference(counts[rank], kCanary);
  MPI_Scatterv(send.data(), counts.data(), displs.data(), MPI_INT, scattered_reference.data(), counts[rank], MPI_INT,
               root, fresh);
  for (const char* form : {"ialltoallv", "igatherv", "iscatterv"}) {
    const std::string name = form;
    std::vector<int> got;
    MPI_Request request = MPI_REQUEST_NULL;
    int token = 0;
    if (rank == 1) MPI_Recv(&token, 1, MPI_INT, 0, 6, fresh, MPI_STATUS_IGNORE);
    int rc = MPI_SUCCESS;
    if (name == "ialltoallv") {
      got.assign(x.recv_size, kCanary);
      rc = ialltoallv(send.data(), x.send_counts.data(), x.send_displs.data(), MPI_INT, got.data(),
                      x.recv_counts.data(), x.recv_displs.data(), MPI_INT, fresh, &request, lg);
    } else if (name == "igatherv") {
      got.assign(total, kCanary);
      rc = igatherv(send.data(), counts[rank], MPI_INT, got.data(), counts.data(), displs.data(), MPI_INT, root, fresh,
                    &request, named("binomial"));
    } else {
      got.assign(counts[rank], kCanary);
      rc = iscatterv(send.data(), counts.data(), displs.data(), MPI_INT, got.data(), counts[rank], MPI_INT, root, fresh,
                     &request, named("binomial"));
    }
    EXPECT_EQ(rc, MPI_SUCCESS) << name << ": " << topocoll_error_message();
    if (rank == 0) {
      token = 11;
      MPI_Send(&token, 1, MPI_INT, 1, 6, fresh);
    }
    EXPECT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS) << name << ": " << topocoll_error_message();
    if (rank == 1) {
      EXPECT_EQ(token, 11);
    }
    if (name == "ialltoallv") {
      EXPECT_TRUE(got == reference) << name;
    } else if (name == "iscatterv") {
      EXPECT_TRUE(got == scattered_reference) << name;
    } else if (rank == root) {
      EXPECT_TRUE(got == gathered_reference) << name;
    }
  }
  MPI_Comm_free(&fresh);
}

// A communicator freed while its first call's duplicate and the call itself are on their way:
// the free completes both (MPI frees a communicator once its operations are complete).
TEST_F(Nonblocking, CommunicatorFreedWithCallsOutstanding) {
  MPI_Comm fresh = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &fresh);
  const std::size_t count = 500;
  const std::vector<int> send = make_send_blocks(fresh, count);
  std::vector<int> result(send.size(), kCanary);
  MPI_Request request = MPI_REQUEST_NULL;
  EXPECT_EQ(ialltoall(send.data(), int(count), MPI_INT, result.data(), int(count), MPI_INT, fresh, &request,
                      named("pairwise")),
            MPI_SUCCESS);
  EXPECT_EQ(MPI_Comm_free(&fresh), MPI_SUCCESS);
  EXPECT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_TRUE(same_elements(result, expected_receive_blocks(MPI_COMM_WORLD, count), count));
}

// A communicator's first call is nonblocking (its duplicate made with MPI_Comm_idup, the walk
// waiting for it); a later call needs the duplicate too: a blocking call, a v form asking sizes
// (both wait for it) or another nonblocking start (which tests it). The progress inside that
// wait or test advances the first call, which tests the same request: it completed there, and
// was adopted a second time by the outer test (a crash on a null communicator).
TEST_F(Nonblocking, LaterCallsNeedTheDuplicateAFirstStartAskedFor) {
  const std::size_t count = 300;
  // The duplicate must complete inside the later call's own test or wait: tried many times.
  for (int attempt = 0; attempt < 30; ++attempt)
  for (const char* second : {"blocking alltoall", "igatherv asking sizes", "ialltoall"}) {
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    const int p = size_of(comm), rank = rank_in(comm);
    const std::vector<int> send = make_send_blocks(comm, count);
    std::vector<int> first(send.size(), kCanary), then(send.size(), kCanary);
    MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    ASSERT_EQ(ialltoall(send.data(), int(count), MPI_INT, first.data(), int(count), MPI_INT, comm, &requests[0],
                        named("pairwise")),
              MPI_SUCCESS);
    std::vector<int> counts(p, 2), displs(p), mine(2, rank), gathered(2 * std::size_t(p), kCanary);
    for (int q = 0; q < p; ++q) displs[q] = 2 * q;
    if (second == std::string("blocking alltoall")) {
      expect_matches_mpi_alltoall(comm, count, named("direct"));
    } else if (second == std::string("igatherv asking sizes")) {  // binomial learns sizes at its start
      ASSERT_EQ(igatherv(mine.data(), 2, MPI_INT, gathered.data(), counts.data(), displs.data(), MPI_INT, 0, comm,
                         &requests[1], named("binomial")),
                MPI_SUCCESS);
    } else {
      ASSERT_EQ(ialltoall(send.data(), int(count), MPI_INT, then.data(), int(count), MPI_INT, comm, &requests[1],
                          named("direct")),
                MPI_SUCCESS);
    }
    // Several more starts behind them, each testing the duplicate while the first walks test it.
    std::vector<int> scattered(2 * 4, kCanary);
    MPI_Request more[4];
    for (MPI_Request& request : more) {
      ASSERT_EQ(iscatter(send.data(), 2, MPI_INT, scattered.data() + 2 * (&request - more), 2, MPI_INT, 0, comm,
                         &request, named("linear")),
                MPI_SUCCESS);
    }
    ASSERT_EQ(MPI_Waitall(4, more, MPI_STATUSES_IGNORE), MPI_SUCCESS) << second;
    for (std::size_t i = 0; i < scattered.size(); ++i) {
      EXPECT_EQ(scattered[i], cell_value(0, 0, 2 * std::size_t(rank) + i % 2)) << second << ", iscatter " << i / 2;
    }
    ASSERT_EQ(MPI_Waitall(2, requests, MPI_STATUSES_IGNORE), MPI_SUCCESS) << second;
    EXPECT_TRUE(same_elements(first, expected_receive_blocks(comm, count), count)) << second;
    if (second == std::string("ialltoall")) {
      EXPECT_TRUE(same_elements(then, expected_receive_blocks(comm, count), count)) << second;
    }
    if (second == std::string("igatherv asking sizes") && rank == 0) {
      for (int q = 0; q < p; ++q) EXPECT_EQ(gathered[2 * std::size_t(q) + 1], q) << second;
    }
    MPI_Comm_free(&comm);
  }
}

// MPI_Test until done, then MPI_Waitany over the program's own receive and topocoll's request.
TEST_F(Nonblocking, TestPollingAndMixedArrays) {
  const int rank = rank_in(MPI_COMM_WORLD), p = size_of(MPI_COMM_WORLD);
  const std::size_t count = 1000;
  const std::vector<int> send = make_send_blocks(MPI_COMM_WORLD, count);
  const std::vector<int> expected = expected_receive_blocks(MPI_COMM_WORLD, count);
  std::vector<int> result(send.size(), kCanary);
  MPI_Request request = MPI_REQUEST_NULL;
  EXPECT_EQ(ialltoall(send.data(), int(count), MPI_INT, result.data(), int(count), MPI_INT, MPI_COMM_WORLD, &request,
                      named("pairwise")),
            MPI_SUCCESS);
  int done = 0;
  long tests = 0;
  while (!done) {
    EXPECT_EQ(MPI_Test(&request, &done, MPI_STATUS_IGNORE), MPI_SUCCESS);
    ++tests;
  }
  EXPECT_GE(tests, 1);
  EXPECT_TRUE(same_elements(result, expected, count));

  // A ring message of the program's own beside the collective.
  std::fill(result.begin(), result.end(), kCanary);
  int token_out = rank, token_in = -1;
  MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Irecv(&token_in, 1, MPI_INT, (rank + p - 1) % p, 99, MPI_COMM_WORLD, &requests[0]);
  EXPECT_EQ(ialltoall(send.data(), int(count), MPI_INT, result.data(), int(count), MPI_INT, MPI_COMM_WORLD,
                      &requests[1], named("direct")),
            MPI_SUCCESS);
  MPI_Send(&token_out, 1, MPI_INT, (rank + 1) % p, 99, MPI_COMM_WORLD);
  for (int k = 0; k < 2; ++k) {
    int index = MPI_UNDEFINED;
    EXPECT_EQ(MPI_Waitany(2, requests, &index, MPI_STATUS_IGNORE), MPI_SUCCESS);
    EXPECT_TRUE(index == 0 || index == 1);
  }
  EXPECT_EQ(token_in, (rank + p - 1) % p);
  EXPECT_TRUE(same_elements(result, expected, count));
}

TEST_F(Nonblocking, InPlaceAndDerivedDatatype) {
  const std::size_t count = 33;
  std::vector<int> buffer = make_send_blocks(MPI_COMM_WORLD, count);
  MPI_Request request = MPI_REQUEST_NULL;
  EXPECT_EQ(ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buffer.data(), int(count), MPI_INT, MPI_COMM_WORLD,
                      &request, named("pairwise")),
            MPI_SUCCESS);
  EXPECT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_TRUE(same_elements(buffer, expected_receive_blocks(MPI_COMM_WORLD, count), count));

  // Every other int of a block of 2 x count: a strided type on both sides, staged.
  const int p = size_of(MPI_COMM_WORLD);
  MPI_Datatype resized = every_other_int(int(count));
  std::vector<int> send(2 * count * p), reference(2 * count * p, kCanary), result(2 * count * p, kCanary);
  std::iota(send.begin(), send.end(), rank_in(MPI_COMM_WORLD) * 100000);
  MPI_Alltoall(send.data(), 1, resized, reference.data(), 1, resized, MPI_COMM_WORLD);
  EXPECT_EQ(ialltoall(send.data(), 1, resized, result.data(), 1, resized, MPI_COMM_WORLD, &request, named("direct")),
            MPI_SUCCESS);
  EXPECT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_TRUE(result == reference) << "strided blocks differ from MPI_Alltoall's";
  MPI_Type_free(&resized);
}

// MPI lets the program free a datatype once the call that uses it has started: the run packs and
// unpacks later (the v form's send side only once it learnt the sizes), with the types it held.
// Types made and freed in between take the freed handles' places.
TEST_F(Nonblocking, DatatypesFreedAfterTheStart) {
  const int p = size_of(MPI_COMM_WORLD), rank = rank_in(MPI_COMM_WORLD);
  const int count = 17;
  std::vector<int> send(std::size_t(2 * count * p)), reference(send.size(), kCanary);
  std::iota(send.begin(), send.end(), rank * 100000);
  MPI_Datatype type = every_other_int(count);
  MPI_Alltoall(send.data(), 1, type, reference.data(), 1, type, MPI_COMM_WORLD);
  MPI_Type_free(&type);
  for (const char* name : {"direct", "pairwise", "bruck"}) {
    std::vector<int> result(send.size(), kCanary);
    MPI_Datatype send_type = every_other_int(count), recv_type = every_other_int(count);
    MPI_Request request = MPI_REQUEST_NULL;
    ASSERT_EQ(ialltoall(send.data(), 1, send_type, result.data(), 1, recv_type, MPI_COMM_WORLD, &request, named(name)),
              MPI_SUCCESS)
        << name << ": " << topocoll_error_message();
    MPI_Type_free(&send_type);
    MPI_Type_free(&recv_type);
    churn_datatypes();
    EXPECT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS) << name << ": " << topocoll_error_message();
    EXPECT_TRUE(result == reference) << name << ": blocks differ from MPI_Alltoall's";
  }
  if (p < 2) return;
  // lg's alltoallv learns the block sizes after its start, and only then packs its send side.
  CollectiveOptions lg = named("lg");
  lg.topology = "clusters:" + std::to_string(p / 2) + "," + std::to_string(p - p / 2);
  std::vector<int> counts(static_cast<std::size_t>(p), 1), displs(static_cast<std::size_t>(p));
  std::iota(displs.begin(), displs.end(), 0);
  type = every_other_int(count);
  std::vector<int> reference_v(send.size(), kCanary), result_v(send.size(), kCanary);
  MPI_Alltoallv(send.data(), counts.data(), displs.data(), type, reference_v.data(), counts.data(), displs.data(), type,
                MPI_COMM_WORLD);
  MPI_Request request = MPI_REQUEST_NULL;
  ASSERT_EQ(ialltoallv(send.data(), counts.data(), displs.data(), type, result_v.data(), counts.data(), displs.data(),
                       type, MPI_COMM_WORLD, &request, lg),
            MPI_SUCCESS)
      << topocoll_error_message();
  MPI_Type_free(&type);
  churn_datatypes();
  EXPECT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS) << topocoll_error_message();
  EXPECT_TRUE(result_v == reference_v) << "lg ialltoallv";
}

// The rooted and irregular forms, each against the MPI library's blocking call.
TEST_F(Nonblocking, RootedAndIrregularFormsMatchMpi) {
  const int rank = rank_in(MPI_COMM_WORLD), p = size_of(MPI_COMM_WORLD);
  const int root = p - 1, n = 5;
  std::vector<int> counts(p), displs(p);
  for (int q = 0; q < p; ++q) counts[q] = (q * 3) % 4;  // some empty
  for (int q = 1; q < p; ++q) displs[q] = displs[q - 1] + counts[q - 1] + 1;
  const int total = displs[p - 1] + counts[p - 1] + 1;
  std::vector<int> many(std::size_t(n) * p + total), reference, result;
  std::iota(many.begin(), many.end(), rank * 1000);
  for (const char* name : {"linear", "binomial"}) {
    MPI_Request request = MPI_REQUEST_NULL;
    // scatter, then gather
    reference.assign(n, kCanary);
    result.assign(n, kCanary);
    MPI_Scatter(many.data(), n, MPI_INT, reference.data(), n, MPI_INT, root, MPI_COMM_WORLD);
    EXPECT_EQ(iscatter(many.data(), n, MPI_INT, result.data(), n, MPI_INT, root, MPI_COMM_WORLD, &request, named(name)),
              MPI_SUCCESS);
    EXPECT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
    EXPECT_TRUE(result == reference) << name << " iscatter";
    reference.assign(std::size_t(n) * p, kCanary);
    result.assign(std::size_t(n) * p, kCanary);
    MPI_Gather(many.data(), n, MPI_INT, reference.data(), n, MPI_INT, root, MPI_COMM_WORLD);
    EXPECT_EQ(igather(many.data(), n, MPI_INT, result.data(), n, MPI_INT, root, MPI_COMM_WORLD, &request, named(name)),
              MPI_SUCCESS);
    EXPECT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
    EXPECT_TRUE(result == reference) << name << " igather";
    // scatterv, then gatherv (this rank's block: counts[rank] ints)
    reference.assign(counts[rank] + 1, kCanary);
    result.assign(counts[rank] + 1, kCanary);
    MPI_Scatterv(many.data(), counts.data(), displs.data(), MPI_INT, reference.data(), counts[rank], MPI_INT, root,
                 MPI_COMM_WORLD);
    EXPECT_EQ(iscatterv(many.data(), counts.data(), displs.data(), MPI_INT, result.data(), counts[rank], MPI_INT, root,
                        MPI_COMM_WORLD, &request, named(name)),
              MPI_SUCCESS);
    EXPECT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
    EXPECT_TRUE(result == reference) << name << " iscatterv";
    reference.assign(total, kCanary);
    result.assign(total, kCanary);
    MPI_Gatherv(many.data(), counts[rank], MPI_INT, reference.data(), counts.data(), displs.data(), MPI_INT, root,
                MPI_COMM_WORLD);
    EXPECT_EQ(igatherv(many.data(), counts[rank], MPI_INT, result.data(), counts.data(), displs.data(), MPI_INT, root,
                       MPI_COMM_WORLD, &request, named(name)),
              MPI_SUCCESS);
    EXPECT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
    EXPECT_TRUE(result == reference) << name << " igatherv";
  }
  // ialltoallv and ialltoallw: block r -> q of (r + q) % 3 ints, receive blocks with gaps.
  const IrregularExchange x = irregular_exchange(rank, p);
  const std::size_t recv_size = x.recv_size;
  std::vector<MPI_Datatype> types(p, MPI_INT);
  for (const char* name : {"pairwise", "direct", "liu"}) {
    MPI_Request request = MPI_REQUEST_NULL;
    reference.assign(recv_size, kCanary);
    result.assign(recv_size, kCanary);
    MPI_Alltoallv(many.data(), x.send_counts.data(), x.send_displs.data(), MPI_INT, reference.data(),
                  x.recv_counts.data(), x.recv_displs.data(), MPI_INT, MPI_COMM_WORLD);
    EXPECT_EQ(ialltoallv(many.data(), x.send_counts.data(), x.send_displs.data(), MPI_INT, result.data(),
                         x.recv_counts.data(), x.recv_displs.data(), MPI_INT, MPI_COMM_WORLD, &request, named(name)),
              MPI_SUCCESS);
    EXPECT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
    EXPECT_TRUE(result == reference) << name << " ialltoallv";
    result.assign(recv_size, kCanary);
    EXPECT_EQ(
        ialltoallw(many.data(), x.send_counts.data(), x.send_bytes.data(), types.data(), result.data(),
                   x.recv_counts.data(), x.recv_bytes.data(), types.data(), MPI_COMM_WORLD, &request, named(name)),
        MPI_SUCCESS);
    EXPECT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
    EXPECT_TRUE(result == reference) << name << " ialltoallw";
  }
}

// A request freed while its collective is on its way: the collective still completes (its
// peers are not left waiting) and later calls on the communicator are right.
TEST_F(Nonblocking, RequestFreedWhileOutstanding) {
  const std::size_t count = 2000;
  const std::vector<int> send = make_send_blocks(MPI_COMM_WORLD, count);
  std::vector<int> dropped(send.size(), kCanary);
  MPI_Request request = MPI_REQUEST_NULL;
  EXPECT_EQ(ialltoall(send.data(), int(count), MPI_INT, dropped.data(), int(count), MPI_INT, MPI_COMM_WORLD, &request,
                      named("pairwise")),
            MPI_SUCCESS);
  EXPECT_EQ(MPI_Request_free(&request), MPI_SUCCESS);
  EXPECT_EQ(request, MPI_REQUEST_NULL);
  expect_ialltoall_matches(MPI_COMM_WORLD, count, named("pairwise"));
  expect_matches_mpi_alltoall(MPI_COMM_WORLD, count, named("direct"));
  // Once every rank has passed a barrier after its later calls completed, the dropped call has
  // too: its messages were all matched before the later calls' were.
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < 1000; ++i) {
    int flag = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  }
}

// auto for the v forms: the API's start may wait, so the first call on a communicator exchanges
// its own traffic summary at its start; later ones take what earlier calls exchanged, blocking or
// not. Every result against the MPI library's; what auto chose is reported.
TEST_F(Nonblocking, AutoOfTheIrregularForms) {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const int rank = rank_in(comm), p = size_of(comm);
  const IrregularExchange x = irregular_exchange(rank, p);
  std::vector<int> send(3 * std::size_t(p) + 1), reference(x.recv_size, kCanary), result;
  std::iota(send.begin(), send.end(), rank * 1000);
  MPI_Alltoallv(send.data(), x.send_counts.data(), x.send_displs.data(), MPI_INT, reference.data(),
                x.recv_counts.data(), x.recv_displs.data(), MPI_INT, comm);
  CollectiveOptions options = named("auto");
  options.calibration = std::string(TOPOCOLL_SOURCE_DIR) + "/platforms/crossbar-16.calibration.json";
  std::string chosen;
  options.chosen_algorithm = &chosen;
  for (int call = 0; call < 3; ++call) {  // nonblocking, blocking, nonblocking again
    result.assign(x.recv_size, kCanary);
    chosen.clear();
    if (call == 1) {
      ASSERT_EQ(alltoallv(send.data(), x.send_counts.data(), x.send_displs.data(), MPI_INT, result.data(),
                          x.recv_counts.data(), x.recv_displs.data(), MPI_INT, comm, options),
                MPI_SUCCESS)
          << topocoll_error_message();
    } else {
      MPI_Request request = MPI_REQUEST_NULL;
      ASSERT_EQ(ialltoallv(send.data(), x.send_counts.data(), x.send_displs.data(), MPI_INT, result.data(),
                           x.recv_counts.data(), x.recv_displs.data(), MPI_INT, comm, &request, options),
                MPI_SUCCESS)
          << topocoll_error_message();
      ASSERT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS) << topocoll_error_message();
    }
    EXPECT_TRUE(result == reference) << "call " << call;
    EXPECT_FALSE(chosen.empty()) << "call " << call;
    EXPECT_NE(chosen, "auto") << "call " << call;
  }
  // igatherv by auto, first of its kind on the communicator.
  const int root = p - 1;
  std::vector<int> counts(p), displs(p);
  for (int q = 0; q < p; ++q) counts[q] = (q * 3) % 4;
  for (int q = 1; q < p; ++q) displs[q] = displs[q - 1] + counts[q - 1] + 1;
  const std::size_t total = std::size_t(displs[p - 1] + counts[p - 1] + 1);
  reference.assign(total, kCanary);
  result.assign(total, kCanary);
  MPI_Gatherv(send.data(), counts[rank], MPI_INT, reference.data(), counts.data(), displs.data(), MPI_INT, root, comm);
  MPI_Request request = MPI_REQUEST_NULL;
  ASSERT_EQ(igatherv(send.data(), counts[rank], MPI_INT, result.data(), counts.data(), displs.data(), MPI_INT, root,
                     comm, &request, options),
            MPI_SUCCESS)
      << topocoll_error_message();
  ASSERT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_TRUE(result == reference) << "igatherv by auto";
  MPI_Comm_free(&comm);
}

// An algorithm that does not apply, with options.inapplicable_reason set: the MPI library's
// own nonblocking call answers, and the reason says why.
TEST_F(Nonblocking, InapplicableCallsGoToTheLibrary) {
  const int p = size_of(MPI_COMM_WORLD);
  std::vector<int> counts(p, 2), displs(p);
  for (int q = 0; q < p; ++q) displs[q] = 2 * q;
  std::vector<int> send(2 * p), reference(2 * p, kCanary), result(2 * p, kCanary);
  std::iota(send.begin(), send.end(), rank_in(MPI_COMM_WORLD) * 100);
  MPI_Alltoallv(send.data(), counts.data(), displs.data(), MPI_INT, reference.data(), counts.data(), displs.data(),
                MPI_INT, MPI_COMM_WORLD);
  CollectiveOptions options = named("lg");
  options.topology = "flat:" + std::to_string(p);  // one group: lg has nothing to aggregate
  std::string reason, chosen;
  options.inapplicable_reason = &reason;
  options.chosen_algorithm = &chosen;
  MPI_Request request = MPI_REQUEST_NULL;
  EXPECT_EQ(ialltoallv(send.data(), counts.data(), displs.data(), MPI_INT, result.data(), counts.data(),
                       displs.data(), MPI_INT, MPI_COMM_WORLD, &request, options),
            MPI_SUCCESS);
  EXPECT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_TRUE(result == reference);
  EXPECT_NE(reason.find("'lg' does not apply"), std::string::npos) << reason;
  EXPECT_EQ(chosen, "native");
}

class NonblockingErrors : public ErrorsReturnTest {};

TEST_F(NonblockingErrors, NullRequestAndBadArgumentsFailAtTheStart) {
  int buffer[4] = {0, 0, 0, 0};
  EXPECT_EQ(ialltoall(buffer, 0, MPI_INT, buffer, 0, MPI_INT, comm_, nullptr), MPI_ERR_REQUEST);
  EXPECT_NE(std::string(topocoll_error_message()).find("request is null"), std::string::npos)
      << topocoll_error_message();
  MPI_Request request = MPI_REQUEST_NULL;
  int error_class = MPI_SUCCESS;
  MPI_Error_class(ialltoall(buffer, -1, MPI_INT, buffer, -1, MPI_INT, comm_, &request, named("pairwise")),
                  &error_class);
  EXPECT_EQ(error_class, MPI_ERR_COUNT);
  EXPECT_EQ(request, MPI_REQUEST_NULL);
  EXPECT_NE(std::string(topocoll_error_message()).find("ialltoall"), std::string::npos) << topocoll_error_message();
}

// One rank's arguments are bad: it fails at its start and still takes part; the others' calls
// fail at their completion with a message naming the mismatch; a later call is right. (A
// generalized request belongs to no communicator: MPI raises its error on MPI_COMM_WORLD.)
TEST_F(NonblockingErrors, OneBadRankFailsItsPeersAtCompletion) {
  const int rank = rank_in(comm_), p = size_of(comm_);
  if (p < 2) return;
  MPI_Errhandler world_handler = MPI_ERRHANDLER_NULL;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &world_handler);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const std::size_t count = 16;
  const std::vector<int> send = make_send_blocks(comm_, count);
  std::vector<int> result(send.size(), kCanary);
  MPI_Request request = MPI_REQUEST_NULL;
  const int mine = rank == 0 ? -1 : int(count);
  const int rc = ialltoall(send.data(), mine, MPI_INT, result.data(), mine, MPI_INT, comm_, &request,
                           named("pairwise"));
  if (rank == 0) {
    EXPECT_NE(rc, MPI_SUCCESS);
  } else {
    EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
    // (MPI_Wait returns the error; MPI sets a status's MPI_ERROR only in the array forms.)
    const int waited = MPI_Wait(&request, MPI_STATUS_IGNORE);
    EXPECT_NE(waited, MPI_SUCCESS);
    EXPECT_NE(std::string(topocoll_error_message()).find("ialltoall (pairwise)"), std::string::npos)
        << topocoll_error_message();
  }
  expect_ialltoall_matches(comm_, count, named("pairwise"));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, world_handler);
  MPI_Errhandler_free(&world_handler);
}

}  // namespace
}  // namespace topocoll::testing
