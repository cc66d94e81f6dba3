// Persistent collectives of the API (topocoll::alltoall_init ... gatherv_init, started with
// topocoll::start and topocoll::startall, freed with topocoll::request_free) against the MPI
// library's blocking calls, byte for byte: one handle started again with new data (waited for,
// polled, completed in MPI_Waitall), every form started together beside the program's own
// persistent requests, the C API, a handle freed while active, a start of an active handle, a
// start handed to the library, a run that fails after its start, and datatypes freed after the
// init. Where the MPI library has no
// progress engine topocoll can hook, the persistent forms do not apply: that is checked instead.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "mpi_test_support.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {
namespace {

CollectiveOptions named(const std::string& algorithm) {
  CollectiveOptions options;
  options.algorithm = algorithm;
  return options;
}

// Whether the persistent forms apply here; where not, that an init says so
// (MPI_ERR_UNSUPPORTED_OPERATION, naming the progress engine).
bool persistent_forms_here(MPI_Comm comm) {
  int buffer[2] = {0, 0};
  MPI_Request request = MPI_REQUEST_NULL;
  const int rc = alltoall_init(buffer, 0, MPI_INT, buffer, 0, MPI_INT, comm, MPI_INFO_NULL, &request);
  if (rc == MPI_SUCCESS) {
    EXPECT_EQ(request_free(&request), MPI_SUCCESS);
    return true;
  }
  int error_class = MPI_SUCCESS;
  MPI_Error_class(rc, &error_class);
  EXPECT_EQ(error_class, MPI_ERR_UNSUPPORTED_OPERATION);
  EXPECT_NE(std::string(topocoll_error_message()).find("progress engine"), std::string::npos)
      << topocoll_error_message();
  return false;
}

// Block d of this rank's send buffer in round `round`: cell_value shifted by the round.
std::vector<int> round_blocks(MPI_Comm comm, std::size_t count, int round) {
  std::vector<int> blocks = make_send_blocks(comm, count);
  for (int& value : blocks) value += round * 7919;
  return blocks;
}

class Persistent : public ErrorsReturnTest {};

// One alltoall handle per algorithm, started four times with new data: waited for, polled with
// MPI_Test, completed by MPI_Waitall beside a request of the program's own, waited for again.
TEST_F(Persistent, AlltoallStartedAgainWithNewData) {
  if (!persistent_forms_here(comm_)) GTEST_SKIP() << "no persistent forms under this MPI library";
  const std::size_t count = 600;
  const int c = static_cast<int>(count);
  for (const char* name : {"pairwise", "direct", "bruck", "native"}) {
    std::vector<int> send(count * std::size_t(size_of(comm_))), result(send.size()), reference(send.size());
    std::string chosen;
    CollectiveOptions options = named(name);
    options.chosen_algorithm = &chosen;
    MPI_Request handle = MPI_REQUEST_NULL;
    ASSERT_EQ(alltoall_init(send.data(), c, MPI_INT, result.data(), c, MPI_INT, comm_, MPI_INFO_NULL, &handle, options),
              MPI_SUCCESS)
        << name << ": " << topocoll_error_message();
    for (int round = 0; round < 4; ++round) {
      const std::vector<int> blocks = round_blocks(comm_, count, round);
      std::copy(blocks.begin(), blocks.end(), send.begin());  // into the buffer the handle was made with
      std::fill(result.begin(), result.end(), kCanary);
      MPI_Alltoall(send.data(), c, MPI_INT, reference.data(), c, MPI_INT, comm_);
      ASSERT_EQ(start(&handle), MPI_SUCCESS) << name << ": " << topocoll_error_message();
      if (round == 1) {
        int done = 0;
        while (done == 0) ASSERT_EQ(MPI_Test(&handle, &done, MPI_STATUS_IGNORE), MPI_SUCCESS);
      } else if (round == 2) {
        int token = rank_in(comm_), got = -1;
        MPI_Request mixed[2] = {handle, MPI_REQUEST_NULL};
        MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_SELF, &mixed[1]);
        MPI_Send(&token, 1, MPI_INT, 0, 99, MPI_COMM_SELF);
        ASSERT_EQ(MPI_Waitall(2, mixed, MPI_STATUSES_IGNORE), MPI_SUCCESS);
        EXPECT_EQ(mixed[0], handle) << "a persistent handle stays itself";
        EXPECT_EQ(got, token);
      } else {
        ASSERT_EQ(MPI_Wait(&handle, MPI_STATUS_IGNORE), MPI_SUCCESS) << name;
      }
      EXPECT_NE(handle, MPI_REQUEST_NULL);
      EXPECT_TRUE(same_elements(result, reference, count)) << name << " round " << round;
      EXPECT_EQ(chosen, name);
    }
    EXPECT_EQ(request_free(&handle), MPI_SUCCESS);
    EXPECT_EQ(handle, MPI_REQUEST_NULL);
  }
}

