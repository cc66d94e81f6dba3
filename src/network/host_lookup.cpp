#include "network/host_lookup.hpp"

#include <map>

namespace topocoll::network {

std::optional<std::vector<int>> host_indices(const Network& network, const std::vector<std::string>& rank_hosts,
                                             std::string* error) {
  std::map<std::string, int> index;
  const std::vector<std::string> names = network.hosts();
  for (std::size_t h = 0; h < names.size(); ++h) index.emplace(names[h], static_cast<int>(h));
  std::vector<int> hosts;
  hosts.reserve(rank_hosts.size());
  for (std::size_t r = 0; r < rank_hosts.size(); ++r) {
    const auto it = index.find(rank_hosts[r]);
    if (it == index.end()) {
      if (error != nullptr) {
        *error = "rank " + std::to_string(r) + " runs on host '" + rank_hosts[r] + "', which the network does not have (its hosts: " +
                 (names.empty() ? std::string("none") : names.front() + " ... " + names.back()) + ")";
      }
      return std::nullopt;
    }
    hosts.push_back(it->second);
  }
  return hosts;
}

}  // namespace topocoll::network
