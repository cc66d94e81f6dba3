// auto on real MPI: with a calibration it runs the algorithm its cost model prefers, byte-exact
// against MPI_Alltoall and MPI_Alltoallv, the same on every rank; without one, or with a broken
// one, it is a clear error.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "mpi_test_support.hpp"
#include "select/calibration.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"
#include "topology/topology.hpp"

namespace topocoll::testing {
namespace {

class Auto : public MpiTest {};

const std::string kCalibration = std::string(TOPOCOLL_SOURCE_DIR) + "/platforms/crossbar-16.calibration.json";

// Whether every rank of `comm` holds the same text as rank 0 (up to 255 characters).
bool same_on_every_rank(const std::string& text, MPI_Comm comm) {
  std::array<char, 256> first{};
  if (rank_in(comm) == 0) text.copy(first.data(), first.size() - 1);
  MPI_Bcast(first.data(), static_cast<int>(first.size()), MPI_CHAR, 0, comm);
  int mine = text.substr(0, first.size() - 1) == first.data() ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, comm);
  return all == 1;
}

AlltoallOptions auto_with(const std::string& calibration) {
  AlltoallOptions options;
  options.algorithm = "auto";
  options.calibration = calibration;
  return options;
}

TEST_F(Auto, MatchesMpiAlltoall) {
  for (std::size_t count : {std::size_t{1}, std::size_t{1000}, std::size_t{100000}}) {
    const int n = static_cast<int>(count);
    std::vector<int> send = make_send_blocks(MPI_COMM_WORLD, count);
    std::vector<int> reference(send.size(), kCanary), result(send.size(), kCanary);
    MPI_Alltoall(send.data(), n, MPI_INT, reference.data(), n, MPI_INT, MPI_COMM_WORLD);
    const int rc = alltoall(send.data(), n, MPI_INT, result.data(), n, MPI_INT, MPI_COMM_WORLD,
                            auto_with(kCalibration));
    EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
    EXPECT_TRUE(same_elements(result, reference, count)) << "count " << count;
  }
}

TEST_F(Auto, MatchesMpiAlltoallvFromTheEnvironment) {
  const int rank = rank_in(MPI_COMM_WORLD), p = size_of(MPI_COMM_WORLD);
  std::vector<int> sendcounts, sdispls, recvcounts, rdispls, send;
  for (int q = 0; q < p; ++q) {
    sendcounts.push_back((rank + q) % 3 == 0 ? 0 : 10 * (1 + (rank * q) % 4));
    sdispls.push_back(static_cast<int>(send.size()));
    for (int i = 0; i < sendcounts.back(); ++i) send.push_back(cell_value(rank, q, static_cast<std::size_t>(i)));
  }
  int at = 0;
  for (int q = 0; q < p; ++q) {
    recvcounts.push_back((q + rank) % 3 == 0 ? 0 : 10 * (1 + (q * rank) % 4));
    rdispls.push_back(at);
    at += recvcounts.back();
  }
  send.push_back(kCanary);
  std::vector<int> reference(static_cast<std::size_t>(at) + 1, kCanary), result = reference;
  MPI_Alltoallv(send.data(), sendcounts.data(), sdispls.data(), MPI_INT, reference.data(), recvcounts.data(),
                rdispls.data(), MPI_INT, MPI_COMM_WORLD);
  setenv("TOPOCOLL_CALIBRATION", kCalibration.c_str(), 1);
  const int rc = alltoallv(send.data(), sendcounts.data(), sdispls.data(), MPI_INT, result.data(), recvcounts.data(),
                           rdispls.data(), MPI_INT, MPI_COMM_WORLD, auto_with(""));
  unsetenv("TOPOCOLL_CALIBRATION");
  EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
  EXPECT_TRUE(result == reference);
}

// An alltoallv of `count(from, to)` ints on `comm` with auto, checked against MPI_Alltoallv;
// returns what auto ran.
template <typename Count>
std::string auto_alltoallv_matches(MPI_Comm comm, Count count) {
  const int rank = rank_in(comm), p = size_of(comm);
  std::vector<int> sendcounts, sdispls, recvcounts, rdispls, send;
  int at = 0;
  for (int q = 0; q < p; ++q) {
    sendcounts.push_back(count(rank, q));
    sdispls.push_back(static_cast<int>(send.size()));
    for (int i = 0; i < sendcounts.back(); ++i) send.push_back(cell_value(rank, q, static_cast<std::size_t>(i)));
    recvcounts.push_back(count(q, rank));
    rdispls.push_back(at);
    at += recvcounts.back();
  }
  std::vector<int> reference(static_cast<std::size_t>(at) + 1, kCanary), result = reference;
  MPI_Alltoallv(send.data(), sendcounts.data(), sdispls.data(), MPI_INT, reference.data(), recvcounts.data(),
                rdispls.data(), MPI_INT, comm);
  std::string chosen;
  AlltoallOptions options = auto_with(kCalibration);
  options.chosen_algorithm = &chosen;
  const int rc = alltoallv(send.data(), sendcounts.data(), sdispls.data(), MPI_INT, result.data(), recvcounts.data(),
                           rdispls.data(), MPI_INT, comm, options);
  EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
  EXPECT_TRUE(result == reference) << chosen;
  EXPECT_TRUE(same_on_every_rank(chosen, comm)) << chosen;
  return chosen;
}

// Skewed traffic (every rank sends the last rank 50 times its other blocks) and sparse traffic
// (each rank sends to itself and one other): auto prices the call's shape, which every rank
// learns alike, so every rank runs the same algorithm, and the result is MPI_Alltoallv's, call
// after call (the second call finds the choice cached).
TEST_F(Auto, SkewedAndSparseTrafficMatchMpiAlltoallvWithOneChoice) {
  const int p = size_of(MPI_COMM_WORLD);
  const auto skewed = [p](int, int to) { return to == p - 1 ? 500 : 10; };
  const auto sparse = [p](int from, int to) { return (to == from || to == (from + 1) % p) ? 7 : 0; };
  for (int call = 0; call < 2; ++call) auto_alltoallv_matches(MPI_COMM_WORLD, skewed);
  for (int call = 0; call < 2; ++call) auto_alltoallv_matches(MPI_COMM_WORLD, sparse);
}

// From its second call on, a communicator's auto chooses by the previous call's traffic summary,
// which travels between the calls (MPI_Iallreduce): calls whose traffic changes from one to the
// next stay byte-exact with one choice on every rank, and freeing the communicator completes
// the summary still on its way (a later communicator works on). Whether the model sees the
// traffic is the schedule tests' part (TrafficSummary.*).
TEST_F(Auto, AlltoallvWithItsSummaryInFlightBetweenCalls) {
  const int p = size_of(MPI_COMM_WORLD);
  const auto even = [](int, int) { return 2000; };
  const auto hot = [p](int, int to) { return to == p - 1 ? 40000 : 1; };
  const auto sparse = [p](int from, int to) { return to == (from + 1) % p ? 300 : 0; };
  for (int round = 0; round < 2; ++round) {
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    auto_alltoallv_matches(comm, even);
    auto_alltoallv_matches(comm, hot);
    auto_alltoallv_matches(comm, sparse);
    auto_alltoallv_matches(comm, hot);
    auto_alltoallv_matches(comm, even);
    MPI_Comm_free(&comm);
  }
  auto_alltoallv_matches(MPI_COMM_WORLD, hot);  // left in flight until MPI_Finalize
}

TEST_F(Auto, WithoutOrWithABrokenCalibrationIsAClearError) {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  unsetenv("TOPOCOLL_CALIBRATION");
  std::vector<int> send = make_send_blocks(comm, 4), result(send.size(), kCanary);
  int rc = alltoall(send.data(), 4, MPI_INT, result.data(), 4, MPI_INT, comm, auto_with(""));
  int error_class = MPI_SUCCESS;
  MPI_Error_class(rc, &error_class);
  EXPECT_EQ(error_class, MPI_ERR_ARG);
  EXPECT_NE(std::string(topocoll_error_message()).find("TOPOCOLL_CALIBRATION"), std::string::npos)
      << topocoll_error_message();

  const std::string broken = "/tmp/topocoll_auto_test_" + std::to_string(size_of(comm)) + ".json";
  if (rank_in(comm) == 0) std::ofstream(broken) << R"({"format": "topocoll-calibration 1", "levels": 3})";
  MPI_Barrier(comm);
  rc = alltoall(send.data(), 4, MPI_INT, result.data(), 4, MPI_INT, comm, auto_with(broken));
  MPI_Error_class(rc, &error_class);
  EXPECT_EQ(error_class, MPI_ERR_ARG);
  EXPECT_NE(std::string(topocoll_error_message()).find(broken), std::string::npos) << topocoll_error_message();
  EXPECT_TRUE(result == std::vector<int>(send.size(), kCanary)) << "receive buffer touched";
  MPI_Barrier(comm);
  if (rank_in(comm) == 0) std::remove(broken.c_str());
  MPI_Comm_free(&comm);
}

// auto's choices are kept per communicator by everything they depend on: the same call under two
// calibrations whose decision tables name different algorithms runs each one's, however the
// calls alternate (a key that left the calibration out would run the first one's for both).
TEST_F(Auto, EachCalibrationKeepsItsOwnChoice) {
  const int p = size_of(MPI_COMM_WORLD);
  const std::string spec = "flat:" + std::to_string(p);
  std::string error;
  const auto flat = Topology::parse(spec, &error);
  ASSERT_TRUE(flat) << error;
  // As auto sees it: the node level of the host names added (the test's ranks share one).
  const Topology topology = flat->with_inner_level("node", std::vector<int>(static_cast<std::size_t>(p), 0));
  auto calibration = load_calibration(kCalibration, &error);
  ASSERT_TRUE(calibration) << error;
  const std::string prefix = "/tmp/topocoll_auto_key_test_" + std::to_string(p) + "_";
  const std::vector<std::string> named = {"pairwise", "direct"};
  std::vector<std::string> paths;
  for (const std::string& algorithm : named) {
    paths.push_back(prefix + algorithm + ".json");
    calibration->decisions = {{Operation::alltoall, p, topology_shape(topology), 1, 1 << 20, algorithm, {}}};
    if (rank_in(MPI_COMM_WORLD) == 0) std::ofstream(paths.back()) << calibration_to_json(*calibration);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  std::vector<int> send = make_send_blocks(MPI_COMM_WORLD, 4), result(send.size(), kCanary);
  for (int round = 0; round < 3; ++round) {
    for (std::size_t i = 0; i < paths.size(); ++i) {
      AlltoallOptions options = auto_with(paths[i]);
      options.topology = spec;
      std::string chosen, by;
      options.chosen_algorithm = &chosen;
      options.chosen_by = &by;
      EXPECT_EQ(alltoall(send.data(), 4, MPI_INT, result.data(), 4, MPI_INT, MPI_COMM_WORLD, options), MPI_SUCCESS)
          << topocoll_error_message();
      EXPECT_EQ(chosen, named[i]) << "round " << round << ": " << by;
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank_in(MPI_COMM_WORLD) == 0) {
    for (const std::string& path : paths) std::remove(path.c_str());
  }
}

}  // namespace
}  // namespace topocoll::testing
