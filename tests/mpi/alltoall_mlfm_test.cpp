// mlfm on real MPI: 12 ranks as the paper's smallest job (2 layers, 3 columns, 2 slots) from a
// multi-layer full mesh topology file (levels column, layer, slot, one entry per rank), in box
// order and with the ranks placed in another order, alltoall and alltoallv byte-exact against
// MPI's own; and, on any other size or topology, a clear "does not apply" error.
#include <cstdio>
#include <fstream>

#include "mpi_test_support.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {
namespace {

class Mlfm : public ErrorsReturnTest {};

constexpr int kLayers = 2, kColumns = 3, kSlots = 2;

// Rank r is server ((r' / 6), (r' / 2) % 3, r' % 2) with r' = r, or r' = 11 - r when reversed.
std::string box_topology(bool reversed) {
  std::string ranks;
  for (int r = 0; r < kLayers * kColumns * kSlots; ++r) {
    const int s = reversed ? kLayers * kColumns * kSlots - 1 - r : r;
    ranks += std::string(r ? ",\n    " : "") + "[\"column" + std::to_string((s / kSlots) % kColumns) + "\", \"layer" +
             std::to_string(s / (kColumns * kSlots)) + "\", \"slot" + std::to_string(s % kSlots) + "\"]";
  }
  return "{\"levels\": [\"column\", \"layer\", \"slot\"], \"ranks\": [\n    " + ranks + "]}\n";
}

// A file written by rank 0 and read by all.
std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = "/tmp/topocoll_mlfm_test_" + name + ".json";
  if (rank_in(MPI_COMM_WORLD) == 0) std::ofstream(path) << text;
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

// Elements from src to dst, some zero, some large.
int count_of(int src, int dst) {
  const int base = (src * 5 + dst * 3) % 7 == 0 ? 0 : 1 + (src + 2 * dst) % 5;
  return (src + dst) % 4 == 0 ? base * 30011 : base;
}

void expect_alltoallv_matches(MPI_Comm comm, const AlltoallOptions& options) {
  const int rank = rank_in(comm), p = size_of(comm);
  std::vector<int> sendcounts, sdispls, recvcounts(static_cast<std::size_t>(p)), rdispls(static_cast<std::size_t>(p));
  std::vector<int> send;
  for (int d = 0; d < p; ++d) {
    sendcounts.push_back(count_of(rank, d));
    sdispls.push_back(static_cast<int>(send.size()));
    for (int i = 0; i < sendcounts.back(); ++i) send.push_back(cell_value(rank, d, static_cast<std::size_t>(i)));
  }
  int at = 0;
  for (int s = p - 1; s >= 0; --s) {  // receive blocks in reverse order, a gap after each
    recvcounts[s] = count_of(s, rank);
    rdispls[s] = at;
    at += recvcounts[s] + 1;
  }
  std::vector<int> reference(static_cast<std::size_t>(at), kCanary), result(static_cast<std::size_t>(at), kCanary);
  MPI_Alltoallv(send.data(), sendcounts.data(), sdispls.data(), MPI_INT, reference.data(), recvcounts.data(),
                rdispls.data(), MPI_INT, comm);
  const int rc = alltoallv(send.data(), sendcounts.data(), sdispls.data(), MPI_INT, result.data(), recvcounts.data(),
                           rdispls.data(), MPI_INT, comm, options);
  EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
  EXPECT_TRUE(result == reference) << "mlfm alltoallv on " << options.topology << " differs from MPI_Alltoallv";
}

TEST_F(Mlfm, TwelveRanksAsTheBoxMatchMpi) {
  if (size_of(MPI_COMM_WORLD) != kLayers * kColumns * kSlots) GTEST_SKIP() << "the box has 12 servers";
  for (bool reversed : {false, true}) {
    const std::string path = write_file(reversed ? "reversed" : "box", box_topology(reversed));
    const AlltoallOptions options = algorithm_on("mlfm", path);
    for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{1000}, std::size_t{100000}}) {
      expect_matches_mpi_alltoall(MPI_COMM_WORLD, count, options);
    }
    expect_matches_mpi_alltoall(MPI_COMM_WORLD, 1000, options, true);
    expect_alltoallv_matches(MPI_COMM_WORLD, options);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank_in(MPI_COMM_WORLD) == 0) std::remove(path.c_str());
  }
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