// MPI lets the program free a datatype once the init that uses it has returned: each start packs
// and unpacks with the types the handle held. Types made and freed in between take the freed
// handles' places.
TEST_F(Persistent, DatatypesFreedAfterTheInit) {
  if (!persistent_forms_here(comm_)) GTEST_SKIP() << "no persistent forms under this MPI library";
  const int count = 9, p = size_of(comm_);
  for (const char* name : {"pairwise", "bruck"}) {
    std::vector<int> send(std::size_t(2 * count * p)), result(send.size()), reference(send.size());
    MPI_Datatype send_type = every_other_int(count), recv_type = every_other_int(count);
    MPI_Request handle = MPI_REQUEST_NULL;
    ASSERT_EQ(alltoall_init(send.data(), 1, send_type, result.data(), 1, recv_type, comm_, MPI_INFO_NULL, &handle,
                            named(name)),
              MPI_SUCCESS)
        << name << ": " << topocoll_error_message();
    MPI_Type_free(&send_type);
    MPI_Type_free(&recv_type);
    for (int round = 0; round < 2; ++round) {
      churn_datatypes();
      std::iota(send.begin(), send.end(), rank_in(comm_) * 100000 + round * 7919);
      std::fill(result.begin(), result.end(), kCanary);
      MPI_Datatype type = every_other_int(count);
      std::fill(reference.begin(), reference.end(), kCanary);
      MPI_Alltoall(send.data(), 1, type, reference.data(), 1, type, comm_);
      MPI_Type_free(&type);
      ASSERT_EQ(start(&handle), MPI_SUCCESS) << name << ": " << topocoll_error_message();
      ASSERT_EQ(MPI_Wait(&handle, MPI_STATUS_IGNORE), MPI_SUCCESS) << name << ": " << topocoll_error_message();
      EXPECT_TRUE(result == reference) << name << " round " << round;
    }
    EXPECT_EQ(request_free(&handle), MPI_SUCCESS);
  }
}

