// lg on real MPI: every split of the world into two clusters, a non-contiguous placement (from
// a topology file), three clusters, a sub-communicator, the TOPOCOLL_TOPOLOGY variable and a
// scratch cap, each byte-exact against MPI_Alltoall, lg and overlap with an inner level's groups;
// and a clear error without a topology or with a level the topology lacks.
#include <cstdio>
#include <cstdlib>

#include "mpi_test_support.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {
namespace {

class Lg : public MpiTest {};

AlltoallOptions lg_on(const std::string& topology) { return algorithm_on("lg", topology); }

void expect_exact(MPI_Comm comm, std::size_t count, const AlltoallOptions& options) {
  expect_matches_mpi_alltoall(comm, count, options);
}

// A topology file written by rank 0 and read by all.
std::string write_topology(const std::string& json) {
  return write_for_the_world("/tmp/topocoll_lg_test_" + std::to_string(size_of(MPI_COMM_WORLD)) + ".json", json);
}

TEST_F(Lg, EveryTwoClusterSplitMatchesMpiAlltoall) {
  const int p = size_of(MPI_COMM_WORLD);
  if (p < 2) GTEST_SKIP() << "lg needs two clusters";
  for (int n1 = 1; n1 < p; ++n1) {
    const std::string spec = "clusters:" + std::to_string(n1) + "," + std::to_string(p - n1);
    for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{1000}}) {
      expect_exact(MPI_COMM_WORLD, count, lg_on(spec));
    }
  }
  expect_exact(MPI_COMM_WORLD, 100000, lg_on("clusters:" + std::to_string(p / 2) + "," + std::to_string(p - p / 2)));
  expect_exact(MPI_COMM_WORLD, 100000, lg_on("clusters:1," + std::to_string(p - 1)));
}

TEST_F(Lg, NonContiguousPlacementFromAFile) {
  const int p = size_of(MPI_COMM_WORLD);
  if (p < 2) GTEST_SKIP();
  // Even ranks on "nancy", odd ranks on "rennes".
  std::string ranks;
  for (int r = 0; r < p; ++r) ranks += std::string(r ? "," : "") + (r % 2 ? "[\"rennes\"]" : "[\"nancy\"]");
  const std::string path = write_topology("{\"levels\": [\"cluster\"], \"ranks\": [" + ranks + "]}");
  for (std::size_t count : {std::size_t{1}, std::size_t{1000}, std::size_t{100000}}) {
    expect_exact(MPI_COMM_WORLD, count, lg_on(path));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank_in(MPI_COMM_WORLD) == 0) std::remove(path.c_str());
}

TEST_F(Lg, ThreeClusters) {
  const int p = size_of(MPI_COMM_WORLD);
  if (p < 3) GTEST_SKIP();
  const std::string spec = "clusters:1," + std::to_string((p - 1) / 2) + "," + std::to_string(p - 1 - (p - 1) / 2);
  for (std::size_t count : {std::size_t{1}, std::size_t{1000}}) expect_exact(MPI_COMM_WORLD, count, lg_on(spec));
}

TEST_F(Lg, SubCommunicatorSeesItsMembersClusters) {
  const int p = size_of(MPI_COMM_WORLD);
  if (p < 4) GTEST_SKIP();
  // World clusters: first half, second half. Sub-communicators: even and odd world ranks, so
  // each holds ranks of both clusters.
  MPI_Comm half = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank_in(MPI_COMM_WORLD) % 2, 0, &half);
  expect_exact(half, 1000, lg_on("clusters:" + std::to_string(p / 2) + "," + std::to_string(p - p / 2)));
  MPI_Comm_free(&half);
}

TEST_F(Lg, TopologyFromTheEnvironment) {
  const int p = size_of(MPI_COMM_WORLD);
  if (p < 2) GTEST_SKIP();
  const std::string spec = "clusters:1," + std::to_string(p - 1);
  setenv("TOPOCOLL_TOPOLOGY", spec.c_str(), 1);
  expect_exact(MPI_COMM_WORLD, 5, lg_on(""));
  unsetenv("TOPOCOLL_TOPOLOGY");
}

