// A rank whose round is one send and nothing else sends it with a blocking MPI_Send (the
// executor's lone send), counted through the profiling interface: in a gather every rank but
// the root sends its part up once, alone in its round; in a binomial scatter an inner rank
// passes each child its part, one child a round. The results stay MPI's.
#include <algorithm>
#include <string>
#include <vector>

#include "mpi_call_counters.hpp"
#include "mpi_test_support.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {
namespace {

using LoneSend = MpiTest;

// Children of `rank` in the binomial tree rooted at 0: rank + 2^k for each 2^k below rank's
// lowest set bit (every power of two for the root) that stays inside p.
int binomial_children(int rank, int p) {
  int children = 0;
  for (int mask = 1; mask < p; mask <<= 1) {
    if (rank & mask) break;
    if (rank + mask < p) ++children;
  }
  return children;
}

TEST_F(LoneSend, GatherSendsEachRanksPartWithOneBlockingSend) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int p = size_of(comm), rank = rank_in(comm);
  const int count = 1000;
  for (const std::string algorithm : {"linear", "binomial"}) {
    CollectiveOptions options;
    options.algorithm = algorithm;
    std::vector<int> mine(count, rank), all(rank == 0 ? static_cast<std::size_t>(count) * p : 0, kCanary);
    long blocking = 0;
    {
      const CountingScope counting;
      const int rc = gather(mine.data(), count, MPI_INT, all.data(), count, MPI_INT, 0, comm, options);
      EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
      blocking = counting.counts().blocking_sends;
    }
    EXPECT_EQ(blocking, rank == 0 ? 0 : 1) << algorithm << " at rank " << rank;
    for (int q = 0; rank == 0 && q < p; ++q) {
      EXPECT_EQ(all[static_cast<std::size_t>(q) * count], q) << algorithm << ": block " << q;
      EXPECT_EQ(all[static_cast<std::size_t>(q + 1) * count - 1], q) << algorithm << ": block " << q;
    }
  }
}

TEST_F(LoneSend, BinomialScatterSendsEachChildItsPartAlone) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int p = size_of(comm), rank = rank_in(comm);
  const int count = 1000;
  CollectiveOptions options;
  options.algorithm = "binomial";
  std::vector<int> all;
  for (int q = 0; rank == 0 && q < p; ++q) all.insert(all.end(), count, q);
  std::vector<int> mine(count, kCanary);
  long blocking = 0;
  {
    const CountingScope counting;
    const int rc = scatter(all.data(), count, MPI_INT, mine.data(), count, MPI_INT, 0, comm, options);
    EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
    blocking = counting.counts().blocking_sends;
  }
  // The root sends one child a round too: its own block's copy runs after its posts only in the
  // first round, which it shares with the first child's send.
  const int children = binomial_children(rank, p);
  EXPECT_EQ(blocking, rank == 0 ? std::max(children - 1, 0) : children) << "rank " << rank;
  EXPECT_EQ(mine.front(), rank);
  EXPECT_EQ(mine.back(), rank);
}

}  // namespace
}  // namespace topocoll::testing
