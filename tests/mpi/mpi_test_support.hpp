// Helpers shared by the real-MPI tests: the fixture that makes all ranks agree on each test's
// verdict, the registry's algorithm names as test parameters, fillers whose values encode
// (source, destination, index), and the reference MPI_Alltoall.
#pragma once

#include <mpi.h>

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "algorithms/problem.hpp"
#include "algorithms/registry.hpp"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {

int rank_in(MPI_Comm comm);
int size_of(MPI_Comm comm);

// Every test runs on every rank and ends with an MPI_Allreduce of "did I fail": a rank whose
// own checks passed fails too when another rank failed, so rank 0's report covers all.
// Tests use EXPECT_* only: an ASSERT returning early on one rank would skip a collective
// that the others enter.
class MpiTest : public ::testing::Test {
 protected:
  void TearDown() override;
};

// A test on its own duplicate of MPI_COMM_WORLD whose handler is MPI_ERRORS_RETURN (`comm_`), so
// that topocoll's errors come back as codes.
class ErrorsReturnTest : public MpiTest {
 protected:
  void SetUp() override;
  void TearDown() override;
  MPI_Comm comm_ = MPI_COMM_NULL;
};

// Parameterised over algorithm names.
class EveryAlgorithm : public MpiTest, public ::testing::WithParamInterface<std::string> {
 protected:
  const Algorithm& algorithm() const;
};

// Every name in the registry, so that new algorithms are covered automatically.
std::vector<std::string> registry_algorithm_names();
// "group-shuffle" -> "group_shuffle" (test names must be identifiers).
std::string test_name_of(const ::testing::TestParamInfo<std::string>& info);

// Whether `algorithm` applies to p ranks, blocks of `block_bytes` and the given group width;
// when not, rank 0 says so on stdout (the caller then skips that case).
bool applies(const Algorithm& algorithm, int p, std::size_t block_bytes, int group_width = 4);

// The value of element `index` of the block `source` sends to `destination`.
int cell_value(int source, int destination, std::size_t index);
// A send buffer of p blocks of `count` ints, block d holding cell_value(rank, d, i).
std::vector<int> make_send_blocks(MPI_Comm comm, std::size_t count);
// What this rank should hold after an alltoall of `count` ints: block s = cell_value(s, rank, i).
std::vector<int> expected_receive_blocks(MPI_Comm comm, std::size_t count);

inline constexpr int kCanary = -559038737;  // 0xDEADBEEF: "never written"

}  // namespace topocoll::testing

namespace topocoll::testing {

// Element-wise comparison that reports the first difference (block and index), not the
// whole buffer.
::testing::AssertionResult same_elements(const std::vector<int>& actual, const std::vector<int>& expected,
                                         std::size_t per_block);

// Writes `text` to `path` on rank 0 of the world, which every rank then reads (a barrier
// follows); returns `path`.
std::string write_for_the_world(const std::string& path, const std::string& text);

// The topology file of a multi-layer full mesh's box of layers x columns x slots servers (levels
// column, layer, slot, one entry per rank, as topocoll-platform mlfm names them): rank r is the
// r-th server in box order (layer, then column, then slot), or the (p-1-r)-th when `reversed`.
// Written by rank 0 of the world and read by all; returns its path.
std::string write_mlfm_box_topology(int layers, int columns, int slots, bool reversed);

// The topology file of two switches of hosts (levels switch, host; one entry per rank): the
// first half of the world's ranks under one switch, the rest under the other; rank r on host
// r / 2 (the last host also takes any rank beyond), so the host level splits the switches.
// Written by rank 0 of the world and read by all; returns its path.
std::string write_switches_of_hosts_topology();

// Options running `algorithm` on the machine `topology` (a spec or file; "" for none).
AlltoallOptions algorithm_on(const std::string& algorithm, const std::string& topology);

// topocoll's alltoall of `count` ints per block on `comm` (in place when asked) succeeds and
// gives what MPI_Alltoall gives.
void expect_matches_mpi_alltoall(MPI_Comm comm, std::size_t count, const AlltoallOptions& options,
                                 bool in_place = false);

// An irregular exchange of ints on `p` ranks as seen by `rank`: block r -> q holds (r + q) % 3
// ints (some empty), packed on the send side, with a gap of one int before each receive block;
// the displacements also in bytes (alltoallw's).
struct IrregularExchange {
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs, send_bytes, recv_bytes;
  std::size_t recv_size = 0;  // ints the receive buffer needs
};
IrregularExchange irregular_exchange(int rank, int p);

// A strided type whose blocks are every other int of 2 x `count`, committed: the caller's to free.
MPI_Datatype every_other_int(int count);
// Makes, commits and frees a few datatypes: after a program freed one, they take its handle's
// place (what a run that still used the freed handle would then read).
void churn_datatypes();

}  // namespace topocoll::testing
