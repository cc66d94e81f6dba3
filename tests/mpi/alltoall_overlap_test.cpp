// overlap on real MPI: every split of the world into two clusters, a non-contiguous placement,
// three clusters, a bounded request window, MPI_IN_PLACE and blocks across cut in stripes, each
// byte-exact against MPI_Alltoall (its transfers across clusters stay in flight through the
// in-cluster rounds).
#include <algorithm>
#include <cstdio>

#include "mpi_test_support.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {
namespace {

class Overlap : public MpiTest {};

AlltoallOptions overlap_on(const std::string& topology) { return algorithm_on("overlap", topology); }

void expect_exact(std::size_t count, const AlltoallOptions& options, bool in_place = false) {
  expect_matches_mpi_alltoall(MPI_COMM_WORLD, count, options, in_place);
}

TEST_F(Overlap, EveryTwoClusterSplitMatchesMpiAlltoall) {
  const int p = size_of(MPI_COMM_WORLD);
  for (int n1 = 1; n1 < std::max(p, 2); ++n1) {
    const std::string spec = p < 2 ? "clusters:1" : "clusters:" + std::to_string(n1) + "," + std::to_string(p - n1);
    for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{1000}}) {
      expect_exact(count, overlap_on(spec));
    }
  }
  expect_exact(100000, overlap_on("clusters:" + std::to_string(p - p / 2) + (p > 1 ? "," + std::to_string(p / 2) : "")));
}

TEST_F(Overlap, InterleavedPlacementAndThreeClusters) {
  const int p = size_of(MPI_COMM_WORLD);
  if (p < 3) GTEST_SKIP();
  // The shorthand puts clusters in rank order; every other rank in its own cluster comes from
  // a by-rank topology written as JSON by rank 0.
  std::string ranks;
  for (int r = 0; r < p; ++r) ranks += std::string(r ? "," : "") + (r % 2 ? "[\"rennes\"]" : "[\"nancy\"]");
  const std::string path = "/tmp/topocoll_overlap_test_" + std::to_string(p) + ".json";
  if (rank_in(MPI_COMM_WORLD) == 0) {
    if (FILE* f = std::fopen(path.c_str(), "w")) {
      std::fprintf(f, "{\"levels\": [\"cluster\"], \"ranks\": [%s]}", ranks.c_str());
      std::fclose(f);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  for (std::size_t count : {std::size_t{1}, std::size_t{5000}}) expect_exact(count, overlap_on(path));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank_in(MPI_COMM_WORLD) == 0) std::remove(path.c_str());
  const std::string three = "clusters:1," + std::to_string((p - 1) / 2) + "," + std::to_string(p - 1 - (p - 1) / 2);
  for (std::size_t count : {std::size_t{1}, std::size_t{1000}}) expect_exact(count, overlap_on(three));
}

TEST_F(Overlap, BoundedWindowAndInPlace) {
  const int p = size_of(MPI_COMM_WORLD);
  const std::string spec = p < 2 ? "clusters:1" : "clusters:" + std::to_string(p / 2) + "," + std::to_string(p - p / 2);
  AlltoallOptions bounded = overlap_on(spec);
  bounded.max_requests = 2;
  expect_exact(700, bounded);
  expect_exact(700, overlap_on(spec), true);
}

// Several messages per block across, matched in order: counts below, at and above the stripes.
TEST_F(Overlap, StripedBlocksMatchMpiAlltoall) {
  const int p = size_of(MPI_COMM_WORLD);
  if (p < 2) GTEST_SKIP();
  for (int stripes : {2, 3, 8}) {
    for (int n1 : {1, p / 2}) {
      if (n1 < 1) continue;
      AlltoallOptions options = overlap_on("clusters:" + std::to_string(n1) + "," + std::to_string(p - n1));
      options.overlap.stripes = stripes;
      for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{1001}}) {
        expect_exact(count, options);
      }
      expect_exact(333, options, true);
      options.max_requests = 2;
      expect_exact(333, options);
    }
  }
}

}  // namespace
}  // namespace topocoll::testing
