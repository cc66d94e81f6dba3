// Datatypes of size zero (MPICH's test alltoallw_zeros): a contiguous type of 0 ints and a
// vector of 0 blocks, in and out of place, as send or receive type, with non-zero counts. Every
// algorithm succeeds (Open MPI's own collectives do) and writes nothing.
#include <optional>
#include <string>
#include <vector>

#include "mpi_test_support.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {
namespace {

constexpr int kCount = 3;

class ZeroSizeTypes : public ErrorsReturnTest {
 protected:
  void SetUp() override {
    ErrorsReturnTest::SetUp();
    MPI_Type_contiguous(0, MPI_INT, &empty_contiguous_);
    MPI_Type_commit(&empty_contiguous_);
    MPI_Type_vector(0, 1, 2, MPI_INT, &empty_vector_);
    MPI_Type_commit(&empty_vector_);
  }
  void TearDown() override {
    MPI_Type_free(&empty_vector_);
    MPI_Type_free(&empty_contiguous_);
    ErrorsReturnTest::TearDown();
  }

  // alltoallv (or alltoall when `uniform`) of kCount elements of `sendtype` / `recvtype` per
  // block (MPI_IN_PLACE when `in_place`): succeeds and leaves the receive buffer as it was.
  void expect_nothing_moved(const AlltoallOptions& options, bool uniform, MPI_Datatype sendtype,
                            MPI_Datatype recvtype, bool in_place, const char* what) {
    const int p = size_of(comm_);
    std::vector<int> counts(static_cast<std::size_t>(p), kCount), displs(static_cast<std::size_t>(p));
    for (int q = 0; q < p; ++q) displs[static_cast<std::size_t>(q)] = q * kCount;
    std::vector<int> send = make_send_blocks(comm_, kCount);
    std::vector<int> recv(send.size(), kCanary);
    const void* source = in_place ? MPI_IN_PLACE : static_cast<const void*>(send.data());
    const int rc = uniform ? alltoall(source, kCount, sendtype, recv.data(), kCount, recvtype, comm_, options)
                           : alltoallv(source, counts.data(), displs.data(), sendtype, recv.data(), counts.data(),
                                       displs.data(), recvtype, comm_, options);
    const std::string call = options.algorithm + (uniform ? ", alltoall, " : ", alltoallv, ") + what;
    EXPECT_EQ(rc, MPI_SUCCESS) << call << ": " << topocoll_error_message();
    EXPECT_TRUE(same_elements(recv, std::vector<int>(recv.size(), kCanary), kCount)) << call;
  }

  void expect_nothing_moved_by_any_pair(const AlltoallOptions& options, bool uniform) {
    expect_nothing_moved(options, uniform, empty_contiguous_, empty_contiguous_, true, "in place, contiguous(0)");
    expect_nothing_moved(options, uniform, empty_vector_, empty_vector_, true, "in place, vector(0)");
    expect_nothing_moved(options, uniform, empty_vector_, empty_vector_, false, "vector(0) both sides");
    expect_nothing_moved(options, uniform, empty_contiguous_, empty_vector_, false, "contiguous(0) to vector(0)");
  }

  MPI_Datatype empty_contiguous_ = MPI_DATATYPE_NULL;
  MPI_Datatype empty_vector_ = MPI_DATATYPE_NULL;
};

TEST_F(ZeroSizeTypes, EveryAlgorithmMovesNothingAndSucceeds) {
  const int p = size_of(comm_);
  const std::string two_clusters = "clusters:" + std::to_string(p - p / 2) + (p > 1 ? "," + std::to_string(p / 2) : "");
  const std::optional<Topology> clusters = Topology::parse(two_clusters, nullptr);
  for (const Algorithm& entry : algorithms_for(Operation::alltoall)) {
    if (!entry.has_schedule() || (entry.needs_topology && p < 2)) continue;
    // A topology-aware algorithm runs on two clusters where it applies there (mlfm, which needs a
    // multi-layer full mesh's box, does not).
    if (entry.needs_topology && (!clusters || !entry.supports(Problem{p, 0, &*clusters, AlgorithmKnobs{}}).ok)) continue;
    const AlltoallOptions options = algorithm_on(std::string(entry.name), entry.needs_topology ? two_clusters : "");
    expect_nothing_moved_by_any_pair(options, true);
    // alltoallv: the algorithms that take blocks of different sizes (asked as auto asks).
    const KnownBlocks empty_blocks(std::vector<std::vector<std::size_t>>(
        static_cast<std::size_t>(p), std::vector<std::size_t>(static_cast<std::size_t>(p), 0)));
    const Problem variable{p, 0, nullptr, AlgorithmKnobs{}, &empty_blocks};
    if (entry.needs_topology || entry.supports(variable).ok) expect_nothing_moved_by_any_pair(options, false);
  }
}

}  // namespace
}  // namespace topocoll::testing
