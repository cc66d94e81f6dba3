// Which host of a network each rank runs on, from the rank's host name (a hostfile's line, or
// MPI_Get_processor_name: under SMPI the simulated host's name).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "network/network.hpp"

namespace topocoll::network {

// The index in `network` of every name in `rank_hosts` (entry r: rank r's host); nullopt, with
// `error` naming the first rank whose host the network does not have, otherwise.
std::optional<std::vector<int>> host_indices(const Network& network, const std::vector<std::string>& rank_hosts,
                                             std::string* error);

}  // namespace topocoll::network