// Every form, each its own handle, started by one startall beside the program's own persistent
// send and receive, completed by MPI_Waitall, twice with new data; against the library's calls.
TEST_F(Persistent, EveryFormMatchesTheLibrary) {
  if (!persistent_forms_here(comm_)) GTEST_SKIP() << "no persistent forms under this MPI library";
  const int rank = rank_in(comm_), p = size_of(comm_);
  const int root = p - 1, n = 5;
  std::vector<int> counts(p), displs(p);
  for (int q = 0; q < p; ++q) counts[q] = (q * 3) % 4;  // some empty
  for (int q = 1; q < p; ++q) displs[q] = displs[q - 1] + counts[q - 1] + 1;
  const int total = displs[p - 1] + counts[p - 1] + 1;
  const IrregularExchange x = irregular_exchange(rank, p);
  const std::size_t v_size = x.recv_size;
  const std::vector<MPI_Datatype> types(p, MPI_INT);
  std::vector<int> many(std::size_t(n) * p + total);
  std::vector<int> scattered(n), gathered(std::size_t(n) * p), scattered_v(counts[rank] + 1), gathered_v(total);
  std::vector<int> exchanged_v(v_size), exchanged_w(v_size);
  int token = rank, got = -1;
  MPI_Request handles[8];
  ASSERT_EQ(scatter_init(many.data(), n, MPI_INT, scattered.data(), n, MPI_INT, root, comm_, MPI_INFO_NULL, &handles[0],
                         named("binomial")),
            MPI_SUCCESS);
  ASSERT_EQ(gather_init(many.data(), n, MPI_INT, gathered.data(), n, MPI_INT, root, comm_, MPI_INFO_NULL, &handles[1],
                        named("linear")),
            MPI_SUCCESS);
  ASSERT_EQ(scatterv_init(many.data(), counts.data(), displs.data(), MPI_INT, scattered_v.data(), counts[rank], MPI_INT,
                          root, comm_, MPI_INFO_NULL, &handles[2], named("linear")),
            MPI_SUCCESS);
  ASSERT_EQ(gatherv_init(many.data(), counts[rank], MPI_INT, gathered_v.data(), counts.data(), displs.data(), MPI_INT,
                         root, comm_, MPI_INFO_NULL, &handles[3], named("binomial")),
            MPI_SUCCESS);
  ASSERT_EQ(alltoallv_init(many.data(), x.send_counts.data(), x.send_displs.data(), MPI_INT, exchanged_v.data(),
                           x.recv_counts.data(), x.recv_displs.data(), MPI_INT, comm_, MPI_INFO_NULL, &handles[4],
                           named("direct")),
            MPI_SUCCESS);
  ASSERT_EQ(alltoallw_init(many.data(), x.send_counts.data(), x.send_bytes.data(), types.data(), exchanged_w.data(),
                           x.recv_counts.data(), x.recv_bytes.data(), types.data(), comm_, MPI_INFO_NULL, &handles[5],
                           named("pairwise")),
            MPI_SUCCESS);
  MPI_Send_init(&token, 1, MPI_INT, (rank + 1) % p, 5, comm_, &handles[6]);
  MPI_Recv_init(&got, 1, MPI_INT, (rank + p - 1) % p, 5, comm_, &handles[7]);
  for (int round = 0; round < 2; ++round) {
    std::iota(many.begin(), many.end(), rank * 1000 + round * 100000);
    for (auto* v : {&scattered, &gathered, &scattered_v, &gathered_v, &exchanged_v, &exchanged_w}) {
      std::fill(v->begin(), v->end(), kCanary);
    }
    got = -1;
    ASSERT_EQ(startall(8, handles), MPI_SUCCESS) << topocoll_error_message();
    ASSERT_EQ(MPI_Waitall(8, handles, MPI_STATUSES_IGNORE), MPI_SUCCESS) << topocoll_error_message();
    EXPECT_EQ(got, (rank + p - 1) % p);
    std::vector<int> reference(n, kCanary);
    MPI_Scatter(many.data(), n, MPI_INT, reference.data(), n, MPI_INT, root, comm_);
    EXPECT_TRUE(scattered == reference) << "scatter_init, round " << round;
    reference.assign(gathered.size(), kCanary);
    MPI_Gather(many.data(), n, MPI_INT, reference.data(), n, MPI_INT, root, comm_);
    EXPECT_TRUE(gathered == reference) << "gather_init, round " << round;
    reference.assign(scattered_v.size(), kCanary);
    MPI_Scatterv(many.data(), counts.data(), displs.data(), MPI_INT, reference.data(), counts[rank], MPI_INT, root,
                 comm_);
    EXPECT_TRUE(scattered_v == reference) << "scatterv_init, round " << round;
    reference.assign(gathered_v.size(), kCanary);
    MPI_Gatherv(many.data(), counts[rank], MPI_INT, reference.data(), counts.data(), displs.data(), MPI_INT, root,
                comm_);
    EXPECT_TRUE(gathered_v == reference) << "gatherv_init, round " << round;
    reference.assign(v_size, kCanary);
    MPI_Alltoallv(many.data(), x.send_counts.data(), x.send_displs.data(), MPI_INT, reference.data(),
                  x.recv_counts.data(), x.recv_displs.data(), MPI_INT, comm_);
    EXPECT_TRUE(exchanged_v == reference) << "alltoallv_init, round " << round;
    EXPECT_TRUE(exchanged_w == reference) << "alltoallw_init, round " << round;
  }
  for (MPI_Request& handle : handles) {
    EXPECT_EQ(request_free(&handle), MPI_SUCCESS);
    EXPECT_EQ(handle, MPI_REQUEST_NULL);
  }
}

