// Scatter and gather calls whose ranks disagree on the count (an erroneous program): the root
// against every other rank, zero counts included (a rank with nothing to move still meets its
// peers, so the one that has something does not wait forever). Under every rooted algorithm no
// rank hangs, some rank reports the disagreement, and the correct calls that follow on the same
// communicator are right on every rank. The v forms too, one rank against the root's array.
#include <string>
#include <utility>
#include <vector>

#include "mpi_test_support.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {
namespace {

constexpr int kRoot = 0;
constexpr int kRightCount = 3;

std::vector<std::string> rooted_names() {
  std::vector<std::string> names;
  for (const Algorithm& a : algorithms_for(Operation::scatter)) {
    if (a.has_schedule()) names.emplace_back(a.name);  // not native: the MPI library's behaviour
  }
  return names;
}

class RootedDisagreement : public ErrorsReturnTest, public ::testing::WithParamInterface<std::string> {
 protected:
  CollectiveOptions options() const {
    const int p = size_of(comm_);
    return algorithm_on(GetParam(), GetParam() == "topo" ? "clusters:" + std::to_string(p - p / 2) + "," +
                                                               std::to_string(p / 2)
                                                         : "");
  }
};

// Any failure must name the disagreement; returns whether this rank failed.
bool failed_with_disagreement(int rc, const std::string& what) {
  if (rc == MPI_SUCCESS) return false;
  int error_class = MPI_SUCCESS;
  MPI_Error_class(rc, &error_class);
  EXPECT_TRUE(error_class == MPI_ERR_COUNT || error_class == MPI_ERR_TRUNCATE) << what << ": class " << error_class;
  const std::string message = topocoll_error_message();
  EXPECT_NE(message.find("the ranks disagree on the data they exchange"), std::string::npos) << what << ": " << message;
  return true;
}

// A scatter then a gather of kRightCount ints from the root, each against the MPI library's.
void expect_right_calls(MPI_Comm comm, const CollectiveOptions& options, const std::string& what) {
  const int p = size_of(comm), rank = rank_in(comm);
  std::vector<int> all(static_cast<std::size_t>(p * kRightCount));
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = cell_value(kRoot, static_cast<int>(i), i);
  std::vector<int> mine(kRightCount, kCanary), reference(kRightCount, kCanary);
  EXPECT_EQ(scatter(all.data(), kRightCount, MPI_INT, mine.data(), kRightCount, MPI_INT, kRoot, comm, options),
            MPI_SUCCESS)
      << what << ": " << topocoll_error_message();
  MPI_Scatter(all.data(), kRightCount, MPI_INT, reference.data(), kRightCount, MPI_INT, kRoot, comm);
  EXPECT_TRUE(same_elements(mine, reference, kRightCount)) << what << ": the scatter after";
  std::vector<int> gathered(all.size(), kCanary);
  EXPECT_EQ(gather(mine.data(), kRightCount, MPI_INT, gathered.data(), kRightCount, MPI_INT, kRoot, comm, options),
            MPI_SUCCESS)
      << what << ": " << topocoll_error_message();
  if (rank == kRoot) {
    EXPECT_TRUE(same_elements(gathered, all, kRightCount)) << what << ": the gather after";
  }
}

TEST_P(RootedDisagreement, FailsCleanlyAndLaterCallsAreRight) {
  const int p = size_of(comm_), rank = rank_in(comm_);
  if (p < 2) GTEST_SKIP();
  // The root's count, then everyone else's.
  for (const auto& [at_root, elsewhere] : {std::pair{4, 0}, std::pair{0, kRightCount}, std::pair{4, kRightCount}}) {
    for (const bool is_scatter : {true, false}) {
      const std::string what = GetParam() + (is_scatter ? " scatter" : " gather") + ", root count " +
                               std::to_string(at_root) + ", others " + std::to_string(elsewhere);
      const int count = rank == kRoot ? at_root : elsewhere;
      std::vector<int> root_side(static_cast<std::size_t>(p * 4), 7), mine(4, 7);
      const int rc = is_scatter ? scatter(root_side.data(), count, MPI_INT, mine.data(), count, MPI_INT, kRoot, comm_,
                                          options())
                                : gather(mine.data(), count, MPI_INT, root_side.data(), count, MPI_INT, kRoot, comm_,
                                         options());
      const int failed_here = failed_with_disagreement(rc, what) ? 1 : 0;
      int failed_ranks = 0;
      MPI_Allreduce(&failed_here, &failed_ranks, 1, MPI_INT, MPI_SUM, comm_);
      EXPECT_GE(failed_ranks, 1) << what << ": nobody noticed";
      expect_right_calls(comm_, options(), what);
    }
  }
}

// The v forms: the last rank's count is 0 (or 4) where the root's array says kRightCount for
// it; every other rank agrees with the root. The trees once left the empty message out and the
// rank's parent waited for it forever.
TEST_P(RootedDisagreement, VariableFormsWithOneRankOffFailCleanly) {
  const int p = size_of(comm_), rank = rank_in(comm_);
  if (p < 2) GTEST_SKIP();
  const int off = p - 1;
  std::vector<int> counts(static_cast<std::size_t>(p), kRightCount), displs;
  for (int q = 0; q < p; ++q) displs.push_back(q * 4);
  for (const int off_count : {0, 4}) {
    for (const bool is_scatter : {true, false}) {
      const std::string what = GetParam() + (is_scatter ? " scatterv" : " gatherv") + ", rank " +
                               std::to_string(off) + " count " + std::to_string(off_count);
      const int count = rank == off ? off_count : kRightCount;
      std::vector<int> root_side(static_cast<std::size_t>(p * 4), 7), mine(4, 7);
      const int rc = is_scatter ? scatterv(root_side.data(), counts.data(), displs.data(), MPI_INT, mine.data(), count,
                                           MPI_INT, kRoot, comm_, options())
                                : gatherv(mine.data(), count, MPI_INT, root_side.data(), counts.data(), displs.data(),
                                          MPI_INT, kRoot, comm_, options());
      const int failed_here = failed_with_disagreement(rc, what) ? 1 : 0;
      int failed_ranks = 0;
      MPI_Allreduce(&failed_here, &failed_ranks, 1, MPI_INT, MPI_SUM, comm_);
      EXPECT_GE(failed_ranks, 1) << what << ": nobody noticed";
      expect_right_calls(comm_, options(), what);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllRooted, RootedDisagreement, ::testing::ValuesIn(rooted_names()), test_name_of);

}  // namespace
}  // namespace topocoll::testing
