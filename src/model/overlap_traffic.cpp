// overlap's traffic form (src/algorithms/overlap.cpp): the shift rounds inside each outermost
// group, and the transfers across groups as one group kept in flight from round 0 to the last
// (round_timeline.hpp), each block in its stripes; with a single round they are part of it.
#include <algorithm>
#include <vector>

#include "algorithms/overlap.hpp"
#include "model/alltoall_traffic.hpp"
#include "model/hierarchical_cost.hpp"
#include "model/round_timeline.hpp"

namespace topocoll {

std::optional<double> predict_overlap_from_traffic_us(const Problem& problem, const MachinePricing& pricing) {
  const Topology* topology = problem.topology;
  if (!topology || topology->size() != problem.size || topology->level_count() < 1) return std::nullopt;
  const int p = problem.size;
  const OverlapPeers peers(*topology, p);
  const std::size_t rounds = peers.rounds();
  const int stripes = overlap_stripes(problem.knobs);
  auto add_striped = [stripes](int peer, std::size_t bytes, std::vector<MessageLoad>& messages) {
    const int pieces = stripe_count(stripes, bytes);
    for (int i = 0; i < pieces; ++i) messages.push_back({peer, stripe_of(bytes, pieces, i).second});
  };
  auto add_across = [&](int rank, RankRoundLoad& load) {
    for (int peer : peers.across(rank)) {
      add_striped(peer, problem.bytes(peer, rank), load.recvs);
      add_striped(peer, problem.bytes(rank, peer), load.sends);
    }
  };

  RoundCostMeter meter(pricing);
  if (rounds > 1) meter.record_near_traffic();
  RankRoundLoad load;
  std::vector<double> round_us;
  for (std::size_t t = 0; t < rounds; ++t) {
    for (int r = 0; r < p; ++r) {
      load.clear();
      if (t == rounds - 1) load.copy_bytes = problem.bytes(r, r);
      if (rounds == 1) add_across(r, load);
      const auto [to, from] = peers.inside(r, static_cast<int>(t) + 1);
      if (to >= 0) {
        load.recvs.push_back({from, problem.bytes(from, r)});
        load.sends.push_back({to, problem.bytes(r, to)});
      }
      meter.add(r, load);
    }
    round_us.push_back(meter.finish_round());
  }
  std::vector<InFlightGroup> groups;
  if (rounds > 1) {
    std::size_t most_posts = 0;
    for (int r = 0; r < p; ++r) {
      load.clear();
      add_across(r, load);
      most_posts = std::max({most_posts, load.sends.size(), load.recvs.size()});
      meter.add(r, load);
    }
    const double posting_us = pricing.machine().send_overhead_us * static_cast<double>(most_posts);
    groups.push_back({0, rounds - 1, meter.finish_in_flight(0, rounds - 1), posting_us});
  }
  double total = 0.0;
  for (double t : overlapped_round_times(round_us, groups)) total += t;
  return total;
}

}  // namespace topocoll
