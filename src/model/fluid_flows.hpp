// What the fluid model's two readings of a schedule share (fluid_schedule.hpp): a rank's part of
// a round as messages and copies, the network's links as fluid capacities, and each route's
// latency, penalty and cap as SimGrid's CM02 family computes them.
#pragma once

#include <cstddef>
#include <limits>
#include <map>
#include <span>
#include <utility>
#include <vector>

#include "model/fluid_schedule.hpp"
#include "model/fluid_share.hpp"
#include "model/host_pair_cache.hpp"
#include "network/network.hpp"
#include "schedule/round_sink.hpp"

namespace topocoll::fluid {

// One rank's part of one round: each message sent or received with its bytes, and the bytes the
// executor copies around its staged transfers (schedule/staging_rule.hpp), read from the
// segments' places in the executor's order (the round's sends, then its receives).
class RankRoundTally final : public RoundSink {
 public:
  struct Message {
    int peer = 0;
    std::size_t bytes = 0;
    std::size_t overlap_rounds = 0;
    std::size_t staged_bytes = 0;  // copied into (a send) or out of (a receive) the staging area
  };
  // `staged_so_far`: the rank's staged bytes before this round, updated as the round is told.
  void start(std::size_t& staged_so_far);
  bool wants_places() const override { return true; }
  void copy(const Segment& from, const Segment&) override { copied_before += from.length; }
  void copy_after_posts(const Segment& from, const Segment&) override { copied_after += from.length; }
  void send(int peer, std::span<const Segment> segments, std::size_t overlap_rounds) override;
  void recv(int peer, std::span<const Segment> segments, std::size_t overlap_rounds) override;
  // Stages the receives (after every send of the round): call once the round has been told.
  void finish();

  std::vector<Message> sent, received;
  std::size_t copied_before = 0, copied_after = 0;
  std::size_t staged_received_bytes = 0;

 private:
  bool stage(std::size_t bytes, bool mixes);
  std::vector<char> received_mixes_;  // per receive: whether its segments mix buffers
  std::size_t* staged_so_far_ = nullptr;
};

// A rank's CPU in one round of rounds that end together (fluid_rounds.hpp, fluid_bottlenecks.hpp),
// from the tally of its round started at `round_start_us`: its copies before the posts, then each post after the one before
// it and its own copy into the staging area; once its transfers are in, SMPI's receive overheads
// (detached receives, one after the other) and its staged receives copied out.
struct RankRoundCpu {
  double posting_us = 0.0;        // when its posts begin
  std::vector<double> posted_by;  // per message sent: its CPU time from posting_us until it is posted
  double done_us = 0.0;           // when all of its CPU work in the round is done
  double copying_out_us = 0.0;    // its CPU work once its last receive is in
};
void read_rank_round_cpu(const FluidParameters& parameters, const RankRoundTally& tally, double round_start_us,
                         RankRoundCpu& cpu);

// A route as its flows see it: the fluid capacities it fills, its latency, penalty and cap.
struct FluidRoute {
  std::vector<int> capacities;
  std::vector<int> back_capacities;  // the way back, with network/crosstraffic (5% of each flow)
  double latency_us = 0.0;
  double penalty = 1.0;
  double rate_cap = std::numeric_limits<double>::infinity();  // bytes/us
};

// The network's links as capacities of `fluid`: one per link direction, or (`alike`) one per
// cluster and direction for the hosts' links, standing for every host's link of the cluster
// that way. Routes are worked out once per pair of hosts, while the cache keeps them.
class FluidLinks {
 public:
  FluidLinks(const network::Network& network, const FluidParameters& parameters, bool alike, FluidNetwork& fluid);
  // Valid until the next call (routes are kept in a bounded cache).
  const FluidRoute& route(int from_host, int to_host);
  // `count` flows of `bytes` each on `route`, starting at `start_us`, due by round `due`.
  FlowClass flows(const FluidRoute& route, double count, double bytes, double start_us, std::size_t due) const;

 private:
  FluidRoute make_route(int from_host, int to_host);
  int capacity(int id);  // the fluid capacity of route_capacities' id `id`, made on first use
  int add(double bytes_per_second, int links);

  const network::Network* network_;
  const FluidParameters* parameters_;
  bool alike_;
  FluidNetwork* fluid_;
  std::vector<int> host_link_cluster_;  // per link: the cluster whose host link it is, or -1
  std::vector<int> capacity_of_id_;
  std::vector<double> links_of_capacity_;          // links each capacity stands for
  std::map<std::pair<int, int>, int> host_links_;  // (cluster, direction) -> capacity, links alike
  HostPairCache<FluidRoute> routes_;
  std::vector<network::Hop> hops_;
  std::vector<int> ids_;
};

// Throws std::invalid_argument unless each of the `size` ranks has a host of the network.
void check_hosts_of_ranks(int size, const network::Network& network, std::span<const int> host_of_rank);

// The cluster of each rank's host (the sample's strata); throws as check_hosts_of_ranks.
std::vector<int> clusters_of_ranks(int size, const network::Network& network, std::span<const int> host_of_rank);

// The time to copy `bytes` at the parameters' copy bandwidth.
double copy_us(const FluidParameters& parameters, std::size_t bytes);

// Whether SMPI sends a message of `bytes` detached: its sender is done once it is posted, and its
// receiver pays smpi/or to complete it.
inline bool is_detached(const FluidParameters& parameters, std::size_t bytes) {
  return static_cast<double>(bytes) < parameters.detached_below_bytes;
}

}  // namespace topocoll::fluid
