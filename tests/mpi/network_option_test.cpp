// The executor's network (CollectiveOptions::network, TOPOCOLL_NETWORK). The problem it builds from
// a platform and the ranks' host names gives linkaware the mesh's routes: on the MLFM testbed's
// 24 A and 24 B jobs its phases are then at the link-load bound, where phases read from the
// topology as a tree are not. Bad input (a missing file, a platform that describes no network, a rank whose host
// the platform does not have: every real run here, whose host is this machine) is MPI_ERR_ARG
// naming the file and the problem, on every rank; algorithms that read no routes ignore it.
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "exec/network_discovery.hpp"
#include "mpi_test_support.hpp"
#include "schedule/link_loads.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"
#include "topology/topology_file.hpp"

namespace topocoll::testing {
namespace {

const std::string kPlatforms = std::string(TOPOCOLL_SOURCE_DIR) + "/platforms/";

std::vector<std::string> hostfile_hosts(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> hosts;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != '#') hosts.push_back(line.substr(0, line.find(':')));
  }
  return hosts;
}

// linkaware's worst link load on the mesh, and the bound, with and without the executor's network.
struct Loads {
  LinkLoads from_network, from_tree;
};

Loads linkaware_loads_on_job(const std::string& job) {
  const std::vector<std::string> hosts = hostfile_hosts(kPlatforms + "mlfm-d3-32-" + job + ".hosts");
  std::string error;
  const auto net = exec::network_for_hosts(kPlatforms + "mlfm-d3-32.xml", hosts, error);
  EXPECT_NE(net, nullptr) << error;
  const auto topology = load_topology_for(kPlatforms + "mlfm-d3-32.topology.json", RankPlacement::whole_world(hosts), &error);
  EXPECT_TRUE(topology.has_value()) << error;
  if (net == nullptr || !topology) return {};
  const Algorithm& linkaware = *find_algorithm(Operation::alltoall, "linkaware");
  Problem problem{static_cast<int>(hosts.size()), 64, &*topology, {}};
  const Schedule from_tree = build_full_schedule(linkaware, problem);
  problem.network = &net->placement;
  const Schedule from_network = build_full_schedule(linkaware, problem);
  return {link_loads(from_network, net->network, net->placement.host_of_rank),
          link_loads(from_tree, net->network, net->placement.host_of_rank)};
}

TEST(NetworkOption, LinkawareFromTheExecutorsNetworkIsAtTheBound) {
  if (rank_in(MPI_COMM_WORLD) != 0) GTEST_SKIP() << "schedules only: rank 0 checks them";
  const Loads a = linkaware_loads_on_job("3-4-2");  // 24 A
  EXPECT_EQ(a.from_network.link_load_bound, 1);
  EXPECT_EQ(a.from_network.max_flows_per_link, a.from_network.link_load_bound);
  EXPECT_GT(a.from_tree.max_flows_per_link, a.from_tree.link_load_bound);
  const Loads b = linkaware_loads_on_job("2-4-3");  // 24 B: the network's phases below the tree's
  EXPECT_EQ(b.from_network.max_flows_per_link, 1);
  EXPECT_LT(b.from_network.max_flows_per_link, b.from_tree.max_flows_per_link);
}

TEST(NetworkOption, HostsTheNetworkDoesNotHaveAreNamed) {
  std::string error;
  EXPECT_EQ(exec::network_for_hosts(kPlatforms + "mlfm-d3-32.xml", {"server0.0.0-0", "elsewhere"}, error), nullptr);
  EXPECT_NE(error.find("rank 1 runs on host 'elsewhere', which the network does not have"), std::string::npos)
      << error;
}

class NetworkErrors : public ErrorsReturnTest {
 protected:
  int run(const std::string& algorithm, const std::string& network) {
    const int p = size_of(comm_);
    std::vector<int> send(static_cast<std::size_t>(p), 1), recv(static_cast<std::size_t>(p), 0);
    AlltoallOptions options = algorithm_on(algorithm, "flat:" + std::to_string(p));
    options.network = network;
    return alltoall(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, comm_, options);
  }
  void expect_arg_error(int rc, const std::string& phrase) {
    int error_class = MPI_SUCCESS;
    MPI_Error_class(rc, &error_class);
    EXPECT_EQ(error_class, MPI_ERR_ARG) << "return code " << rc;
    const std::string message = topocoll_error_message();
    EXPECT_NE(message.find(phrase), std::string::npos) << "message: '" << message << "'";
  }
};

TEST_F(NetworkErrors, MissingFile) {
  expect_arg_error(run("linkaware", "/no/such/platform.xml"), "network '/no/such/platform.xml': cannot read");
}

TEST_F(NetworkErrors, PlatformWithoutANetwork) {
  expect_arg_error(run("linkaware", kPlatforms + "crossbar-16.xml"), "records no topocoll-platform");
}

TEST_F(NetworkErrors, HostNotOnThePlatform) {
  expect_arg_error(run("linkaware", kPlatforms + "mlfm-d3-32.xml"), "which the network does not have");
}

TEST_F(NetworkErrors, FromTheEnvironment) {
  setenv("TOPOCOLL_NETWORK", "/no/such/network.xml", 1);
  expect_arg_error(run("linkaware", ""), "network '/no/such/network.xml'");
  unsetenv("TOPOCOLL_NETWORK");
}

TEST_F(NetworkErrors, AlgorithmsThatReadNoRoutesIgnoreIt) {
  EXPECT_EQ(run("pairwise", "/no/such/platform.xml"), MPI_SUCCESS) << topocoll_error_message();
  EXPECT_EQ(run("bruck", "/no/such/platform.xml"), MPI_SUCCESS) << topocoll_error_message();
}

}  // namespace
}  // namespace topocoll::testing