TEST_F(Persistent, CApi) {
  if (!persistent_forms_here(comm_)) GTEST_SKIP() << "no persistent forms under this MPI library";
  const std::size_t count = 9;
  const std::vector<int> send = make_send_blocks(comm_, count);
  std::vector<int> result(send.size(), kCanary);
  MPI_Request handle = MPI_REQUEST_NULL;
  ASSERT_EQ(topocoll_alltoall_init(send.data(), int(count), MPI_INT, result.data(), int(count), MPI_INT, comm_,
                                   MPI_INFO_NULL, &handle, "shift"),
            MPI_SUCCESS);
  for (int round = 0; round < 2; ++round) {
    std::fill(result.begin(), result.end(), kCanary);
    ASSERT_EQ(round == 0 ? topocoll_start(&handle) : topocoll_startall(1, &handle), MPI_SUCCESS);
    ASSERT_EQ(MPI_Wait(&handle, MPI_STATUS_IGNORE), MPI_SUCCESS);
    EXPECT_TRUE(same_elements(result, expected_receive_blocks(comm_, count), count));
  }
  EXPECT_EQ(topocoll_request_free(&handle), MPI_SUCCESS);
  EXPECT_EQ(handle, MPI_REQUEST_NULL);
}

// Freed while active: its run still completes (its peers are not left waiting; freeing the
// communicator completes what is outstanding on it), and its results arrive.
TEST_F(Persistent, FreedWhileActive) {
  if (!persistent_forms_here(comm_)) GTEST_SKIP() << "no persistent forms under this MPI library";
  const std::size_t count = 2000;
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(comm_, &comm);
  const std::vector<int> send = make_send_blocks(comm, count);
  std::vector<int> result(send.size(), kCanary);
  MPI_Request handle = MPI_REQUEST_NULL;
  ASSERT_EQ(alltoall_init(send.data(), int(count), MPI_INT, result.data(), int(count), MPI_INT, comm, MPI_INFO_NULL,
                          &handle, named("pairwise")),
            MPI_SUCCESS);
  ASSERT_EQ(start(&handle), MPI_SUCCESS);
  EXPECT_EQ(request_free(&handle), MPI_SUCCESS);
  EXPECT_EQ(handle, MPI_REQUEST_NULL);
  MPI_Comm_free(&comm);
  EXPECT_TRUE(same_elements(result, expected_receive_blocks(comm_, count), count));
}

