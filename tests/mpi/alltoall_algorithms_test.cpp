// Every algorithm of the registry against MPI_Alltoall on MPI_COMM_WORLD: MPI_INT blocks of
// 0, 1, 3, 1000 and 100000 elements, the C API, repeated calls (cached plans), MPI_IN_PLACE,
// and group-shuffle at several group widths.
#include <algorithm>
#include <set>
#include <string>

#include "mpi_test_support.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {
namespace {

// 100000 ints are 400 KB blocks: far past every eager/rendezvous threshold.
constexpr std::size_t kCounts[] = {0, 1, 3, 1000, 100000};

AlltoallOptions options_for(const std::string& algorithm) {
  AlltoallOptions options;
  options.algorithm = algorithm;
  return options;
}

// Runs `options` on world with `count` ints per block and checks it against MPI_Alltoall and
// against the values every rank sent.
void expect_matches_reference(std::size_t count, const AlltoallOptions& options) {
  const int n = static_cast<int>(count);
  std::vector<int> send = make_send_blocks(MPI_COMM_WORLD, count);
  std::vector<int> reference(send.size(), kCanary);
  std::vector<int> result(send.size(), kCanary);
  MPI_Alltoall(send.data(), n, MPI_INT, reference.data(), n, MPI_INT, MPI_COMM_WORLD);
  const int rc = alltoall(send.data(), n, MPI_INT, result.data(), n, MPI_INT, MPI_COMM_WORLD, options);
  EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
  EXPECT_TRUE(same_elements(result, reference, count)) << options.algorithm << ", count " << count;
  EXPECT_TRUE(same_elements(result, expected_receive_blocks(MPI_COMM_WORLD, count), count))
      << options.algorithm << ", count " << count;
}

TEST_P(EveryAlgorithm, MatchesMpiAlltoallForMpiInt) {
  const int p = size_of(MPI_COMM_WORLD);
  for (const std::size_t count : kCounts) {
    if (!applies(algorithm(), p, count * sizeof(int))) continue;
    expect_matches_reference(count, options_for(GetParam()));
  }
}

TEST_P(EveryAlgorithm, CApiMatchesMpiAlltoall) {
  const int p = size_of(MPI_COMM_WORLD);
  const int count = 3;
  if (!applies(algorithm(), p, count * sizeof(int))) GTEST_SKIP();
  std::vector<int> send = make_send_blocks(MPI_COMM_WORLD, count);
  std::vector<int> result(send.size(), kCanary);
  const int rc = topocoll_alltoall(send.data(), count, MPI_INT, result.data(), count, MPI_INT, MPI_COMM_WORLD,
                                   GetParam().c_str());
  EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
  EXPECT_TRUE(same_elements(result, expected_receive_blocks(MPI_COMM_WORLD, count), count));
}

TEST_P(EveryAlgorithm, RepeatedCallsWithNewDataStayCorrect) {
  const int p = size_of(MPI_COMM_WORLD);
  const int count = 17;
  if (!applies(algorithm(), p, count * sizeof(int))) GTEST_SKIP();
  std::vector<int> send = make_send_blocks(MPI_COMM_WORLD, count);
  std::vector<int> expected = expected_receive_blocks(MPI_COMM_WORLD, count);
  for (int call = 0; call < 3; ++call) {
    std::vector<int> result(send.size(), kCanary);
    const int rc = alltoall(send.data(), count, MPI_INT, result.data(), count, MPI_INT, MPI_COMM_WORLD,
                            options_for(GetParam()));
    EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
    EXPECT_TRUE(same_elements(result, expected, count)) << "call " << call;
    for (int& v : send) v += 1;
    for (int& v : expected) v += 1;
  }
}

TEST_P(EveryAlgorithm, InPlaceMatchesExpectedBlocks) {
  const int p = size_of(MPI_COMM_WORLD);
  for (const int count : {1, 1000}) {
    if (!applies(algorithm(), p, count * sizeof(int))) continue;
    std::vector<int> buffer = make_send_blocks(MPI_COMM_WORLD, count);
    const int rc = alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buffer.data(), count, MPI_INT, MPI_COMM_WORLD,
                            options_for(GetParam()));
    EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
    EXPECT_TRUE(same_elements(buffer, expected_receive_blocks(MPI_COMM_WORLD, count), count)) << "count " << count;
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, EveryAlgorithm, ::testing::ValuesIn(registry_algorithm_names()), test_name_of);

using KnobsAndDefaults = MpiTest;

TEST_F(KnobsAndDefaults, GroupShuffleAtSeveralWidths) {
  const int p = size_of(MPI_COMM_WORLD);
  const Algorithm& group_shuffle = *find_algorithm(Operation::alltoall, "group-shuffle");
  for (const int width : std::set<int>{1, 2, 3, std::max(1, p - 1), p, p + 3}) {
    for (const std::size_t count : {std::size_t{1}, std::size_t{1000}}) {
      if (!applies(group_shuffle, p, count * sizeof(int), width)) continue;
      AlltoallOptions options = options_for("group-shuffle");
      options.group_shuffle.group_width = width;
      SCOPED_TRACE("group width " + std::to_string(width));
      expect_matches_reference(count, options);
    }
  }
}

TEST_F(KnobsAndDefaults, DefaultAlgorithmIsPairwise) {
  EXPECT_EQ(CollectiveOptions{}.algorithm, "");  // the operation's default
  EXPECT_EQ(default_algorithm(Operation::alltoall), "pairwise");
  const int count = 5;
  std::vector<int> send = make_send_blocks(MPI_COMM_WORLD, count);
  std::vector<int> result(send.size(), kCanary);
  const int rc = topocoll_alltoall(send.data(), count, MPI_INT, result.data(), count, MPI_INT, MPI_COMM_WORLD,
                                   nullptr);
  EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
  EXPECT_TRUE(same_elements(result, expected_receive_blocks(MPI_COMM_WORLD, count), count));
  std::string chosen;
  CollectiveOptions defaults;
  defaults.chosen_algorithm = &chosen;
  std::fill(result.begin(), result.end(), kCanary);
  EXPECT_EQ(alltoall(send.data(), count, MPI_INT, result.data(), count, MPI_INT, MPI_COMM_WORLD, defaults),
            MPI_SUCCESS);
  EXPECT_EQ(chosen, "pairwise");
  EXPECT_TRUE(same_elements(result, expected_receive_blocks(MPI_COMM_WORLD, count), count));
}

}  // namespace
}  // namespace topocoll::testing
