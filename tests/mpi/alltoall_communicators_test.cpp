// Communicators, for every algorithm: a sub-communicator (even and odd ranks, freed after
// use so the cached state's delete callback runs), and the user's own point-to-point
// traffic in flight on the same communicator across the collective, received with
// MPI_ANY_SOURCE and MPI_ANY_TAG so that any library message leaking onto the user's
// communicator would be caught.
#include <array>

#include "mpi_test_support.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {
namespace {

AlltoallOptions options_for(const std::string& algorithm) {
  AlltoallOptions options;
  options.algorithm = algorithm;
  return options;
}

// Runs `algorithm` on `comm` with `count` ints per block, checks against MPI_Alltoall.
void expect_correct_on(MPI_Comm comm, const Algorithm& algorithm, int count) {
  const int p = size_of(comm);
  if (!applies(algorithm, p, static_cast<std::size_t>(count) * sizeof(int))) return;
  std::vector<int> send = make_send_blocks(comm, static_cast<std::size_t>(count));
  std::vector<int> reference(send.size(), kCanary);
  std::vector<int> result(send.size(), kCanary);
  MPI_Alltoall(send.data(), count, MPI_INT, reference.data(), count, MPI_INT, comm);
  const int rc = alltoall(send.data(), count, MPI_INT, result.data(), count, MPI_INT, comm,
                          options_for(std::string(algorithm.name)));
  EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
  EXPECT_TRUE(same_elements(result, reference, static_cast<std::size_t>(count))) << "p = " << p;
}

TEST_P(EveryAlgorithm, EvenAndOddSubCommunicators) {
  const int world_rank = rank_in(MPI_COMM_WORLD);
  MPI_Comm half = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &half);
  for (const int count : {1, 1000}) expect_correct_on(half, algorithm(), count);
  MPI_Comm_free(&half);
  // And once more on the whole world after the sub-communicator's state is gone.
  expect_correct_on(MPI_COMM_WORLD, algorithm(), 2);
}

TEST_P(EveryAlgorithm, DuplicatedCommunicatorHasItsOwnState) {
  MPI_Comm first = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &first);
  expect_correct_on(first, algorithm(), 10);
  MPI_Comm second = MPI_COMM_NULL;
  MPI_Comm_dup(first, &second);  // attributes are not copied: fresh state
  expect_correct_on(second, algorithm(), 10);
  MPI_Comm_free(&first);
  expect_correct_on(second, algorithm(), 10);
  MPI_Comm_free(&second);
}

TEST_P(EveryAlgorithm, UserTrafficInFlightIsNotMatched) {
  const int p = size_of(MPI_COMM_WORLD);
  const int rank = rank_in(MPI_COMM_WORLD);
  const int count = 1000;
  if (!applies(algorithm(), p, count * sizeof(int))) GTEST_SKIP();
  const int next = (rank + 1) % p;
  const int previous = (rank - 1 + p) % p;
  const std::array<int, 3> outgoing{rank, next, 4242};
  std::array<int, 3> incoming{kCanary, kCanary, kCanary};
  MPI_Request user_requests[2];
  MPI_Irecv(incoming.data(), 3, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &user_requests[0]);
  MPI_Isend(outgoing.data(), 3, MPI_INT, next, 0, MPI_COMM_WORLD, &user_requests[1]);

  std::vector<int> send = make_send_blocks(MPI_COMM_WORLD, count);
  std::vector<int> result(send.size(), kCanary);
  const int rc = alltoall(send.data(), count, MPI_INT, result.data(), count, MPI_INT, MPI_COMM_WORLD,
                          options_for(GetParam()));
  EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();

  MPI_Status statuses[2];
  MPI_Waitall(2, user_requests, statuses);
  int received = 0;
  MPI_Get_count(&statuses[0], MPI_INT, &received);
  EXPECT_EQ(received, 3);
  EXPECT_EQ(statuses[0].MPI_SOURCE, previous);
  EXPECT_EQ(statuses[0].MPI_TAG, 0);
  EXPECT_EQ(incoming, (std::array<int, 3>{previous, rank, 4242}));
  EXPECT_TRUE(same_elements(result, expected_receive_blocks(MPI_COMM_WORLD, count), count));
}

}  // namespace
}  // namespace topocoll::testing