// A start of a handle still active fails (MPI_ERR_REQUEST) and leaves the run on its way.
TEST_F(Persistent, StartOfAnActiveHandleFails) {
  if (!persistent_forms_here(comm_)) GTEST_SKIP() << "no persistent forms under this MPI library";
  const std::size_t count = 50;
  const std::vector<int> send = make_send_blocks(comm_, count);
  std::vector<int> result(send.size(), kCanary);
  MPI_Request handle = MPI_REQUEST_NULL;
  ASSERT_EQ(alltoall_init(send.data(), int(count), MPI_INT, result.data(), int(count), MPI_INT, comm_, MPI_INFO_NULL,
                          &handle, named("direct")),
            MPI_SUCCESS);
  ASSERT_EQ(start(&handle), MPI_SUCCESS);
  int error_class = MPI_SUCCESS;
  MPI_Error_class(start(&handle), &error_class);
  EXPECT_EQ(error_class, MPI_ERR_REQUEST);
  EXPECT_NE(std::string(topocoll_error_message()).find("alltoall_init: a start of a request still active"),
            std::string::npos)
      << topocoll_error_message();
  ASSERT_EQ(MPI_Wait(&handle, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_TRUE(same_elements(result, expected_receive_blocks(comm_, count), count));
  EXPECT_EQ(request_free(&handle), MPI_SUCCESS);
}

// Each start goes the nonblocking call's way: one whose algorithm does not apply is handed to
// the library's nonblocking call where inapplicable_reason is set (the reason written at the
// start), and fails otherwise: the start reports it and the handle completes, so that a wait
// returns.
TEST_F(Persistent, StartsHandedOnOrFailed) {
  if (!persistent_forms_here(comm_)) GTEST_SKIP() << "no persistent forms under this MPI library";
  const std::size_t count = 20;
  const std::vector<int> send = make_send_blocks(comm_, count);
  std::vector<int> result(send.size(), kCanary);
  std::string reason, chosen;
  CollectiveOptions options = named("lg");  // needs two clusters; the machine has one node level
  options.topology = "flat:" + std::to_string(size_of(comm_));
  options.inapplicable_reason = &reason;
  options.chosen_algorithm = &chosen;
  MPI_Request handle = MPI_REQUEST_NULL;
  ASSERT_EQ(alltoall_init(send.data(), int(count), MPI_INT, result.data(), int(count), MPI_INT, comm_, MPI_INFO_NULL,
                          &handle, options),
            MPI_SUCCESS);
  ASSERT_EQ(start(&handle), MPI_SUCCESS) << topocoll_error_message();
  ASSERT_EQ(MPI_Wait(&handle, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_TRUE(same_elements(result, expected_receive_blocks(comm_, count), count));
  EXPECT_NE(reason.find("does not apply"), std::string::npos) << reason;
  EXPECT_EQ(chosen, "native");
  EXPECT_EQ(request_free(&handle), MPI_SUCCESS);

  options.inapplicable_reason = nullptr;
  ASSERT_EQ(alltoall_init(send.data(), int(count), MPI_INT, result.data(), int(count), MPI_INT, comm_, MPI_INFO_NULL,
                          &handle, options),
            MPI_SUCCESS);
  int error_class = MPI_SUCCESS;
  MPI_Error_class(start(&handle), &error_class);
  EXPECT_EQ(error_class, MPI_ERR_ARG);
  EXPECT_NE(std::string(topocoll_error_message()).find("does not apply"), std::string::npos)
      << topocoll_error_message();
  // The wait returns; MPI_ERR_TRUNCATE where the library reports a truncated message a process
  // sent itself (MPICH), MPI_SUCCESS under Open MPI 4.1, which does not.
  MPI_Error_class(MPI_Wait(&handle, MPI_STATUS_IGNORE), &error_class);
  EXPECT_TRUE(error_class == MPI_ERR_TRUNCATE || error_class == MPI_SUCCESS) << error_class;
  EXPECT_NE(handle, MPI_REQUEST_NULL);
  EXPECT_EQ(request_free(&handle), MPI_SUCCESS);
}

int world_errors_raised = 0, last_world_error = MPI_SUCCESS;
void record_world_error(MPI_Comm*, int* code, ...) {
  ++world_errors_raised;
  last_world_error = *code;
}

// One rank's arguments are bad: its start fails (and takes part hollow, so that no peer waits
// for it); its peers' runs fail on their way, raised as a nonblocking call's failure is: on
// MPI_COMM_WORLD's error handler (Open MPI: a generalized request belongs to no communicator);
// their handles complete, so that a wait returns.
TEST_F(Persistent, OneBadRankFailsItsPeersRunsOnTheirWay) {
  if (!persistent_forms_here(comm_)) GTEST_SKIP() << "no persistent forms under this MPI library";
  const int rank = rank_in(comm_), p = size_of(comm_);
  if (p < 2) GTEST_SKIP() << "needs a peer";
  MPI_Errhandler previous = MPI_ERRHANDLER_NULL, recorder = MPI_ERRHANDLER_NULL;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &previous);
  MPI_Comm_create_errhandler(record_world_error, &recorder);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, recorder);
  world_errors_raised = 0;
  const std::size_t count = 16;
  const std::vector<int> send = make_send_blocks(comm_, count);
  std::vector<int> result(send.size(), kCanary);
  const int mine = rank == 0 ? -1 : int(count);
  MPI_Request handle = MPI_REQUEST_NULL;
  ASSERT_EQ(alltoall_init(send.data(), mine, MPI_INT, result.data(), mine, MPI_INT, comm_, MPI_INFO_NULL, &handle,
                          named("pairwise")),
            MPI_SUCCESS);
  const int started = start(&handle);
  if (rank == 0) {
    int error_class = MPI_SUCCESS;
    MPI_Error_class(started, &error_class);
    EXPECT_EQ(error_class, MPI_ERR_COUNT);
  } else {
    EXPECT_EQ(started, MPI_SUCCESS) << topocoll_error_message();
  }
  MPI_Wait(&handle, MPI_STATUS_IGNORE);  // returns, whatever it reports
  if (rank != 0) {
    EXPECT_GE(world_errors_raised, 1);
    int error_class = MPI_SUCCESS;
    MPI_Error_class(last_world_error, &error_class);
    EXPECT_EQ(error_class, MPI_ERR_COUNT);
    EXPECT_NE(std::string(topocoll_error_message()).find("ialltoall (pairwise)"), std::string::npos)
        << topocoll_error_message();
  }
  EXPECT_EQ(request_free(&handle), MPI_SUCCESS);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, previous);
  MPI_Errhandler_free(&previous);
  MPI_Errhandler_free(&recorder);
  expect_matches_mpi_alltoall(comm_, count, named("pairwise"));  // a later call is right
}

// Without a progress engine topocoll can hook (MPICH), a caller who accepts the library's answer
// gets the MPI library's own persistent call (MPI-4), which topocoll's start and free pass on.
TEST_F(Persistent, HandedToTheLibraryWithoutAProgressEngine) {
  if (persistent_forms_here(comm_)) GTEST_SKIP() << "this MPI library has a progress engine topocoll hooks";
  const std::size_t count = 40;
  const std::vector<int> send = make_send_blocks(comm_, count);
  std::vector<int> result(send.size(), kCanary);
  std::string reason;
  CollectiveOptions options = named("pairwise");
  options.inapplicable_reason = &reason;
  MPI_Request handle = MPI_REQUEST_NULL;
  const int rc = alltoall_init(send.data(), int(count), MPI_INT, result.data(), int(count), MPI_INT, comm_,
                               MPI_INFO_NULL, &handle, options);
#if MPI_VERSION >= 4
  ASSERT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
  EXPECT_NE(reason.find("progress engine"), std::string::npos) << reason;
  for (int round = 0; round < 2; ++round) {
    std::fill(result.begin(), result.end(), kCanary);
    ASSERT_EQ(start(&handle), MPI_SUCCESS);
    ASSERT_EQ(MPI_Wait(&handle, MPI_STATUS_IGNORE), MPI_SUCCESS);
    EXPECT_TRUE(same_elements(result, expected_receive_blocks(comm_, count), count));
  }
  EXPECT_EQ(request_free(&handle), MPI_SUCCESS);
  EXPECT_EQ(handle, MPI_REQUEST_NULL);
#else
  int error_class = MPI_SUCCESS;
  MPI_Error_class(rc, &error_class);
  EXPECT_EQ(error_class, MPI_ERR_UNSUPPORTED_OPERATION);
  EXPECT_NE(std::string(topocoll_error_message()).find("no persistent form"), std::string::npos)
      << topocoll_error_message();
#endif
}

TEST_F(Persistent, BadInitArguments) {
  int buffer[4] = {0, 0, 0, 0};
  int error_class = MPI_SUCCESS;
  MPI_Error_class(alltoall_init(buffer, 0, MPI_INT, buffer, 0, MPI_INT, comm_, MPI_INFO_NULL, nullptr), &error_class);
  EXPECT_EQ(error_class, MPI_ERR_REQUEST);
  EXPECT_NE(std::string(topocoll_error_message()).find("alltoall_init: request is null"), std::string::npos)
      << topocoll_error_message();
  MPI_Request handle = MPI_REQUEST_NULL;
  MPI_Errhandler previous = MPI_ERRHANDLER_NULL;  // a null communicator's errors go to the world's
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &previous);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Error_class(scatter_init(buffer, 1, MPI_INT, buffer, 1, MPI_INT, 0, MPI_COMM_NULL, MPI_INFO_NULL, &handle),
                  &error_class);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, previous);
  MPI_Errhandler_free(&previous);
  EXPECT_EQ(error_class, MPI_ERR_COMM);
  EXPECT_EQ(handle, MPI_REQUEST_NULL);
  EXPECT_NE(std::string(topocoll_error_message()).find("MPI_COMM_NULL"), std::string::npos)
      << topocoll_error_message();
}

}  // namespace
}  // namespace topocoll::testing
