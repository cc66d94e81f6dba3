// Routes between ranks from a network or a topology (see rank_routes.hpp).
#include "algorithms/rank_routes.hpp"

#include <utility>

#include "schedule/link_loads.hpp"

namespace topocoll {

RankRoutes::RankRoutes(int size, int capacities, std::vector<std::vector<int>> routes)
    : size_(size), capacities_(capacities) {
  first_.reserve(routes.size() + 1);
  first_.push_back(0);
  // FNV-1a over each route's length and ids.
  std::uint64_t hash = 14695981039346656037ULL;
  const auto mix = [&hash](std::uint64_t value) {
    for (int byte = 0; byte < 8; ++byte) {
      hash ^= (value >> (8 * byte)) & 0xffU;
      hash *= 1099511628211ULL;
    }
  };
  for (const std::vector<int>& route : routes) {
    ids_.insert(ids_.end(), route.begin(), route.end());
    first_.push_back(ids_.size());
    mix(route.size());
    for (const int id : route) mix(static_cast<std::uint32_t>(id));
  }
  fingerprint_ = hash;
}

std::vector<long long> RankRoutes::crossings() const {
  std::vector<long long> crossed(static_cast<std::size_t>(capacities_), 0);
  for (int from = 0; from < size_; ++from) {
    for (int to = 0; to < size_; ++to) {
      if (from == to) continue;
      for (const int c : route(from, to)) ++crossed[static_cast<std::size_t>(c)];
    }
  }
  return crossed;
}

namespace {

RankRoutes routes_on_network(const NetworkPlacement& placement, int p) {
  const network::Network& net = *placement.network;
  std::vector<std::vector<int>> routes(static_cast<std::size_t>(p) * static_cast<std::size_t>(p));
  std::vector<network::Hop> hops;
  for (int from = 0; from < p; ++from) {
    for (int to = 0; to < p; ++to) {
      if (from == to) continue;
      route_capacities(net, placement.host_of_rank[static_cast<std::size_t>(from)],
                       placement.host_of_rank[static_cast<std::size_t>(to)],
                       routes[static_cast<std::size_t>(from) * static_cast<std::size_t>(p) + static_cast<std::size_t>(to)],
                       hops);
    }
  }
  RankRoutes result(p, 2 * static_cast<int>(net.links.size()), std::move(routes));
  result.source = "the network's routes";
  return result;
}

// Capacity ids of the tree: rank r's link to its innermost switch is 2r up and 2r+1 down; group g
// of level l's link to its parent is first_of_level[l] + 2g up, + 1 down.
RankRoutes routes_on_tree(const Topology& topology, int p) {
  const int levels = topology.level_count();
  std::vector<int> first_of_level(static_cast<std::size_t>(levels) + 1, 2 * p);
  for (int l = 0; l < levels; ++l) {
    first_of_level[static_cast<std::size_t>(l) + 1] = first_of_level[static_cast<std::size_t>(l)] + 2 * topology.group_count(l);
  }
  const auto up = [&](int rank, int l) { return first_of_level[static_cast<std::size_t>(l)] + 2 * topology.group(rank, l); };
  std::vector<std::vector<int>> routes(static_cast<std::size_t>(p) * static_cast<std::size_t>(p));
  for (int from = 0; from < p; ++from) {
    for (int to = 0; to < p; ++to) {
      if (from == to) continue;
      std::vector<int>& route = routes[static_cast<std::size_t>(from) * static_cast<std::size_t>(p) + static_cast<std::size_t>(to)];
      route.push_back(2 * from);
      const int separating = topology.separating_level(from, to);
      // Group ids are paths from the outermost level, so below the separating level the two
      // ranks' groups differ too: up through each of the sender's, down through the receiver's.
      if (separating >= 0) {
        for (int l = levels - 1; l >= separating; --l) route.push_back(up(from, l));
        for (int l = separating; l < levels; ++l) route.push_back(up(to, l) + 1);
      }
      route.push_back(2 * to + 1);
    }
  }
  RankRoutes result(p, first_of_level.back(), std::move(routes));
  result.source = "the topology read as a tree of switches (" + topology.describe() + ")";
  return result;
}

}  // namespace

bool routes_available(const Problem& problem, std::string* why_not) {
  const auto fail = [why_not](std::string reason) {
    if (why_not) *why_not = std::move(reason);
    return false;
  };
  const int p = problem.size;
  if (problem.network != nullptr) {
    const NetworkPlacement& placement = *problem.network;
    if (placement.network == nullptr || placement.host_of_rank.size() != static_cast<std::size_t>(p)) {
      return fail("needs the host of each of the " + std::to_string(p) + " ranks on the network");
    }
    for (const int host : placement.host_of_rank) {
      if (host < 0 || host >= placement.network->host_count()) {
        return fail("was given host " + std::to_string(host) + ", which the network does not have");
      }
    }
    return true;
  }
  if (problem.topology == nullptr) {
    return fail("needs the routes between the ranks: a network (topocoll-plan --network PLATFORM.xml) or a topology");
  }
  if (problem.topology->size() != p) {
    return fail("needs a topology describing all " + std::to_string(p) + " ranks; it describes " +
                std::to_string(problem.topology->size()));
  }
  return true;
}

std::optional<RankRoutes> rank_routes(const Problem& problem, std::string* why_not) {
  if (!routes_available(problem, why_not)) return std::nullopt;
  if (problem.network != nullptr) return routes_on_network(*problem.network, problem.size);
  return routes_on_tree(*problem.topology, problem.size);
}

}  // namespace topocoll
