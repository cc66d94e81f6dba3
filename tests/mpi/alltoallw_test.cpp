// alltoallw against MPI_Alltoallw: a datatype of its own for every pair (plain ints, a strided
// type with holes, a contiguous triple received as three ints), byte displacements (receive
// blocks in reverse order with gaps), empty blocks; every alltoallv algorithm, MPI_IN_PLACE, the
// C API, a zero count's datatype never read, and the argument errors naming the peer's type.
#include <algorithm>
#include <string>
#include <vector>

#include "mpi_test_support.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {
namespace {

constexpr int kHoleValue = -7;  // in the send buffer's holes: never to be sent

// The types of the test, committed once per test.
struct Types {
  MPI_Datatype strided = MPI_DATATYPE_NULL;  // one int, extent two
  MPI_Datatype triple = MPI_DATATYPE_NULL;   // three contiguous ints
  Types() {
    MPI_Datatype every_other = MPI_DATATYPE_NULL;
    MPI_Type_vector(1, 1, 2, MPI_INT, &every_other);
    MPI_Type_create_resized(every_other, 0, 2 * sizeof(int), &strided);
    MPI_Type_free(&every_other);
    MPI_Type_commit(&strided);
    MPI_Type_contiguous(3, MPI_INT, &triple);
    MPI_Type_commit(&triple);
  }
  ~Types() {
    MPI_Type_free(&strided);
    MPI_Type_free(&triple);
  }
  Types(const Types&) = delete;
  Types& operator=(const Types&) = delete;
};

// One side of a block: its datatype, count, and ints of data and of extent per element.
struct BlockSide {
  MPI_Datatype type;
  int count;
  int ints_per_element;   // data
  int extent_in_ints;
};

// Ints of data from src to dst (some empty), and how each side describes them.
int ints_of(int src, int dst) { return (src * 5 + dst * 3) % 7 == 0 ? 0 : 3 * (1 + (src + 2 * dst) % 4); }
int kind_of(int src, int dst) { return (src + 2 * dst) % 4; }

BlockSide send_side(const Types& t, int src, int dst) {
  const int n = ints_of(src, dst);
  switch (kind_of(src, dst)) {
    case 1: return {t.strided, n, 1, 2};
    case 2: return {t.triple, n / 3, 3, 3};
    default: return {MPI_INT, n, 1, 1};
  }
}

BlockSide recv_side(const Types& t, int src, int dst) {
  const int n = ints_of(src, dst);
  if (kind_of(src, dst) == 3) return {t.strided, n, 1, 2};
  return {MPI_INT, n, 1, 1};
}

struct Exchange {
  std::vector<int> sendcounts, sdispls, recvcounts, rdispls;  // displacements in bytes
  std::vector<MPI_Datatype> sendtypes, recvtypes;
  std::vector<int> send;
  std::size_t recv_ints = 0;
};

// Send blocks one after another (holes of the strided type hold kHoleValue); receive blocks in
// reverse order, a gap of one int after each.
Exchange make_exchange(const Types& t, MPI_Comm comm) {
  const int rank = rank_in(comm), p = size_of(comm);
  Exchange x;
  for (int d = 0; d < p; ++d) {
    const BlockSide s = send_side(t, rank, d);
    x.sendcounts.push_back(s.count);
    x.sdispls.push_back(static_cast<int>(x.send.size() * sizeof(int)));
    x.sendtypes.push_back(s.type);
    int value = 0;
    for (int e = 0; e < s.count; ++e) {
      for (int i = 0; i < s.extent_in_ints; ++i) {
        x.send.push_back(i < s.ints_per_element ? cell_value(rank, d, static_cast<std::size_t>(value++)) : kHoleValue);
      }
    }
  }
  x.recvcounts.resize(static_cast<std::size_t>(p));
  x.rdispls.resize(static_cast<std::size_t>(p));
  x.recvtypes.resize(static_cast<std::size_t>(p));
  std::size_t at = 0;
  for (int s = p - 1; s >= 0; --s) {
    const BlockSide r = recv_side(t, s, rank);
    x.recvcounts[s] = r.count;
    x.rdispls[s] = static_cast<int>(at * sizeof(int));
    x.recvtypes[s] = r.type;
    at += static_cast<std::size_t>(r.count * r.extent_in_ints) + 1;
  }
  x.recv_ints = at + 1;
  return x;
}

AlltoallOptions with(const std::string& algorithm, const std::string& topology = "") {
  AlltoallOptions options;
  options.algorithm = algorithm;
  options.topology = topology;
  return options;
}

void expect_matches(const Exchange& x, const AlltoallOptions& options) {
  std::vector<int> reference(x.recv_ints, kCanary), result(x.recv_ints, kCanary);
  MPI_Alltoallw(x.send.data(), x.sendcounts.data(), x.sdispls.data(), x.sendtypes.data(), reference.data(),
                x.recvcounts.data(), x.rdispls.data(), x.recvtypes.data(), MPI_COMM_WORLD);
  const int rc = alltoallw(x.send.data(), x.sendcounts.data(), x.sdispls.data(), x.sendtypes.data(), result.data(),
                           x.recvcounts.data(), x.rdispls.data(), x.recvtypes.data(), MPI_COMM_WORLD, options);
  EXPECT_EQ(rc, MPI_SUCCESS) << options.algorithm << ": " << topocoll_error_message();
  EXPECT_TRUE(same_elements(result, reference, 1)) << options.algorithm << " " << options.topology;
}

class Alltoallw : public MpiTest {};

TEST_F(Alltoallw, EveryAlltoallvAlgorithmMatchesTheLibrary) {
  const Types t;
  const Exchange x = make_exchange(t, MPI_COMM_WORLD);
  for (const char* name : {"direct", "shift", "pairwise", "group-shuffle", "liu", "native"}) {
    expect_matches(x, with(name));
  }
  AlltoallOptions bounded = with("direct");
  bounded.max_requests = 2;
  expect_matches(x, bounded);
  const int p = size_of(MPI_COMM_WORLD);
  if (p < 2) return;
  const std::string two_clusters = "clusters:" + std::to_string(p / 2) + "," + std::to_string(p - p / 2);
  for (const char* name : {"lg", "overlap"}) expect_matches(x, with(name, two_clusters));
}

// Every block of plain ints: the user's buffers serve as they are (no packing), at byte
// displacements that are not multiples of the element size of the other blocks.
TEST_F(Alltoallw, PlainTypesAtByteDisplacements) {
  const int rank = rank_in(MPI_COMM_WORLD), p = size_of(MPI_COMM_WORLD);
  std::vector<int> sendcounts, sdispls, recvcounts(static_cast<std::size_t>(p)), rdispls(static_cast<std::size_t>(p));
  std::vector<MPI_Datatype> sendtypes(static_cast<std::size_t>(p), MPI_INT), recvtypes(sendtypes);
  std::vector<int> send;
  for (int d = 0; d < p; ++d) {
    sendcounts.push_back(1 + (rank + d) % 3);
    sdispls.push_back(static_cast<int>(send.size() * sizeof(int)));
    for (int i = 0; i < sendcounts.back(); ++i) send.push_back(cell_value(rank, d, static_cast<std::size_t>(i)));
  }
  int at = 0;
  for (int s = p - 1; s >= 0; --s) {
    recvcounts[s] = 1 + (s + rank) % 3;
    rdispls[s] = at * static_cast<int>(sizeof(int));
    at += recvcounts[s] + 2;
  }
  for (const char* name : {"pairwise", "liu"}) {
    std::vector<int> reference(static_cast<std::size_t>(at), kCanary), result(reference);
    MPI_Alltoallw(send.data(), sendcounts.data(), sdispls.data(), sendtypes.data(), reference.data(), recvcounts.data(),
                  rdispls.data(), recvtypes.data(), MPI_COMM_WORLD);
    const int rc = alltoallw(send.data(), sendcounts.data(), sdispls.data(), sendtypes.data(), result.data(),
                             recvcounts.data(), rdispls.data(), recvtypes.data(), MPI_COMM_WORLD, with(name));
    EXPECT_EQ(rc, MPI_SUCCESS) << name << ": " << topocoll_error_message();
    EXPECT_TRUE(same_elements(result, reference, 1)) << name;
  }
}

TEST_F(Alltoallw, InPlaceCApiAndNullTypesOfEmptyBlocks) {
  const Types t;
  const int rank = rank_in(MPI_COMM_WORLD), p = size_of(MPI_COMM_WORLD);
  // In place: the same description both ways, a symmetric pattern (the strided type where the
  // pair's sum is odd); the send arrays are passed as garbage, which must never be read.
  std::vector<int> counts, displs;
  std::vector<MPI_Datatype> types;
  std::size_t at = 0;
  for (int q = 0; q < p; ++q) {
    const bool strided = (rank + q) % 2 == 1;
    counts.push_back(1 + (rank + q) % 3);
    displs.push_back(static_cast<int>(at * sizeof(int)));
    types.push_back(strided ? t.strided : MPI_INT);
    at += static_cast<std::size_t>(counts.back() * (strided ? 2 : 1));
  }
  std::vector<int> data(at);
  for (std::size_t i = 0; i < at; ++i) data[i] = cell_value(rank, 0, i);
  std::vector<int> reference = data, result = data;
  MPI_Alltoallw(MPI_IN_PLACE, nullptr, nullptr, nullptr, reference.data(), counts.data(), displs.data(), types.data(),
                MPI_COMM_WORLD);
  int rc = alltoallw(MPI_IN_PLACE, nullptr, nullptr, nullptr, result.data(), counts.data(), displs.data(),
                     types.data(), MPI_COMM_WORLD, with("pairwise"));
  EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
  EXPECT_TRUE(same_elements(result, reference, 1)) << "in place";

  // The C API, with MPI_DATATYPE_NULL for every empty block (their datatypes are not read).
  Exchange x = make_exchange(t, MPI_COMM_WORLD);
  std::vector<int> c_reference(x.recv_ints, kCanary), c_result(x.recv_ints, kCanary);
  MPI_Alltoallw(x.send.data(), x.sendcounts.data(), x.sdispls.data(), x.sendtypes.data(), c_reference.data(),
                x.recvcounts.data(), x.rdispls.data(), x.recvtypes.data(), MPI_COMM_WORLD);
  for (int q = 0; q < p; ++q) {
    if (x.sendcounts[q] == 0) x.sendtypes[q] = MPI_DATATYPE_NULL;
    if (x.recvcounts[q] == 0) x.recvtypes[q] = MPI_DATATYPE_NULL;
  }
  rc = topocoll_alltoallw(x.send.data(), x.sendcounts.data(), x.sdispls.data(), x.sendtypes.data(), c_result.data(),
                          x.recvcounts.data(), x.rdispls.data(), x.recvtypes.data(), MPI_COMM_WORLD, "shift");
  EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
  EXPECT_TRUE(same_elements(c_result, c_reference, 1)) << "C API";
}

// Each bad call returns the class, names the problem and leaves the receive buffer alone (every
// rank makes the same mistake, so every rank reports it).
void expect_error(MPI_Comm comm, int expected_class, const std::string& needle, const Exchange& x,
                  const MPI_Datatype* sendtypes) {
  std::vector<int> result(x.recv_ints, kCanary);
  const int rc = alltoallw(x.send.data(), x.sendcounts.data(), x.sdispls.data(), sendtypes, result.data(),
                           x.recvcounts.data(), x.rdispls.data(), x.recvtypes.data(), comm, with("pairwise"));
  int error_class = MPI_SUCCESS;
  MPI_Error_class(rc, &error_class);
  EXPECT_EQ(error_class, expected_class) << needle;
  const std::string message = topocoll_error_message();
  EXPECT_NE(message.find(needle), std::string::npos) << message;
  EXPECT_EQ(message.rfind("alltoallw: ", 0), 0u) << message;
  EXPECT_TRUE(result == std::vector<int>(x.recv_ints, kCanary)) << needle << ": receive buffer touched";
}

TEST_F(Alltoallw, BadArgumentsAreClearErrors) {
  const Types t;
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  const int p = size_of(comm);
  Exchange x = make_exchange(t, comm);
  expect_error(comm, MPI_ERR_ARG, "send counts, displacements or datatypes array is null", x, nullptr);

  // The last peer's send type: null, then not committed, where its count is not 0.
  Exchange y = x;
  y.sendcounts[p - 1] = 1;
  y.sendtypes[p - 1] = MPI_DATATYPE_NULL;
  expect_error(comm, MPI_ERR_TYPE, "send type " + std::to_string(p - 1) + " is MPI_DATATYPE_NULL", y,
               y.sendtypes.data());
  MPI_Datatype uncommitted = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(2, MPI_INT, &uncommitted);
  y.sendtypes[p - 1] = uncommitted;
  expect_error(comm, MPI_ERR_TYPE, "send type " + std::to_string(p - 1) + " is not a valid committed datatype", y,
               y.sendtypes.data());
  MPI_Type_free(&uncommitted);
  MPI_Comm_free(&comm);
}

// Rank 1 alone names MPI_DATATYPE_NULL for a block with data: it returns MPI_ERR_TYPE having
// taken part (no peer waits), writes nothing; a peer that returns MPI_SUCCESS holds what
// MPI_Alltoallw gives, the others fail with MPI_ERR_COUNT or MPI_ERR_TRUNCATE; the next right
// call is right everywhere.
TEST_F(Alltoallw, OneRanksBadTypeFailsCleanly) {
  if (size_of(MPI_COMM_WORLD) < 2) GTEST_SKIP() << "one rank has no peer";
  const Types t;
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  const int rank = rank_in(comm), p = size_of(comm);
  const Exchange x = make_exchange(t, comm);
  std::vector<int> reference(x.recv_ints, kCanary), result(x.recv_ints, kCanary);
  MPI_Alltoallw(x.send.data(), x.sendcounts.data(), x.sdispls.data(), x.sendtypes.data(), reference.data(),
                x.recvcounts.data(), x.rdispls.data(), x.recvtypes.data(), comm);
  Exchange mine = x;
  constexpr int bad_rank = 1;
  if (rank == bad_rank) {
    for (int q = 0; q < p; ++q) {
      if (mine.sendcounts[q] > 0) mine.sendtypes[q] = MPI_DATATYPE_NULL;
    }
  }
  for (const char* name : {"pairwise", "liu"}) {
    std::fill(result.begin(), result.end(), kCanary);
    const int rc = alltoallw(mine.send.data(), mine.sendcounts.data(), mine.sdispls.data(), mine.sendtypes.data(),
                             result.data(), mine.recvcounts.data(), mine.rdispls.data(), mine.recvtypes.data(), comm,
                             with(name));
    int error_class = MPI_SUCCESS;
    MPI_Error_class(rc, &error_class);
    if (rank == bad_rank) {
      EXPECT_EQ(error_class, MPI_ERR_TYPE) << name << ": " << topocoll_error_message();
      EXPECT_TRUE(result == std::vector<int>(x.recv_ints, kCanary)) << name << ": the bad rank wrote";
    } else if (rc == MPI_SUCCESS) {
      EXPECT_TRUE(same_elements(result, reference, 1)) << name << ": succeeded with wrong data";
    } else {
      EXPECT_TRUE(error_class == MPI_ERR_COUNT || error_class == MPI_ERR_TRUNCATE)
          << name << ": " << error_class << " " << topocoll_error_message();
    }
    std::fill(result.begin(), result.end(), kCanary);
    const int after = alltoallw(x.send.data(), x.sendcounts.data(), x.sdispls.data(), x.sendtypes.data(),
                                result.data(), x.recvcounts.data(), x.rdispls.data(), x.recvtypes.data(), comm,
                                with(name));
    EXPECT_EQ(after, MPI_SUCCESS) << name << ": the call after: " << topocoll_error_message();
    EXPECT_TRUE(same_elements(result, reference, 1)) << name << ": the call after";
  }
  MPI_Comm_free(&comm);
}

}  // namespace
}  // namespace topocoll::testing
