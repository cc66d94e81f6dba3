// mlfm on real MPI: 12 ranks as the paper's smallest job (2 layers, 3 columns, 2 slots) from a
// multi-layer full mesh topology file (levels column, layer, slot, one entry per rank), in box
// order and with the ranks placed in another order, byte-exact against MPI_Alltoall (alltoallv:
// alltoallv_test.cpp); and, on any other topology, a clear "does not apply" error. linkaware on
// the same files (a real run has no network: it reads the topology as a tree of switches).
#include <cstdio>

#include "mpi_test_support.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {
namespace {

class Mlfm : public ErrorsReturnTest {};

constexpr int kLayers = 2, kColumns = 3, kSlots = 2;

void expect_box_matches_mpi(const std::string& algorithm) {
  for (bool reversed : {false, true}) {
    const std::string path = write_mlfm_box_topology(kLayers, kColumns, kSlots, reversed);
    const AlltoallOptions options = algorithm_on(algorithm, path);
    for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{1000}, std::size_t{100000}}) {
      expect_matches_mpi_alltoall(MPI_COMM_WORLD, count, options);
    }
    expect_matches_mpi_alltoall(MPI_COMM_WORLD, 1000, options, true);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank_in(MPI_COMM_WORLD) == 0) std::remove(path.c_str());
  }
}

TEST_F(Mlfm, TwelveRanksAsTheBoxMatchMpi) {
  if (size_of(MPI_COMM_WORLD) != kLayers * kColumns * kSlots) GTEST_SKIP() << "the box has 12 servers";
  expect_box_matches_mpi("mlfm");
}

TEST_F(Mlfm, LinkawareOnTheBoxMatchesMpi) {
  if (size_of(MPI_COMM_WORLD) != kLayers * kColumns * kSlots) GTEST_SKIP() << "the box has 12 servers";
  expect_box_matches_mpi("linkaware");
}

TEST_F(Mlfm, SaysWhyItDoesNotApply) {
  const int p = size_of(comm_);
  if (p < 2) GTEST_SKIP();
  std::vector<int> send(static_cast<std::size_t>(p), 1), recv(static_cast<std::size_t>(p), 0);
  const AlltoallOptions on_clusters = algorithm_on("mlfm", "clusters:1," + std::to_string(p - 1));
  const int rc = alltoall(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, comm_, on_clusters);
  EXPECT_NE(rc, MPI_SUCCESS);
  EXPECT_NE(std::string(topocoll_error_message()).find("column, layer, slot"), std::string::npos)
      << topocoll_error_message();
}

}  // namespace
}  // namespace topocoll::testing
