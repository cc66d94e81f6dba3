// The large-count forms' path through the executor (what the drop-in's MPI_Alltoall_c ...
// hand it under an MPI-4 library): counts of MPI_Count and displacements of MPI_Aint, for every
// operation, against the MPI library's int form with the same values, byte for byte. Counts
// past 2^31 need gigabytes; they are checked by hand on MPICH (tests/interpose/large_count_check.c).
#include <string>
#include <vector>

#include "exec/call.hpp"
#include "exec/collective.hpp"
#include "mpi_test_support.hpp"
#include "topocoll/topocoll.h"

namespace topocoll::testing {
namespace {

using exec::CallArguments;
using exec::SideArguments;

class LargeCounts : public MpiTest {};

CollectiveOptions named(const std::string& algorithm) {
  CollectiveOptions options;
  options.algorithm = algorithm;
  return options;
}

// A call in the large-count form (counts, arrays and the flag).
CallArguments large_form(Operation operation, SideArguments send, SideArguments recv, int root = 0) {
  CallArguments call{operation, send, recv, root, MPI_COMM_WORLD};
  call.large_counts = true;
  return call;
}

TEST_F(LargeCounts, UniformOperationsMatchTheIntForms) {
  const int p = size_of(MPI_COMM_WORLD), rank = rank_in(MPI_COMM_WORLD);
  constexpr int kCount = 5;
  const std::vector<int> send = make_send_blocks(MPI_COMM_WORLD, kCount);
  for (const char* name : {"pairwise", "bruck"}) {
    std::vector<int> result(send.size(), kCanary);
    const MPI_Count count = kCount;
    const int rc = exec::run_collective(
        large_form(Operation::alltoall, SideArguments{send.data(), count, nullptr, nullptr, MPI_INT},
                   SideArguments{result.data(), count, nullptr, nullptr, MPI_INT}),
        named(name));
    EXPECT_EQ(rc, MPI_SUCCESS) << name << ": " << topocoll_error_message();
    EXPECT_TRUE(same_elements(result, expected_receive_blocks(MPI_COMM_WORLD, kCount), kCount)) << name;
  }
  constexpr int kRoot = 0;
  for (const char* name : {"linear", "binomial"}) {
    std::vector<int> mine(kCount, kCanary), reference(kCount, kCanary);
    MPI_Scatter(send.data(), kCount, MPI_INT, reference.data(), kCount, MPI_INT, kRoot, MPI_COMM_WORLD);
    int rc = exec::run_collective(
        large_form(Operation::scatter, SideArguments{send.data(), kCount, nullptr, nullptr, MPI_INT},
                   SideArguments{mine.data(), kCount, nullptr, nullptr, MPI_INT}, kRoot),
        named(name));
    EXPECT_EQ(rc, MPI_SUCCESS) << name << " scatter: " << topocoll_error_message();
    EXPECT_TRUE(mine == reference) << name << " scatter";
    std::vector<int> gathered(static_cast<std::size_t>(p * kCount), kCanary), gathered_reference(gathered);
    MPI_Gather(reference.data(), kCount, MPI_INT, gathered_reference.data(), kCount, MPI_INT, kRoot, MPI_COMM_WORLD);
    rc = exec::run_collective(
        large_form(Operation::gather, SideArguments{reference.data(), kCount, nullptr, nullptr, MPI_INT},
                   SideArguments{gathered.data(), kCount, nullptr, nullptr, MPI_INT}, kRoot),
        named(name));
    EXPECT_EQ(rc, MPI_SUCCESS) << name << " gather: " << topocoll_error_message();
    if (rank == kRoot) {
      EXPECT_TRUE(gathered == gathered_reference) << name << " gather";
    }
  }
}

// Counts and displacements of the v forms as MPI_Count and MPI_Aint arrays (and the int
// arrays of the same values for the reference): receive blocks in reverse order with gaps.
struct WideExchange {
  std::vector<int> counts, displs, recvcounts, rdispls, send;
  std::vector<MPI_Count> wide_counts, wide_recvcounts;
  std::vector<MPI_Aint> wide_displs, wide_rdispls;
  std::size_t recv_ints = 0;
};

WideExchange make_wide(int rank, int p) {
  WideExchange x;
  for (int d = 0; d < p; ++d) {
    x.counts.push_back((rank + 2 * d) % 3);
    x.displs.push_back(static_cast<int>(x.send.size()));
    for (int i = 0; i < x.counts.back(); ++i) x.send.push_back(cell_value(rank, d, static_cast<std::size_t>(i)));
  }
  x.recvcounts.resize(static_cast<std::size_t>(p));
  x.rdispls.resize(static_cast<std::size_t>(p));
  int at = 0;
  for (int s = p - 1; s >= 0; --s) {
    x.recvcounts[s] = (s + 2 * rank) % 3;
    x.rdispls[s] = at;
    at += x.recvcounts[s] + 1;
  }
  x.recv_ints = static_cast<std::size_t>(at) + 1;
  x.wide_counts.assign(x.counts.begin(), x.counts.end());
  x.wide_displs.assign(x.displs.begin(), x.displs.end());
  x.wide_recvcounts.assign(x.recvcounts.begin(), x.recvcounts.end());
  x.wide_rdispls.assign(x.rdispls.begin(), x.rdispls.end());
  return x;
}

TEST_F(LargeCounts, VariableFormsMatchTheIntForms) {
  const int p = size_of(MPI_COMM_WORLD), rank = rank_in(MPI_COMM_WORLD);
  const WideExchange x = make_wide(rank, p);
  std::vector<int> reference(x.recv_ints, kCanary);
  MPI_Alltoallv(x.send.data(), x.counts.data(), x.displs.data(), MPI_INT, reference.data(), x.recvcounts.data(),
                x.rdispls.data(), MPI_INT, MPI_COMM_WORLD);
  for (const char* name : {"pairwise", "liu"}) {
    std::vector<int> result(x.recv_ints, kCanary);
    const int rc = exec::run_collective(
        large_form(Operation::alltoallv,
                   SideArguments{x.send.data(), 0, nullptr, nullptr, MPI_INT, nullptr, x.wide_counts.data(),
                                 x.wide_displs.data()},
                   SideArguments{result.data(), 0, nullptr, nullptr, MPI_INT, nullptr, x.wide_recvcounts.data(),
                                 x.wide_rdispls.data()}),
        named(name));
    EXPECT_EQ(rc, MPI_SUCCESS) << name << ": " << topocoll_error_message();
    EXPECT_TRUE(same_elements(result, reference, 1)) << name << " alltoallv";
  }
  // alltoallw_c: the same, as MPI_INT per peer at byte displacements.
  std::vector<MPI_Datatype> types(static_cast<std::size_t>(p), MPI_INT);
  std::vector<MPI_Aint> byte_displs, byte_rdispls;
  for (const MPI_Aint d : x.wide_displs) byte_displs.push_back(d * static_cast<MPI_Aint>(sizeof(int)));
  for (const MPI_Aint d : x.wide_rdispls) byte_rdispls.push_back(d * static_cast<MPI_Aint>(sizeof(int)));
  std::vector<int> result(x.recv_ints, kCanary);
  CallArguments w = large_form(Operation::alltoallv,
                               SideArguments{x.send.data(), 0, nullptr, nullptr, MPI_DATATYPE_NULL, types.data(),
                                             x.wide_counts.data(), byte_displs.data()},
                               SideArguments{result.data(), 0, nullptr, nullptr, MPI_DATATYPE_NULL, types.data(),
                                             x.wide_recvcounts.data(), byte_rdispls.data()});
  w.per_peer_types = true;
  EXPECT_EQ(exec::run_collective(w, named("direct")), MPI_SUCCESS) << topocoll_error_message();
  EXPECT_TRUE(same_elements(result, reference, 1)) << "alltoallw";
}

// The MPI library's own large-count call: MPI-4 libraries have it; older ones (Open MPI 4.1)
// cannot be asked, and `native` says so with MPI_ERR_UNSUPPORTED_OPERATION.
TEST_F(LargeCounts, NativeIsTheLibrarysLargeCountFormWhereItHasOne) {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  constexpr int kCount = 2;
  const std::vector<int> send = make_send_blocks(comm, kCount);
  std::vector<int> result(send.size(), kCanary);
  CallArguments call = large_form(Operation::alltoall, SideArguments{send.data(), kCount, nullptr, nullptr, MPI_INT},
                                  SideArguments{result.data(), kCount, nullptr, nullptr, MPI_INT});
  call.comm = comm;
  const int rc = exec::run_collective(call, named("native"));
#if MPI_VERSION >= 4
  EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
  EXPECT_TRUE(same_elements(result, expected_receive_blocks(comm, kCount), kCount));
#else
  int error_class = MPI_SUCCESS;
  MPI_Error_class(rc, &error_class);
  EXPECT_EQ(error_class, MPI_ERR_UNSUPPORTED_OPERATION);
  EXPECT_NE(std::string(topocoll_error_message()).find("MPI_Alltoall_c"), std::string::npos)
      << topocoll_error_message();
#endif
  MPI_Comm_free(&comm);
}

// A negative large count is named as the int forms' are.
TEST_F(LargeCounts, NegativeCountIsAClearError) {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  const int p = size_of(comm), rank = rank_in(comm);
  WideExchange x = make_wide(rank, p);
  x.wide_counts[0] = -(MPI_Count{1} << 40);
  std::vector<int> result(x.recv_ints, kCanary);
  CallArguments call = large_form(Operation::alltoallv,
                                  SideArguments{x.send.data(), 0, nullptr, nullptr, MPI_INT, nullptr,
                                                x.wide_counts.data(), x.wide_displs.data()},
                                  SideArguments{result.data(), 0, nullptr, nullptr, MPI_INT, nullptr,
                                                x.wide_recvcounts.data(), x.wide_rdispls.data()});
  call.comm = comm;
  const int rc = exec::run_collective(call, named("pairwise"));
  int error_class = MPI_SUCCESS;
  MPI_Error_class(rc, &error_class);
  EXPECT_EQ(error_class, MPI_ERR_COUNT);
  EXPECT_NE(std::string(topocoll_error_message()).find("send count 0 is negative (-1099511627776)"), std::string::npos)
      << topocoll_error_message();
  EXPECT_TRUE(result == std::vector<int>(x.recv_ints, kCanary));
  MPI_Comm_free(&comm);
}

}  // namespace
}  // namespace topocoll::testing
