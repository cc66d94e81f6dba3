#include "exec/network_discovery.hpp"

#include <exception>
#include <utility>

#include "exec/topology_discovery.hpp"
#include "network/host_lookup.hpp"
#include "network/platform_description.hpp"

namespace topocoll::exec {

std::unique_ptr<CommNetwork> network_for_hosts(const std::string& path, const std::vector<std::string>& rank_hosts,
                                               std::string& error) {
  auto loaded = std::make_unique<CommNetwork>();
  try {
    loaded->network = network::network_of_platform(path);
  } catch (const std::exception& e) {
    error = e.what();
    return nullptr;
  }
  auto hosts = network::host_indices(loaded->network, rank_hosts, &error);
  if (!hosts) return nullptr;
  loaded->placement = {&loaded->network, std::move(*hosts)};
  return loaded;
}

MaybeFailure discover_network(MPI_Comm comm, const std::string& path, std::unique_ptr<CommNetwork>& out) {
  RankPlacement placement;
  if (auto failure = discover_placement(comm, placement)) return failure;
  std::string problem;
  std::unique_ptr<CommNetwork> loaded = network_for_hosts(path, placement.host, problem);
  int usable_here = loaded ? 1 : 0, usable_everywhere = 0;
  const int rc = MPI_Allreduce(&usable_here, &usable_everywhere, 1, MPI_INT, MPI_MIN, comm);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Allreduce", rc);
  const std::string what = "network '" + path + "': ";
  if (!loaded) return Failure{MPI_ERR_ARG, what + problem};
  if (!usable_everywhere) return Failure{MPI_ERR_ARG, what + "another rank cannot use it (it says why)"};
  out = std::move(loaded);
  return std::nullopt;
}

}  // namespace topocoll::exec
