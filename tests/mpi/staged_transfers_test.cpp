// bruck's messages mix buffers (blocks read from the send buffer beside blocks forwarded through
// scratch). Small ones go through the executor's staging area, copied in and out, with no
// per-call datatype; larger ones keep the hindexed datatype (execution_plan.hpp,
// kMostPackedBytes). Counted through the profiling interface; the results stay MPI's, blocking
// and nonblocking, with and without a bound on the requests in flight.
#include <string>
#include <vector>

#include "mpi_call_counters.hpp"
#include "mpi_test_support.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {
namespace {

using StagedTransfers = MpiTest;

// bruck with `count` ints per block, the way `how` says; returns the hindexed datatypes made
// (a plan's first call also makes the ones the plan keeps, for transfers within one buffer).
long run_bruck(std::size_t count, const std::string& how) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int n = static_cast<int>(count);
  std::vector<int> send = make_send_blocks(comm, count);
  std::vector<int> result(send.size(), kCanary);
  AlltoallOptions options;
  options.algorithm = "bruck";
  if (how == "bounded") options.max_requests = 2;
  long made = 0;
  {
    const CountingScope counting;
    if (how == "nonblocking") {
      MPI_Request request = MPI_REQUEST_NULL;
      EXPECT_EQ(ialltoall(send.data(), n, MPI_INT, result.data(), n, MPI_INT, comm, &request, options), MPI_SUCCESS)
          << topocoll_error_message();
      EXPECT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
    } else {
      EXPECT_EQ(alltoall(send.data(), n, MPI_INT, result.data(), n, MPI_INT, comm, options), MPI_SUCCESS)
          << topocoll_error_message();
    }
    made = counting.counts().hindexed_types;
  }
  EXPECT_TRUE(same_elements(result, expected_receive_blocks(comm, count), count)) << how << ", count " << count;
  return made;
}

TEST_F(StagedTransfers, BruckSmallBlocksNeedNoDatatype) {
  for (const std::string how : {"blocking", "nonblocking", "bounded"}) {
    for (const std::size_t count : {1, 3, 17}) {
      run_bruck(count, how);  // makes the plan
      EXPECT_EQ(run_bruck(count, how), 0) << how << ", count " << count << ": from the cached plan";
    }
  }
}

TEST_F(StagedTransfers, BruckLargeBlocksKeepTheirDatatypes) {
  // 1000 ints are 4000 bytes a block, past kMostPackedBytes; from 4 ranks on a message of
  // round 1 forwards a block received in round 0 beside one from the send buffer.
  const int p = size_of(MPI_COMM_WORLD);
  for (const std::string how : {"blocking", "nonblocking"}) {
    run_bruck(1000, how);  // makes the plan
    const long made = run_bruck(1000, how);
    if (p >= 4) {
      EXPECT_GT(made, 0) << how;
    } else {
      EXPECT_EQ(made, 0) << how;
    }
  }
}

}  // namespace
}  // namespace topocoll::testing
