// AlltoallOptions::max_requests: the executor never has more than max(max_requests, 2)
// point-to-point requests in flight (counted through the profiling interface), those overlap
// keeps in flight across rounds included, posts each message exactly once, and stays correct,
// including with 400 KB blocks that need the receiver (rendezvous) and with every algorithm.
#include <algorithm>

#include "mpi_call_counters.hpp"
#include "mpi_test_support.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {
namespace {

struct BoundedRun {
  long posted = 0;
  long max_in_flight = 0;
};

BoundedRun run_bounded(const std::string& algorithm, int max_requests, int count, const std::string& topology = "",
                       int stripes = 0) {
  AlltoallOptions options;
  options.algorithm = algorithm;
  options.max_requests = max_requests;
  options.topology = topology;
  options.overlap.stripes = stripes;
  std::vector<int> send = make_send_blocks(MPI_COMM_WORLD, static_cast<std::size_t>(count));
  std::vector<int> result(send.size(), kCanary);
  BoundedRun run;
  {
    const CountingScope counting;
    const int rc = alltoall(send.data(), count, MPI_INT, result.data(), count, MPI_INT, MPI_COMM_WORLD, options);
    EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
    run.posted = counting.counts().posted;
    run.max_in_flight = counting.counts().max_in_flight;
  }
  EXPECT_TRUE(same_elements(result, expected_receive_blocks(MPI_COMM_WORLD, static_cast<std::size_t>(count)),
                            static_cast<std::size_t>(count)))
      << algorithm << ", max_requests " << max_requests << ", count " << count;
  return run;
}

using RequestBound = MpiTest;

TEST_F(RequestBound, DirectStaysWithinTheBound) {
  const int p = size_of(MPI_COMM_WORLD);
  const long messages = 2L * (p - 1);
  for (const int max_requests : {1, 2, 3, 5}) {
    for (const int count : {10, 100000}) {
      const BoundedRun run = run_bounded("direct", max_requests, count);
      EXPECT_EQ(run.posted, messages);
      EXPECT_LE(run.max_in_flight, std::max(max_requests, 2)) << "max_requests " << max_requests;
    }
  }
}

TEST_F(RequestBound, UnboundedDirectPostsTheWholeRound) {
  const int p = size_of(MPI_COMM_WORLD);
  const BoundedRun run = run_bounded("direct", 0, 10);
  EXPECT_EQ(run.posted, 2L * (p - 1));
  EXPECT_EQ(run.max_in_flight, 2L * (p - 1));
}

// overlap keeps its messages across groups in flight over several rounds: under a bound they
// count too (and complete in their own round), in rendezvous sizes as well, with stripes.
TEST_F(RequestBound, OverlapStaysWithinTheBound) {
  const int p = size_of(MPI_COMM_WORLD);
  // One rank against the rest: p - 2 rounds inside the large group, the messages across in
  // flight over all of them (two rounds at least).
  if (p < 4) GTEST_SKIP() << "overlap keeps messages in flight across rounds from 4 ranks on";
  const std::string topology = "clusters:1," + std::to_string(p - 1);
  for (const int max_requests : {1, 2, 3, 5}) {
    for (const int count : {10, 100000}) {
      for (const int stripes : {1, 3}) {
        const BoundedRun run = run_bounded("overlap", max_requests, count, topology, stripes);
        EXPECT_LE(run.max_in_flight, std::max(max_requests, 2))
            << "max_requests " << max_requests << ", count " << count << ", stripes " << stripes;
      }
    }
  }
  // Unbounded, rank 0's messages across are all in flight at once.
  const BoundedRun unbounded = run_bounded("overlap", 0, 10, topology);
  if (rank_in(MPI_COMM_WORLD) == 0) {
    EXPECT_GE(unbounded.max_in_flight, 2L * (p - 1));
  }
}

TEST_P(EveryAlgorithm, CorrectUnderATightBound) {
  const int p = size_of(MPI_COMM_WORLD);
  const int count = 1000;
  if (!applies(algorithm(), p, count * sizeof(int))) GTEST_SKIP();
  for (const int max_requests : {1, 3}) {
    const BoundedRun run = run_bounded(GetParam(), max_requests, count);
    if (algorithm().has_schedule()) {
      EXPECT_LE(run.max_in_flight, std::max(max_requests, 2));
    }
  }
}

}  // namespace
}  // namespace topocoll::testing
