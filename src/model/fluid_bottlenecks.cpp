#include "model/fluid_bottlenecks.hpp"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <map>
#include <stdexcept>
#include <vector>

#include "model/fluid_flows.hpp"
#include "model/host_pair_cache.hpp"

namespace topocoll::fluid {

namespace {

// What one flow of a route puts on the links: its uses of the capacities (its way back's cross
// traffic included), its latency and its cap.
struct RouteLoad {
  std::vector<FlowUse> uses;
  double latency_us = 0.0;
  double rate_cap = std::numeric_limits<double>::infinity();  // bytes/us
};

// The flows that must be in by some round's end: the bytes they put on each capacity, the first
// of them to start there, and when the slowest of them, alone at its cap, would be in.
class Loads {
 public:
  explicit Loads(std::size_t capacities)
      : bytes_(capacities, 0.0), first_us_(capacities, 0.0), touched_(capacities, 0) {}
  void add(const RouteLoad& route, double bytes, double start_us) {
    for (const FlowUse& use : route.uses) {
      const auto c = static_cast<std::size_t>(use.capacity);
      if (!touched_[c]) {
        touched_[c] = 1;
        loaded_.push_back(use.capacity);
        first_us_[c] = start_us;
      } else {
        first_us_[c] = std::min(first_us_[c], start_us);
      }
      bytes_[c] += bytes * use.flows_per_link;
    }
    last_flow_us_ = std::max(last_flow_us_, start_us + bytes / route.rate_cap);
  }
  // When they are in, at the earliest: no link moves more than its bandwidth, no flow more than its cap.
  double end_us(const FluidNetwork& capacities, double from_us) const {
    double end = std::max(from_us, last_flow_us_);
    for (int c : loaded_) {
      const auto i = static_cast<std::size_t>(c);
      end = std::max(end, first_us_[i] + bytes_[i] / capacities.capacity(c));
    }
    return end;
  }
  void clear() {
    for (int c : loaded_) {
      bytes_[static_cast<std::size_t>(c)] = 0.0;
      touched_[static_cast<std::size_t>(c)] = 0;
    }
    loaded_.clear();
    last_flow_us_ = 0.0;
  }

 private:
  std::vector<double> bytes_, first_us_;
  std::vector<char> touched_;  // per capacity: whether some flow crosses it
  std::vector<int> loaded_;    // the capacities touched
  double last_flow_us_ = 0.0;
};

class RoundBottlenecks {
 public:
  RoundBottlenecks(const network::Network& network, std::span<const int> host_of_rank,
                   const FluidParameters& parameters)
      : hosts_(host_of_rank),
        links_(network, parameters, false, fluid_),
        routes_(network.host_count()),
        this_round_(2 * network.links.size()) {}  // at most a capacity per link and direction

  // A message posted in round `t`, due by the end of round `due`, starting at `start_us` (its
  // route's latency not yet added).
  void add(int from, int to, double bytes, double start_us, std::size_t t, std::size_t due) {
    const RouteLoad& route = route_load(hosts_[static_cast<std::size_t>(from)], hosts_[static_cast<std::size_t>(to)]);
    start_us += route.latency_us;
    if (due == t) {
      this_round_.add(route, bytes, start_us);
    } else if (!windows_.contains(due)) {
      // A message overlapped into a later round: until that round ends, its links carry it beside
      // the round's own flows and every round's in between.
      windows_.emplace(due, this_round_);
    }
    for (auto w = windows_.lower_bound(due); w != windows_.end(); ++w) w->second.add(route, bytes, start_us);
  }

  // The end of round `t`, started at `start_us`, whose messages have all been added.
  double end_of_round(std::size_t t, double start_us) {
    const auto window = windows_.find(t);
    const double end = (window != windows_.end() ? window->second : this_round_).end_us(fluid_, start_us);
    if (window != windows_.end()) windows_.erase(window);
    this_round_.clear();
    return end;
  }

 private:
  // Valid until the next call.
  const RouteLoad& route_load(int from_host, int to_host) {
    return routes_.get(from_host, to_host, [&] {
      const FluidRoute& route = links_.route(from_host, to_host);
      return RouteLoad{links_.flows(route, 1.0, 0.0, 0.0, 0).uses, route.latency_us, route.rate_cap};
    });
  }

  std::span<const int> hosts_;
  FluidNetwork fluid_;  // the links' capacities; nothing is shared on it
  FluidLinks links_;
  HostPairCache<RouteLoad> routes_;  // per pair of hosts: what one flow puts on the links
  Loads this_round_;                    // the messages posted and due in the round
  std::map<std::size_t, Loads> windows_;  // per later round some message is due by: what it carries
};

}  // namespace

FluidTime time_by_bottlenecks(const RoundPlan& plan, int size, const network::Network& network,
                              std::span<const int> host_of_rank, const FluidParameters& parameters) {
  check_hosts_of_ranks(size, network, host_of_rank);
  RoundBottlenecks bottlenecks(network, host_of_rank, parameters);
  std::size_t rounds = 0;
  for (int r = 0; r < size; ++r) rounds = std::max(rounds, plan.rounds(r));
  std::vector<std::size_t> staged_so_far(static_cast<std::size_t>(size), 0);
  RankRoundTally tally;
  RankRoundCpu cpu;
  std::size_t sent = 0, received = 0;
  double round_start = 0.0;
  for (std::size_t t = 0; t < rounds; ++t) {
    double cpu_end = round_start;
    double copying_out_us = 0.0;  // the longest CPU work of a rank once its last receive is in
    for (int r = 0; r < size; ++r) {
      if (t >= plan.rounds(r)) continue;
      tally.start(staged_so_far[static_cast<std::size_t>(r)]);
      plan.emit(r, t, tally);
      tally.finish();
      read_rank_round_cpu(parameters, tally, round_start, cpu);
      for (std::size_t k = 0; k < tally.sent.size(); ++k) {
        const RankRoundTally::Message& message = tally.sent[k];
        if (message.peer < 0 || message.peer >= size) throw std::invalid_argument("fluid model: a message to no rank");
        bottlenecks.add(r, message.peer, static_cast<double>(message.bytes) + parameters.envelope_bytes,
                        cpu.posting_us + cpu.posted_by[k], t, t + message.overlap_rounds);
      }
      sent += tally.sent.size();
      received += tally.received.size();
      copying_out_us = std::max(copying_out_us, cpu.copying_out_us);
      cpu_end = std::max(cpu_end, cpu.done_us);
    }
    // A rank completes its last receive and copies its staged receives out once they are in.
    round_start = std::max(bottlenecks.end_of_round(t, round_start) + copying_out_us, cpu_end);
  }
  if (sent != received) throw std::invalid_argument("fluid model: the plan's sends and receives do not match");
  FluidTime result;
  result.us = round_start;
  result.rounds = rounds;
  result.flow_classes = sent;
  result.bottlenecks = true;
  return result;
}

}  // namespace topocoll::fluid
