// Calls whose ranks disagree (an erroneous program, but one MPI's own test suites write): rank 0
// passes blocks of 4 ints, every other rank blocks of 3. Under every algorithm no rank hangs,
// rank 0 (which receives short messages) and the ranks that receive its longer ones return an
// error naming the peer and the sizes, and the correct calls that follow on the same
// communicator are right on every rank: no message of the bad call is taken by a later one.
#include <optional>
#include <string>
#include <vector>

#include "mpi_test_support.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {
namespace {

constexpr int kOddCount = 4;    // rank 0's block
constexpr int kRightCount = 3;  // everyone else's

class Disagreement : public ErrorsReturnTest {};

class DisagreementUnderEveryAlgorithm : public Disagreement, public ::testing::WithParamInterface<std::string> {};

std::string two_clusters_of(int p) { return "clusters:" + std::to_string(p / 2) + "," + std::to_string(p - p / 2); }

// Whether `algorithm` runs on the topology options_for gives it (mlfm, which needs a
// multi-layer full mesh's box, does not run on two clusters).
bool runs_on_two_clusters(const Algorithm& entry, int p) {
  if (!entry.needs_topology) return true;
  const std::optional<Topology> clusters = Topology::parse(two_clusters_of(p), nullptr);
  return clusters && entry.supports(Problem{p, 0, &*clusters, AlgorithmKnobs{}}).ok;
}

AlltoallOptions options_for(const std::string& algorithm, int p, int max_requests = 0) {
  const Algorithm& entry = *find_algorithm(Operation::alltoallv, algorithm);  // alltoall's and liu
  const std::string two_clusters = two_clusters_of(p);
  AlltoallOptions options = algorithm_on(algorithm, entry.needs_topology ? two_clusters : "");
  options.max_requests = max_requests;
  return options;
}

// The bad call's outcome on this rank: rank 0 must fail; any failure must be the disagreement
// (MPI_ERR_COUNT for a short message, MPI_ERR_TRUNCATE for a long one) with a message that names
// it. Returns whether this rank failed.
bool expect_disagreement_reported(int rc, int rank, const std::string& what) {
  if (rank == 0) {
    EXPECT_NE(rc, MPI_SUCCESS) << what << ": rank 0 received short messages and said nothing";
  }
  if (rc == MPI_SUCCESS) return false;
  int error_class = MPI_SUCCESS;
  MPI_Error_class(rc, &error_class);
  EXPECT_TRUE(error_class == MPI_ERR_COUNT || error_class == MPI_ERR_TRUNCATE) << what << ": class " << error_class;
  const std::string message = topocoll_error_message();
  EXPECT_NE(message.find("the ranks disagree on the data they exchange"), std::string::npos) << what << ": " << message;
  EXPECT_NE(message.find("rank "), std::string::npos) << what << ": the peer is not named: " << message;
  if (rank == 0) {
    EXPECT_NE(message.find("where this rank expects"), std::string::npos) << what << ": " << message;
  }
  return true;
}

// After the bad call: correct calls of two sizes, each checked against MPI_Alltoall.
void expect_later_calls_right(MPI_Comm comm, const AlltoallOptions& options) {
  expect_matches_mpi_alltoall(comm, kRightCount, options);
  expect_matches_mpi_alltoall(comm, 1000, options);
}

TEST_P(DisagreementUnderEveryAlgorithm, AlltoallFailsCleanlyAndLaterCallsAreRight) {
  const int p = size_of(comm_), rank = rank_in(comm_);
  const Algorithm& entry = *find_algorithm(Operation::alltoall, GetParam());
  if (p < 2 || !entry.has_schedule() || !runs_on_two_clusters(entry, p)) GTEST_SKIP();
  for (const int max_requests : {0, 2}) {
    const AlltoallOptions options = options_for(GetParam(), p, max_requests);
    const int count = rank == 0 ? kOddCount : kRightCount;
    std::vector<int> send = make_send_blocks(comm_, kOddCount);
    std::vector<int> recv(send.size(), kCanary);
    const int rc = alltoall(send.data(), count, MPI_INT, recv.data(), count, MPI_INT, comm_, options);
    const int failed_here = expect_disagreement_reported(rc, rank, GetParam()) ? 1 : 0;
    int failed_ranks = 0;
    MPI_Allreduce(&failed_here, &failed_ranks, 1, MPI_INT, MPI_SUM, comm_);
    EXPECT_GE(failed_ranks, 2) << GetParam() << ": rank 0's longer messages went unnoticed";
    expect_later_calls_right(comm_, options);
  }
}

// Rank 0 has blocks of 4 ints, every other rank none: the ranks with nothing to move still meet
// rank 0 (instead of returning at once and leaving it waiting), so the call ends everywhere.
TEST_P(DisagreementUnderEveryAlgorithm, ZeroCountsElsewhereStillMeetRankZero) {
  const int p = size_of(comm_), rank = rank_in(comm_);
  const Algorithm& entry = *find_algorithm(Operation::alltoall, GetParam());
  if (p < 2 || !entry.has_schedule() || !runs_on_two_clusters(entry, p)) GTEST_SKIP();
  const AlltoallOptions options = options_for(GetParam(), p);
  const int count = rank == 0 ? kOddCount : 0;
  std::vector<int> send = make_send_blocks(comm_, kOddCount);
  std::vector<int> recv(send.size(), kCanary);
  const int rc = alltoall(send.data(), count, MPI_INT, recv.data(), count, MPI_INT, comm_, options);
  const int failed_here = expect_disagreement_reported(rc, rank, GetParam()) ? 1 : 0;
  int failed_ranks = 0;
  MPI_Allreduce(&failed_here, &failed_ranks, 1, MPI_INT, MPI_SUM, comm_);
  // Rank 0 must fail (expect_disagreement_reported); which others do depends on whom the
  // algorithm has them meet (a forwarding rank between two empty peers sees nothing amiss).
  EXPECT_GE(failed_ranks, 2) << GetParam() << ": rank 0's messages went unnoticed";
  expect_later_calls_right(comm_, options);
}

// Alltoallv, every rank sending `count` ints to each peer and expecting `count` from each.
int uniform_alltoallv(MPI_Comm comm, int count, const std::vector<int>& send, std::vector<int>& recv,
                      const AlltoallOptions& options) {
  const int p = size_of(comm);
  std::vector<int> counts(static_cast<std::size_t>(p), count), displs(static_cast<std::size_t>(p));
  for (int q = 0; q < p; ++q) displs[static_cast<std::size_t>(q)] = q * count;
  return alltoallv(send.data(), counts.data(), displs.data(), MPI_INT, recv.data(), counts.data(), displs.data(),
                   MPI_INT, comm, options);
}

TEST_F(Disagreement, AlltoallvFailsCleanlyAndLaterCallsAreRight) {
  const int p = size_of(comm_), rank = rank_in(comm_);
  if (p < 2) GTEST_SKIP();
  for (const char* name : {"direct", "shift", "pairwise", "group-shuffle", "lg", "overlap", "liu"}) {
    const AlltoallOptions options = options_for(name, p);
    std::vector<int> send = make_send_blocks(comm_, kOddCount);
    std::vector<int> recv(send.size(), kCanary);
    const int rc = uniform_alltoallv(comm_, rank == 0 ? kOddCount : kRightCount, send, recv, options);
    expect_disagreement_reported(rc, rank, name);
    std::vector<int> right = make_send_blocks(comm_, kRightCount);
    std::vector<int> result(right.size(), kCanary);
    EXPECT_EQ(uniform_alltoallv(comm_, kRightCount, right, result, options), MPI_SUCCESS) << topocoll_error_message();
    EXPECT_TRUE(same_elements(result, expected_receive_blocks(comm_, kRightCount), kRightCount)) << name;
    // Later alltoall calls too (liu has no alltoall: pairwise's then).
    expect_later_calls_right(comm_, find_algorithm(Operation::alltoall, name) ? options : options_for("pairwise", p));
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, DisagreementUnderEveryAlgorithm, ::testing::ValuesIn(registry_algorithm_names()),
                         test_name_of);

}  // namespace
}  // namespace topocoll::testing
