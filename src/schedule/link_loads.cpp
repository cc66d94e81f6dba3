// Flows per link and round (see link_loads.hpp).
#include "schedule/link_loads.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace topocoll {

namespace {

LinkLoad describe(const network::Network& network, int capacity, int flows) {
  const network::Link& link = network.links[static_cast<std::size_t>(capacity / 2)];
  std::string direction;
  if (link.sharing == network::Sharing::splitduplex) direction = capacity % 2 == 1 ? "DOWN" : "UP";
  return {link.id, direction, flows};
}

}  // namespace

void route_capacities(const network::Network& network, int from, int to, std::vector<int>& capacities,
                      std::vector<network::Hop>& hops) {
  capacities.clear();
  if (from == to) return;
  network.route(from, to, hops);
  for (const network::Hop& h : hops) {
    const network::Link& link = network.links[static_cast<std::size_t>(h.link)];
    if (!link.is_cut()) continue;
    capacities.push_back(2 * h.link + (link.sharing == network::Sharing::splitduplex && h.down ? 1 : 0));
  }
}

int link_load_bound(long long flows, std::size_t rounds) {
  if (rounds == 0) return 0;
  const auto r = static_cast<long long>(rounds);
  return static_cast<int>((flows + r - 1) / r);
}

LinkLoads link_loads(const Schedule& schedule, const network::Network& network, const std::vector<int>& host_of_rank,
                     std::size_t keep) {
  std::size_t rounds = 0;
  for (const RankSchedule& rs : schedule.ranks) rounds = std::max(rounds, rs.rounds.size());
  std::vector<std::map<int, int>> flows(rounds);
  std::map<int, long long> overall;  // flow-rounds per capacity over the whole schedule
  std::vector<network::Hop> hops;
  std::vector<int> capacities;
  for (std::size_t r = 0; r < schedule.ranks.size(); ++r) {
    const RankSchedule& rs = schedule.ranks[r];
    for (std::size_t t = 0; t < rs.rounds.size(); ++t) {
      for (const Transfer& send : rs.rounds[t].sends) {
        route_capacities(network, host_of_rank[r], host_of_rank[static_cast<std::size_t>(send.peer)], capacities, hops);
        const std::size_t last = std::min(rounds - 1, t + send.overlap_rounds);
        for (const int capacity : capacities) {
          for (std::size_t u = t; u <= last; ++u) ++flows[u][capacity];
          overall[capacity] += static_cast<long long>(last - t + 1);
        }
      }
    }
  }
  LinkLoads loads;
  loads.rounds.resize(rounds);
  for (std::size_t t = 0; t < rounds; ++t) {
    std::vector<std::pair<int, int>> sorted(flows[t].begin(), flows[t].end());
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    RoundLinkLoads& round = loads.rounds[t];
    for (std::size_t i = 0; i < sorted.size() && i < keep; ++i) {
      round.busiest.push_back(describe(network, sorted[i].first, sorted[i].second));
    }
    round.max_flows = sorted.empty() ? 0 : sorted.front().second;
    if (round.max_flows > 1) ++loads.rounds_with_shared_links;
    if (round.max_flows > loads.max_flows_per_link) {
      loads.max_flows_per_link = round.max_flows;
      loads.worst = round.busiest.front();
      loads.worst_round = t;
    }
  }
  long long busiest = 0;
  for (const auto& [capacity, total] : overall) {
    if (total <= busiest) continue;
    busiest = total;
    loads.busiest_overall = describe(network, capacity, static_cast<int>(total));
  }
  loads.link_load_bound = link_load_bound(busiest, rounds);
  return loads;
}

}  // namespace topocoll
