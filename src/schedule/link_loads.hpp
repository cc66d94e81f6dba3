// The flows a schedule puts on each link of a network, round by round: every message rides the
// route from its sender's host to its receiver's, and in each round it is in flight (a transfer
// kept in flight across rounds counts in every round it spans) it is one flow on each link of
// that route. Only links whose capacity flows share count (network::Link::is_cut: each direction
// of a SPLITDUPLEX link, both directions of a SHARED one together); messages between ranks on
// one host cross no link. The worst load says where a schedule's messages pile up: more than
// one flow on a link in a round means they share its bandwidth. The bound beside it: in R rounds
// a link that the schedule's messages cross F times in all carries at least ceil(F / R) flows in
// some round, whatever the order; a schedule at its bound spreads its busiest link's flows evenly.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "network/network.hpp"
#include "schedule/schedule.hpp"

namespace topocoll {

struct LinkLoad {
  std::string link;      // the link's id
  std::string direction;  // "UP", "DOWN" (SPLITDUPLEX) or "" (one capacity for both)
  int flows = 0;
};

struct RoundLinkLoads {
  std::vector<LinkLoad> busiest;  // the most loaded links of the round, most flows first
  int max_flows = 0;              // 0 when the round sends nothing across a link
};

struct LinkLoads {
  std::vector<RoundLinkLoads> rounds;
  int max_flows_per_link = 0;           // the worst over all rounds and links
  LinkLoad worst;                        // where (first found), and in which round
  std::size_t worst_round = 0;
  std::size_t rounds_with_shared_links = 0;  // rounds where some link carries two flows or more
  // The lower bound on max_flows_per_link for these rounds: ceil(F / rounds), F the most
  // flow-rounds on one link over the whole schedule (busiest_overall, its flows field F).
  int link_load_bound = 0;
  LinkLoad busiest_overall;
};

// The capacities a message from host `from` to host `to` fills, one id each: 2 * link for a link
// with one capacity or a SPLITDUPLEX link's UP side, 2 * link + 1 for its DOWN side (ids below
// 2 * network.links.size()). Links that flows cannot fill are left out (Link::is_cut), and so is
// everything when from == to. `hops` is scratch.
void route_capacities(const network::Network& network, int from, int to, std::vector<int>& capacities,
                      std::vector<network::Hop>& hops);

// ceil(flows / rounds): the fewest flows the busiest round must put on a link that `flows`
// messages cross over `rounds` rounds (0 when there are no rounds).
int link_load_bound(long long flows, std::size_t rounds);

// `host_of_rank[r]`: the network host rank r runs on. Keeps the `keep` most loaded links of each
// round.
LinkLoads link_loads(const Schedule& schedule, const network::Network& network, const std::vector<int>& host_of_rank,
                     std::size_t keep = 3);

}  // namespace topocoll
