// alltoallv against MPI_Alltoallv: every algorithm that applies to blocks of different sizes
// (liu's four stages with their headers among them; empty ones included, receive blocks spaced
// out with canaries between them), lg and overlap on two and three clusters and over hosts under
// switches (an inner level's groups), mlfm and linkaware
// on a multi-layer full mesh's box of 12, a strided datatype, MPI_IN_PLACE,
// the C API, and the argument errors.
#include <cstdio>
#include <numeric>

#include "mpi_test_support.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {
namespace {

class Alltoallv : public MpiTest {};

// Elements from src to dst: some empty, some large when `large`.
int count_of(int src, int dst, bool large) {
  const int base = (src * 7 + dst * 13) % 5 == 0 ? 0 : 1 + (src * 3 + dst * 11) % 9;
  return large && base > 0 && (src + dst) % 3 == 0 ? base * 11111 : base;
}

struct Exchange {
  std::vector<int> sendcounts, sdispls, recvcounts, rdispls;
  std::vector<int> send;
  std::size_t recv_size = 0;
};

// Send blocks packed in order; receive blocks in reverse order with a gap of 2 after each.
Exchange make_exchange(MPI_Comm comm, bool large) {
  const int rank = rank_in(comm), p = size_of(comm);
  Exchange x;
  int at = 0;
  for (int d = 0; d < p; ++d) {
    x.sendcounts.push_back(count_of(rank, d, large));
    x.sdispls.push_back(at);
    for (int i = 0; i < x.sendcounts.back(); ++i) x.send.push_back(cell_value(rank, d, static_cast<std::size_t>(i)));
    at += x.sendcounts.back();
  }
  x.recvcounts.resize(static_cast<std::size_t>(p));
  x.rdispls.resize(static_cast<std::size_t>(p));
  at = 0;
  for (int s = p - 1; s >= 0; --s) {
    x.recvcounts[s] = count_of(s, rank, large);
    x.rdispls[s] = at;
    at += x.recvcounts[s] + 2;
  }
  x.recv_size = static_cast<std::size_t>(at) + 1;
  return x;
}

void expect_matches(MPI_Comm comm, const AlltoallOptions& options, bool large) {
  Exchange x = make_exchange(comm, large);
  std::vector<int> reference(x.recv_size, kCanary), result(x.recv_size, kCanary);
  MPI_Alltoallv(x.send.data(), x.sendcounts.data(), x.sdispls.data(), MPI_INT, reference.data(), x.recvcounts.data(),
                x.rdispls.data(), MPI_INT, comm);
  const int rc = alltoallv(x.send.data(), x.sendcounts.data(), x.sdispls.data(), MPI_INT, result.data(),
                           x.recvcounts.data(), x.rdispls.data(), MPI_INT, comm, options);
  EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
  EXPECT_TRUE(result == reference) << options.algorithm << " " << options.topology
                                   << (large ? " (large)" : "") << ": differs from MPI_Alltoallv";
}

AlltoallOptions with(const std::string& algorithm, const std::string& topology = "") {
  AlltoallOptions options;
  options.algorithm = algorithm;
  options.topology = topology;
  return options;
}

TEST_F(Alltoallv, FlatAlgorithmsMatchMpiAlltoallv) {
  for (const char* name : {"direct", "shift", "pairwise", "group-shuffle", "liu", "native"}) {
    expect_matches(MPI_COMM_WORLD, with(name), false);
    expect_matches(MPI_COMM_WORLD, with(name), true);
  }
  AlltoallOptions bounded = with("direct");
  bounded.max_requests = 2;
  expect_matches(MPI_COMM_WORLD, bounded, true);
}

// mlfm and linkaware on the MLFM paper's smallest job (12 ranks: 2 layers, 3 columns, 2 slots),
// its ranks in box order and reversed.
TEST_F(Alltoallv, MlfmOnABoxOfTwelveMatchesMpiAlltoallv) {
  if (size_of(MPI_COMM_WORLD) != 12) GTEST_SKIP() << "the box has 12 servers";
  for (bool reversed : {false, true}) {
    const std::string path = write_mlfm_box_topology(2, 3, 2, reversed);
    for (const char* algorithm : {"mlfm", "linkaware"}) {
      for (bool large : {false, true}) expect_matches(MPI_COMM_WORLD, with(algorithm, path), large);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank_in(MPI_COMM_WORLD) == 0) std::remove(path.c_str());
  }
}

TEST_F(Alltoallv, TopologyAwareMatchMpiAlltoallv) {
  const int p = size_of(MPI_COMM_WORLD);
  if (p < 2) GTEST_SKIP();
  for (const std::string name : {"lg", "overlap"}) {
    for (int n1 = 1; n1 < p; ++n1) {
      expect_matches(MPI_COMM_WORLD, with(name, "clusters:" + std::to_string(n1) + "," + std::to_string(p - n1)),
                     false);
    }
    expect_matches(MPI_COMM_WORLD, with(name, "clusters:" + std::to_string(p / 2) + "," + std::to_string(p - p / 2)),
                   true);
    if (p >= 3) expect_matches(MPI_COMM_WORLD, with(name, "clusters:1,1," + std::to_string(p - 2)), true);
  }
  const std::string hosts = write_switches_of_hosts_topology();  // the node-aware exchange: hosts as the groups
  for (const std::string name : {"lg", "overlap"}) {
    AlltoallOptions node_aware = with(name, hosts);
    node_aware.group_level = 1;
    expect_matches(MPI_COMM_WORLD, node_aware, false);
    expect_matches(MPI_COMM_WORLD, node_aware, true);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank_in(MPI_COMM_WORLD) == 0) std::remove(hosts.c_str());
  AlltoallOptions striped = with("overlap", "clusters:" + std::to_string(p / 2) + "," + std::to_string(p - p / 2));
  striped.overlap.stripes = 3;
  expect_matches(MPI_COMM_WORLD, striped, false);
  expect_matches(MPI_COMM_WORLD, striped, true);
}

TEST_F(Alltoallv, StridedDatatypeLeavesHolesAlone) {
  const int rank = rank_in(MPI_COMM_WORLD), p = size_of(MPI_COMM_WORLD);
  MPI_Datatype every_other = MPI_DATATYPE_NULL, strided = MPI_DATATYPE_NULL;
  MPI_Type_vector(1, 1, 2, MPI_INT, &every_other);
  MPI_Type_create_resized(every_other, 0, 2 * sizeof(int), &strided);
  MPI_Type_commit(&strided);
  Exchange x = make_exchange(MPI_COMM_WORLD, false);
  std::vector<int> send(2 * x.send.size() + 1, kCanary);
  for (std::size_t i = 0; i < x.send.size(); ++i) send[2 * i] = x.send[i];
  for (const std::string name : {"direct", "pairwise", "lg", "overlap", "liu"}) {
    const AlltoallOptions options = with(name, "clusters:1," + std::to_string(p - 1));
    if ((name == "lg" || name == "overlap") && p < 2) continue;
    std::vector<int> reference(2 * x.recv_size, kCanary), result(2 * x.recv_size, kCanary);
    MPI_Alltoallv(send.data(), x.sendcounts.data(), x.sdispls.data(), strided, reference.data(), x.recvcounts.data(),
                  x.rdispls.data(), strided, MPI_COMM_WORLD);
    const int rc = alltoallv(send.data(), x.sendcounts.data(), x.sdispls.data(), strided, result.data(),
                             x.recvcounts.data(), x.rdispls.data(), strided, MPI_COMM_WORLD, options);
    EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
    EXPECT_TRUE(result == reference) << name << " on rank " << rank;
  }
  MPI_Type_free(&every_other);
  MPI_Type_free(&strided);
}

TEST_F(Alltoallv, InPlaceAndCApi) {
  const int p = size_of(MPI_COMM_WORLD);
  // In place, MPI requires the same counts both ways: a symmetric pattern.
  std::vector<int> counts(static_cast<std::size_t>(p)), displs(static_cast<std::size_t>(p));
  const int rank = rank_in(MPI_COMM_WORLD);
  int at = 0;
  for (int q = 0; q < p; ++q) {
    counts[q] = 1 + (rank + q) % 4;
    displs[q] = at;
    at += counts[q];
  }
  std::vector<int> data(static_cast<std::size_t>(at));
  for (int q = 0; q < p; ++q)
    for (int i = 0; i < counts[q]; ++i) data[displs[q] + i] = cell_value(rank, q, static_cast<std::size_t>(i));
  std::vector<int> reference = data, result = data;
  MPI_Alltoallv(MPI_IN_PLACE, nullptr, nullptr, MPI_INT, reference.data(), counts.data(), displs.data(), MPI_INT,
                MPI_COMM_WORLD);
  int rc = alltoallv(MPI_IN_PLACE, nullptr, nullptr, MPI_INT, result.data(), counts.data(), displs.data(), MPI_INT,
                     MPI_COMM_WORLD, with("pairwise"));
  EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
  EXPECT_TRUE(result == reference);

  Exchange x = make_exchange(MPI_COMM_WORLD, false);
  std::vector<int> c_result(x.recv_size, kCanary), c_reference(x.recv_size, kCanary);
  MPI_Alltoallv(x.send.data(), x.sendcounts.data(), x.sdispls.data(), MPI_INT, c_reference.data(),
                x.recvcounts.data(), x.rdispls.data(), MPI_INT, MPI_COMM_WORLD);
  rc = topocoll_alltoallv(x.send.data(), x.sendcounts.data(), x.sdispls.data(), MPI_INT, c_result.data(),
                          x.recvcounts.data(), x.rdispls.data(), MPI_INT, MPI_COMM_WORLD, "shift");
  EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
  EXPECT_TRUE(c_result == c_reference);
}

// Each bad call must return the class, name the problem and leave the receive buffer alone.
void expect_error(MPI_Comm comm, int expected_class, const std::string& needle, const Exchange& x,
                  const AlltoallOptions& options = with("direct")) {
  std::vector<int> result(x.recv_size, kCanary);
  const int rc = alltoallv(x.send.data(), x.sendcounts.data(), x.sdispls.data(), MPI_INT, result.data(),
                           x.recvcounts.data(), x.rdispls.data(), MPI_INT, comm, options);
  int error_class = MPI_SUCCESS;
  MPI_Error_class(rc, &error_class);
  EXPECT_EQ(error_class, expected_class) << needle;
  EXPECT_NE(std::string(topocoll_error_message()).find(needle), std::string::npos) << topocoll_error_message();
  EXPECT_TRUE(result == std::vector<int>(x.recv_size, kCanary)) << needle << ": receive buffer touched";
}

TEST_F(Alltoallv, BadArgumentsAreClearErrors) {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  const int p = size_of(comm), rank = rank_in(comm);
  const Exchange good = make_exchange(comm, false);

  Exchange x = good;
  x.sendcounts[0] = -3;
  expect_error(comm, MPI_ERR_COUNT, "send count 0 is negative", x);
  x = good;
  x.recvcounts[rank] += 1;  // this rank's own block no longer matches
  expect_error(comm, MPI_ERR_TYPE, "type signatures differ", x);
  if (p >= 2) {
    x = good;
    const int a = rank == 0 ? 1 : 0;
    x.recvcounts[a] = 5;
    x.recvcounts[rank] = x.sendcounts[rank];
    x.rdispls[a] = 0;
    x.rdispls[rank] = 2;
    x.recvcounts[rank] = std::max(1, x.recvcounts[rank]);
    x.sendcounts[rank] = x.recvcounts[rank];
    expect_error(comm, MPI_ERR_ARG, "overlap", x);
  }
  expect_error(comm, MPI_ERR_ARG, "bruck", good, with("bruck"));

  std::vector<int> result(good.recv_size, kCanary);
  const int rc = alltoallv(good.send.data(), nullptr, good.sdispls.data(), MPI_INT, result.data(),
                           good.recvcounts.data(), good.rdispls.data(), MPI_INT, comm, with("direct"));
  int error_class = MPI_SUCCESS;
  MPI_Error_class(rc, &error_class);
  EXPECT_EQ(error_class, MPI_ERR_ARG);
  EXPECT_NE(std::string(topocoll_error_message()).find("array is null"), std::string::npos);
  MPI_Comm_free(&comm);
}

}  // namespace
}  // namespace topocoll::testing