TEST_F(Lg, PipelinedUnderAScratchCap) {
  const int p = size_of(MPI_COMM_WORLD);
  if (p < 2) GTEST_SKIP();
  AlltoallOptions options = lg_on("clusters:" + std::to_string(p / 2) + "," + std::to_string(p - p / 2));
  options.lg.max_scratch_bytes = 64 * 1024;
  expect_exact(MPI_COMM_WORLD, 100000, options);  // 400 KB blocks through 64 KiB of scratch
  options.lg.max_scratch_bytes = 0;
  options.lg.segment_bytes = 1000;  // pieces that cut through ints: bytes, not elements, are cut
  expect_exact(MPI_COMM_WORLD, 1001, options);
}

// The node-aware exchange: lg and overlap with the hosts, an inner level, as their groups (and
// the node level the library adds under them); a level past the innermost is a clear error.
TEST_F(Lg, GroupsFromAnInnerLevel) {
  const int p = size_of(MPI_COMM_WORLD);
  if (p < 2) GTEST_SKIP();
  const std::string path = write_switches_of_hosts_topology();
  for (const char* name : {"lg", "overlap"}) {
    for (int level : {1, 2}) {
      AlltoallOptions options = algorithm_on(name, path);
      options.group_level = level;
      for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{1000}}) {
        expect_exact(MPI_COMM_WORLD, count, options);
      }
    }
  }
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  AlltoallOptions beyond = lg_on(path);
  beyond.group_level = 3;
  std::vector<int> send = make_send_blocks(comm, 2);
  std::vector<int> result(send.size(), kCanary);
  const int rc = alltoall(send.data(), 2, MPI_INT, result.data(), 2, MPI_INT, comm, beyond);
  int error_class = MPI_SUCCESS;
  MPI_Error_class(rc, &error_class);
  EXPECT_EQ(error_class, MPI_ERR_ARG);
  EXPECT_NE(std::string(topocoll_error_message())
                .find("group level 3 is not a level of the topology (3 levels: "
                      "switch, host, node"),
            std::string::npos)
      << topocoll_error_message();
  EXPECT_EQ(result, std::vector<int>(send.size(), kCanary)) << "the receive buffer must be untouched";
  MPI_Comm_free(&comm);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank_in(MPI_COMM_WORLD) == 0) std::remove(path.c_str());
}

TEST_F(Lg, WithoutTopologyIsAClearError) {
  const int p = size_of(MPI_COMM_WORLD);
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  unsetenv("TOPOCOLL_TOPOLOGY");
  std::vector<int> send = make_send_blocks(comm, 2);
  std::vector<int> result(send.size(), kCanary);
  int rc = alltoall(send.data(), 2, MPI_INT, result.data(), 2, MPI_INT, comm, lg_on(""));
  int error_class = MPI_SUCCESS;
  MPI_Error_class(rc, &error_class);
  EXPECT_EQ(error_class, MPI_ERR_ARG);
  EXPECT_NE(std::string(topocoll_error_message()).find("TOPOCOLL_TOPOLOGY"), std::string::npos)
      << topocoll_error_message();
  EXPECT_EQ(result, std::vector<int>(send.size(), kCanary)) << "the receive buffer must be untouched";

  rc = alltoall(send.data(), 2, MPI_INT, result.data(), 2, MPI_INT, comm, lg_on("clusters:1,1,1,1,1,1,1,1,1,1,1"));
  MPI_Error_class(rc, &error_class);
  EXPECT_EQ(error_class, MPI_ERR_ARG);
  EXPECT_NE(std::string(topocoll_error_message()).find("describes 11 ranks, but the world has " + std::to_string(p)),
            std::string::npos)
      << topocoll_error_message();
  MPI_Comm_free(&comm);
}

}  // namespace
}  // namespace topocoll::testing
