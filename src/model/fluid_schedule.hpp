// The time of an algorithm's rounds on a network, as a fluid (flow-level, max-min) model of what
// SimGrid's SMPI computes for them (fluid_share.hpp): the evidence beyond the ranks SimGrid can
// simulate (docs/results.md, "The fluid model at scale").
//
// Each message is a flow from its sender's host to its receiver's over the network's route: it
// carries its bytes and SMPI's envelope, starts when its sender has made its copies and posted
// it (and its receiver has posted the receive), plus the route's latency, shares every link of
// the route that flows fill (network::Link::is_cut) with penalty = the route's latency +
// weight_S x the sum of 1 / bandwidth over its links, and moves at most at the narrowest link's
// bandwidth and TCP-gamma / (2 x latency) (SimGrid's CM02 family, which the SMPI model is).
// Messages between ranks of one host cross its loopback alone (one flow capped at its bandwidth,
// shared with none, as SimGrid's cluster loopback). Local copies take the copy bandwidth, and so
// do the copies in and out of the executor's staging area (schedule/staging_rule.hpp); posts and
// receives take their overheads.
//
// Three readings:
//  - every link (fluid_ranks.hpp): every rank and every link alone; each rank goes on to its next
//    round when its own transfers are in, as SMPI runs the executor. O(messages) sharings, each
//    O(routes in flight): the exact reading, out of reach for skewed traffic at thousands of ranks.
//  - links alike (fluid_rounds.hpp): the ranks of the cost model's sample (rank_sample.hpp, strata
//    = the network's clusters), each standing for its weight in ranks; the hosts' links of a
//    cluster read alike (one capacity each way, loaded with the cluster's flows spread evenly);
//    and rounds that end together (round t starts when every transfer due by the end of round
//    t - 1 is in). O(sample x messages per rank) per round: O(p) for a total exchange.
//    Spreading a cluster's flows evenly over its hosts' links is exact for schedules that load
//    them alike (direct, pairwise, lg over the hosts); where a few hosts of a cluster carry
//    flows that the others do not (bruck's ranks at a host's edge), it is not, and rounds that
//    end together charge every round its slowest rank's time: docs/results.md gives the error.
//  - bottlenecks (fluid_bottlenecks.hpp): every rank and every link alone, rounds that end
//    together, each as long as its most loaded link, its slowest flow or its CPU work, and no
//    sharing worked out. O(messages): the reading of skewed traffic past the exact one's reach.
// What it ignores: receive overheads paid while later messages still arrive, and the CPU's copies
// sharing memory with transfers.
#pragma once

#include <cstddef>
#include <span>

#include "algorithms/round_plan.hpp"
#include "model/rank_sample.hpp"
#include "network/network.hpp"

namespace topocoll {

// SimGrid's settings that shape the flows, as scripts/simulate.sh pins them (SMPI-unit).
struct FluidParameters {
  double weight_s = 8775.0;          // network/weight-S of the SMPI model (CM02: 20537)
  double tcp_gamma_bytes = 4194304;  // network/TCP-gamma
  double envelope_bytes = 16.0;      // SMPI's per-message envelope (docs/results.md, Platform check)
  // smpi/send-is-detached-thresh: a send of fewer bytes completes for its sender once posted
  // (read rank by rank; rounds that end together wait for the receives anyway).
  double detached_below_bytes = 65536;
  bool crosstraffic = false;          // network/crosstraffic: each flow loads its way back with 5% of itself
  double copy_bytes_per_us = 5000.0;  // local copies, charged (5 GB/s, the studies' --copy-bandwidth)
  double send_overhead_us = 0.0;      // CPU per message posted (smpi/os)
  double recv_overhead_us = 0.0;      // CPU per message received (smpi/or)
};

enum class FluidReading {
  // Every link up to RankSample::kEveryRankUpTo ranks; beyond, links alike where the sampled
  // ranks of each cluster post alike in every round, and where they do not (skewed traffic)
  // every link while its work stays within kMostSkewedEveryLinkWork, bottlenecks past it.
  automatic,
  every_link,   // every rank, every link alone, each rank at its own pace
  links_alike,  // the sample (every rank up to kEveryRankUpTo), links alike, rounds that end together
  bottlenecks,  // every rank, every link alone, rounds that end together, each as long as its bottleneck
};

// The most work the automatic reading spends on skewed traffic read link by link, counted as
// messages x the routes they can keep in flight at once (hosts x the hosts a rank sends to in
// one round, at most): each message of skewed traffic is a sharing of the routes in flight.
// About 20-30 ns a unit: a zipf alltoallv of `direct` over 1024 ranks on 64 hosts (1M messages x
// 64 x 64) takes 89 s, of `pairwise` over 4096 ranks on 256 hosts (16M x 256 x 1) 117 s;
// one rank per host at that scale (a million routes) would take days.
inline constexpr double kMostSkewedEveryLinkWork = 5e9;

struct FluidTime {
  double us = 0.0;
  std::size_t rounds = 0;
  std::size_t flow_classes = 0;  // classes of flows the model shared (its work)
  std::size_t events = 0;        // sharings computed
  bool links_alike = false;
  bool bottlenecks = false;  // read by each round's bottlenecks (fluid_bottlenecks.hpp): nothing shared
  bool every_rank = true;
  // The sampled ranks of a cluster post different messages or bytes in some round (skewed
  // traffic, or a schedule whose ranks differ): links alike spreads their flows evenly over the
  // cluster's host links and can be far off. Looked at only where links alike could be read.
  bool ranks_differ = false;
};

// `host_of_rank[r]`: the network host rank r runs on (size entries). Throws std::invalid_argument
// when a rank's host is not the network's.
FluidTime fluid_time(const RoundPlan& plan, int size, const network::Network& network,
                     std::span<const int> host_of_rank, const FluidParameters& parameters,
                     FluidReading reading = FluidReading::automatic);

}  // namespace topocoll
