// Flows per link and round (see link_loads.hpp).
#include "schedule/link_loads.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace topocoll {

namespace {

// One capacity: a link, and its direction for SPLITDUPLEX links (0 otherwise).
using Capacity = std::pair<int, int>;

LinkLoad describe(const network::Network& network, const Capacity& capacity, int flows) {
  const network::Link& link = network.links[static_cast<std::size_t>(capacity.first)];
  std::string direction;
  if (link.sharing == network::Sharing::splitduplex) direction = capacity.second == 1 ? "DOWN" : "UP";
  return {link.id, direction, flows};
}

}  // namespace

LinkLoads link_loads(const Schedule& schedule, const network::Network& network, const std::vector<int>& host_of_rank,
                     std::size_t keep) {
  std::size_t rounds = 0;
  for (const RankSchedule& rs : schedule.ranks) rounds = std::max(rounds, rs.rounds.size());
  std::vector<std::map<Capacity, int>> flows(rounds);
  std::vector<network::Hop> hops;
  for (std::size_t r = 0; r < schedule.ranks.size(); ++r) {
    const RankSchedule& rs = schedule.ranks[r];
    for (std::size_t t = 0; t < rs.rounds.size(); ++t) {
      for (const Transfer& send : rs.rounds[t].sends) {
        const int from = host_of_rank[r], to = host_of_rank[static_cast<std::size_t>(send.peer)];
        if (from == to) continue;
        network.route(from, to, hops);
        const std::size_t last = std::min(rounds - 1, t + send.overlap_rounds);
        for (const network::Hop& h : hops) {
          const network::Link& link = network.links[static_cast<std::size_t>(h.link)];
          if (!link.is_cut()) continue;
          const Capacity capacity{h.link, link.sharing == network::Sharing::splitduplex && h.down ? 1 : 0};
          for (std::size_t u = t; u <= last; ++u) ++flows[u][capacity];
        }
      }
    }
  }
  LinkLoads loads;
  loads.rounds.resize(rounds);
  for (std::size_t t = 0; t < rounds; ++t) {
    std::vector<std::pair<Capacity, int>> sorted(flows[t].begin(), flows[t].end());
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
  return loads;
}

}  // namespace topocoll
