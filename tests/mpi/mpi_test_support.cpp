// Implementation of the shared helpers of the real-MPI tests.
#include "mpi_test_support.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iostream>

#include "topocoll/topocoll.h"

namespace topocoll::testing {

int rank_in(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

int size_of(MPI_Comm comm) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  return size;
}

void MpiTest::TearDown() {
  const int failed_here = HasFailure() ? 1 : 0;
  int failed_anywhere = 0;
  MPI_Allreduce(&failed_here, &failed_anywhere, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (failed_anywhere && !failed_here) {
    ADD_FAILURE() << "failed on another rank (its failures are printed with its rank number)";
  }
}

void ErrorsReturnTest::SetUp() {
  MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
}

void ErrorsReturnTest::TearDown() {
  MPI_Comm_free(&comm_);
  MpiTest::TearDown();
}

const Algorithm& EveryAlgorithm::algorithm() const { return *find_algorithm(Operation::alltoall, GetParam()); }

std::vector<std::string> registry_algorithm_names() {
  std::vector<std::string> names;
  for (const Algorithm& algorithm : algorithms_for(Operation::alltoall)) names.emplace_back(algorithm.name);
  return names;
}

std::string test_name_of(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  return name;
}

bool applies(const Algorithm& algorithm, int p, std::size_t block_bytes, int group_width) {
  const Problem problem{p, block_bytes, nullptr, AlgorithmKnobs{group_width}};
  const Applicability applicability = algorithm.supports(problem);
  if (!applicability.ok && rank_in(MPI_COMM_WORLD) == 0) {
    std::cout << "[   NOTE   ] " << algorithm.name << " does not apply to p=" << p << ", " << block_bytes
              << "-byte blocks, group width " << group_width << ": " << applicability.reason << " (skipped)\n";
  }
  return applicability.ok;
}

int cell_value(int source, int destination, std::size_t index) {
  const std::uint32_t mixed = static_cast<std::uint32_t>(source) * 16777619u +
                              static_cast<std::uint32_t>(destination) * 65599u +
                              static_cast<std::uint32_t>(index) * 3u + 1u;
  return static_cast<int>(mixed & 0x7fffffffu);
}

std::vector<int> make_send_blocks(MPI_Comm comm, std::size_t count) {
  const int p = size_of(comm);
  const int rank = rank_in(comm);
  std::vector<int> blocks(static_cast<std::size_t>(p) * count);
  for (int d = 0; d < p; ++d) {
    for (std::size_t i = 0; i < count; ++i) blocks[static_cast<std::size_t>(d) * count + i] = cell_value(rank, d, i);
  }
  return blocks;
}

std::vector<int> expected_receive_blocks(MPI_Comm comm, std::size_t count) {
  const int p = size_of(comm);
  const int rank = rank_in(comm);
  std::vector<int> blocks(static_cast<std::size_t>(p) * count);
  for (int s = 0; s < p; ++s) {
    for (std::size_t i = 0; i < count; ++i) blocks[static_cast<std::size_t>(s) * count + i] = cell_value(s, rank, i);
  }
  return blocks;
}

}  // namespace topocoll::testing

namespace topocoll::testing {

::testing::AssertionResult same_elements(const std::vector<int>& actual, const std::vector<int>& expected,
                                         std::size_t per_block) {
  if (actual.size() != expected.size()) {
    return ::testing::AssertionFailure() << "sizes differ: " << actual.size() << " vs " << expected.size();
  }
  std::size_t differences = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    if (actual[i] != expected[i] && differences++ == 0) first = i;
  }
  if (differences == 0) return ::testing::AssertionSuccess();
  const std::size_t block = per_block == 0 ? 0 : first / per_block;
  return ::testing::AssertionFailure() << differences << " of " << actual.size()
                                       << " elements differ; first at element " << first << " (block " << block
                                       << "): " << actual[first] << " instead of " << expected[first];
}

std::string write_for_the_world(const std::string& path, const std::string& text) {
  if (rank_in(MPI_COMM_WORLD) == 0) std::ofstream(path) << text;
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

std::string write_mlfm_box_topology(int layers, int columns, int slots, bool reversed) {
  const int p = layers * columns * slots;
  std::string ranks;
  for (int r = 0; r < p; ++r) {
    const int s = reversed ? p - 1 - r : r;
    ranks += std::string(r ? ",\n    " : "") + "[\"column" + std::to_string((s / slots) % columns) + "\", \"layer" +
             std::to_string(s / (columns * slots)) + "\", \"slot" + std::to_string(s % slots) + "\"]";
  }
  return write_for_the_world("/tmp/topocoll_mlfm_box_" + std::to_string(layers) + "_" + std::to_string(columns) + "_" +
                                 std::to_string(slots) + (reversed ? "_reversed" : "") + ".json",
                             "{\"levels\": [\"column\", \"layer\", \"slot\"], \"ranks\": [\n    " + ranks + "]}\n");
}

std::string write_switches_of_hosts_topology() {
  const int p = size_of(MPI_COMM_WORLD);
  std::string ranks;
  for (int r = 0; r < p; ++r) {
    const int host = std::min(r / 2, std::max(p / 2 - 1, 0));
    ranks += std::string(r ? ",\n    " : "") + "[\"switch" + std::to_string(r < p / 2 ? 0 : 1) + "\", \"host" +
             std::to_string(host) + "\"]";
  }
  return write_for_the_world("/tmp/topocoll_switches_of_hosts_" + std::to_string(p) + ".json",
                             "{\"levels\": [\"switch\", \"host\"], \"ranks\": [\n    " + ranks + "]}\n");
}

AlltoallOptions algorithm_on(const std::string& algorithm, const std::string& topology) {
  AlltoallOptions options;
  options.algorithm = algorithm;
  options.topology = topology;
  return options;
}

void expect_matches_mpi_alltoall(MPI_Comm comm, std::size_t count, const AlltoallOptions& options, bool in_place) {
  const int n = static_cast<int>(count);
  std::vector<int> send = make_send_blocks(comm, count);
  std::vector<int> reference(send.size(), kCanary);
  MPI_Alltoall(send.data(), n, MPI_INT, reference.data(), n, MPI_INT, comm);
  std::vector<int> result = in_place ? send : std::vector<int>(send.size(), kCanary);
  const void* source = in_place ? MPI_IN_PLACE : static_cast<const void*>(send.data());
  const int rc = alltoall(source, n, MPI_INT, result.data(), n, MPI_INT, comm, options);
  EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
  EXPECT_TRUE(same_elements(result, reference, count))
      << options.algorithm << " on " << options.topology << ", count " << count << (in_place ? ", in place" : "");
}

IrregularExchange irregular_exchange(int rank, int p) {
  IrregularExchange x;
  for (auto* v : {&x.send_counts, &x.send_displs, &x.recv_counts, &x.recv_displs, &x.send_bytes, &x.recv_bytes}) {
    v->assign(std::size_t(p), 0);
  }
  for (int q = 0; q < p; ++q) {
    x.send_counts[q] = (rank + q) % 3;
    x.recv_counts[q] = (q + rank) % 3;
    x.send_displs[q] = q == 0 ? 0 : x.send_displs[q - 1] + x.send_counts[q - 1];
    x.recv_displs[q] = q == 0 ? 1 : x.recv_displs[q - 1] + x.recv_counts[q - 1] + 1;
    x.send_bytes[q] = x.send_displs[q] * int(sizeof(int));
    x.recv_bytes[q] = x.recv_displs[q] * int(sizeof(int));
  }
  x.recv_size = std::size_t(x.recv_displs[p - 1] + x.recv_counts[p - 1] + 1);
  return x;
}

MPI_Datatype every_other_int(int count) {
  MPI_Datatype strided = MPI_DATATYPE_NULL, resized = MPI_DATATYPE_NULL;
  MPI_Type_vector(count, 1, 2, MPI_INT, &strided);
  MPI_Type_create_resized(strided, 0, MPI_Aint(2 * count * sizeof(int)), &resized);
  MPI_Type_commit(&resized);
  MPI_Type_free(&strided);
  return resized;
}

void churn_datatypes() {
  for (int k = 1; k <= 8; ++k) {
    MPI_Datatype other = MPI_DATATYPE_NULL;
    MPI_Type_contiguous(k, MPI_DOUBLE, &other);
    MPI_Type_commit(&other);
    MPI_Type_free(&other);
  }
}

}  // namespace topocoll::testing
