// The routes and link bandwidths the cost model charges (see routed_capacities.hpp).
#include "model/routed_capacities.hpp"

#include <utility>

namespace topocoll {

std::optional<RoutedCapacities> routed_capacities(const Problem& problem) {
  if (problem.network == nullptr || problem.network->network == nullptr || problem.size > kRoutedUpToRanks) {
    return std::nullopt;
  }
  std::optional<RankRoutes> routes = rank_routes(problem, nullptr);
  if (!routes) return std::nullopt;
  const network::Network& net = *problem.network->network;
  // Capacity 2l is link l (its UP side when SPLITDUPLEX), 2l + 1 its DOWN side: link_loads.hpp.
  std::vector<double> bytes_per_us(static_cast<std::size_t>(routes->capacities()));
  for (std::size_t c = 0; c < bytes_per_us.size(); ++c) bytes_per_us[c] = net.links[c / 2].bandwidth / 1e6;
  return RoutedCapacities{std::move(*routes), std::move(bytes_per_us)};
}

}  // namespace topocoll
