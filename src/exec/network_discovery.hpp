// The network a communicator runs on, for algorithms that read routes (linkaware): the SimGrid
// platform a path names (CollectiveOptions::network, TOPOCOLL_NETWORK; a platform written by
// topocoll-platform, which records the command that describes its network), and the host of each
// rank, found by its MPI_Get_processor_name (under SMPI the simulated host's name).
// Collective over the communicator.
#pragma once

#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "algorithms/problem.hpp"
#include "exec/failure.hpp"
#include "network/network.hpp"

namespace topocoll::exec {

// A network and where the communicator's ranks are on it; placement.network points at `network`.
struct CommNetwork {
  network::Network network;
  NetworkPlacement placement;
};

// The network of the platform at `path` with rank r on the host named rank_hosts[r]; null, with
// `error` saying why (the file cannot be read or describes no network, a host the network does not
// have), otherwise. Local: no MPI.
std::unique_ptr<CommNetwork> network_for_hosts(const std::string& path, const std::vector<std::string>& rank_hosts,
                                               std::string& error);

// The network of the platform at `path` with the host of every rank of `comm`. MPI_ERR_ARG naming
// the path and the problem (a file that cannot be read or describes no network, a rank's host that
// the network does not have) on every rank when any rank cannot use it, so all reach the same
// verdict.
MaybeFailure discover_network(MPI_Comm comm, const std::string& path, std::unique_ptr<CommNetwork>& out);

}  // namespace topocoll::exec
