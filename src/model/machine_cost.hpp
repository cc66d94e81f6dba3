// The machine as the hierarchical cost model sees it: per topology level a latency and a
// per-flow bandwidth, each rank's injection and ejection bandwidth, an optional backbone (the
// shared capacity between the groups of one level), capacities shared inside groups (a node's
// memory), a per-message CPU overhead and the local copy bandwidth. Units: microseconds and
// bytes per microsecond (= MB/s).
//
// MachinePricing resolves these parameters against the topology of a problem: which level's
// latency and bandwidth a message between two ranks pays, and which backbone it crosses.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "model/rank_sample.hpp"
#include "model/routed_capacities.hpp"
#include "topology/topology.hpp"

namespace topocoll {

// What a message pays when its two ranks are first separated at this level (or share every
// group: the level named "same group"). A lone message of m bytes takes
// send_overhead_us + latency_us + m / bytes_per_us.
struct LevelCost {
  std::string name;
  double latency_us = 0.0;
  double bytes_per_us = 0.0;  // one flow's bandwidth
};

// The shared capacity between the groups of level `level` (two clusters' backbone). All bytes
// that go from one group to another in a round share the one-direction capacity, which may
// depend on how many flows cross at once (a WAN whose TCP flows collapse when too many compete):
// `one_direction` lists measured points, interpolated linearly in the number of flows and
// constant beyond the first and last. The bytes of both directions between two groups share
// duplex_ratio times that capacity (2 for a full-duplex link, 1 for a half-duplex one).
struct CapacityPoint {
  int flows = 1;
  double bytes_per_us = 0.0;
};

// near_weight: on a rank's link, how many flows across the backbone one flow inside the group
// weighs (latency-weighted sharing: a flow with K flows across beside it takes
// near_weight / (near_weight + K) of the link). 0: not measured; the model then assumes that
// flows kept in flight across the backbone lose nothing to the rounds they overlap.
//
// groups_links_bytes_per_us, where set: the calibration's probes passed nearly what the probing
// groups' own links pass one way (this much), so the backbone was no limit of its own there (a
// tree whose uplinks were as wide as, or near, the hosts below them), and what they measured says
// how the tree tapers rather than how wide it is. Between two groups of a problem whose links pass
// more, the model widens the backbone by as much (MachinePricing::backbone_widening): a job on
// leaves of more hosts than the calibrated ones keeps the tree's taper, not the calibrated
// leaves' width. 0: a limit of its own, the same at every size.
struct BackboneCost {
  std::string level;
  std::vector<CapacityPoint> one_direction;  // by increasing flows
  double duplex_ratio = 2.0;
  double near_weight = 0.0;
  double groups_links_bytes_per_us = 0.0;
  // The one-direction capacity with `flows` simultaneous flows.
  double capacity_bytes_per_us(double flows) const;
};

// The capacity that the messages through one group of `level` share, whatever their own links
// pass: a node's memory bandwidth when its ranks exchange through shared memory (every rank's
// copies in and out of the shared segments go through the same memory), or a blocking switch.
// The messages through a group are those between its ranks that the next level inward
// separates (at the innermost level: all of them; a switch does not carry what stays inside a
// node below it). A message's bytes count once. Applies to every group of that level.
struct GroupCapacity {
  std::string level;
  double bytes_per_us = 0.0;
};

// The link that joins each group of `level` to the rest of the machine, shared by the group's
// ranks: a host's network adapter under its 16 ranks. One direction carries the bytes of the
// messages leaving the group, the other those entering it (bytes_per_us each way). Where the
// problem's innermost level (the hosts) has one, a rank's own link (injection, ejection) carries
// only its messages that leave its host: those between ranks of one host go through its memory.
using GroupLink = GroupCapacity;

struct MachineCost {
  std::vector<LevelCost> levels;        // outermost first; usually ends with the innermost measured
  double send_overhead_us = 0.0;        // CPU time to post one message (o)
  // CPU time to complete a received message (o_r), when measured: a rank's CPU posts its sends
  // (o each) and then completes its receives one after another (o_r each beyond the first,
  // whose is in the calibrated latency). Only messages of at most recv_overhead_until_bytes pay
  // it (the MPI library's eager limit: SMPI charges smpi/or to detached messages only); unset:
  // every size. Not measured: each receive costs o, as a post, not added to the sends' (the
  // reading of calibrations from before o_r was measured).
  std::optional<double> recv_overhead_us;
  std::optional<std::size_t> recv_overhead_until_bytes;
  // The CPU's copying of an eager message (one of at most recv_overhead_until_bytes): the
  // sender copies it into the library's buffers while posting, the receiver out of them while
  // completing, at this rate each (shared memory's copy in and copy out, which a ping-pong's
  // bandwidth does not show at these sizes). Unset: not charged. Needs the eager limit.
  std::optional<double> eager_copy_bytes_per_us;
  // CPU time a message above the eager limit costs its receiver beyond o_r's: the library's
  // rendezvous (matching the sender's request to send, answering it, taking the data in
  // pieces), which the receiver's CPU runs one message after another while it completes its
  // receives. Unset: not charged. Needs the eager limit.
  std::optional<double> rendezvous_us;
  double injection_bytes_per_us = 0.0;  // a rank's link outwards, shared by all its flows
  double ejection_bytes_per_us = 0.0;   // ... inwards
  std::optional<BackboneCost> backbone;
  std::vector<GroupCapacity> group_capacities;  // none: each group passes what its ranks' links do
  std::vector<GroupLink> group_links;           // none: a group's link passes what its ranks' links do
  double copy_bytes_per_us = 0.0;  // local copies; 0: free
  // Bytes each message adds to its data on a shared link (the MPI library's and the network's
  // headers; SMPI adds 16): where thousands of small messages cross one link at once these are
  // most of what it carries. Counted on the ranks' links, the group links and capacities, the
  // network's links and the backbone; not in a lone message's time (its latency has them).
  double envelope_bytes = 0.0;
};

// What each group of `level` can pass out of itself (`out`) or into itself through its ranks'
// links and the group links at its level and inside it (MachineCost::group_links, by level
// name): a rank passes its injection (ejection) bandwidth, and a group the sum of its inner
// groups (at the innermost level, its ranks), capped by its own link. Bytes per us.
std::vector<double> group_links_pass_bytes_per_us(const MachineCost& machine, const Topology& topology, int level,
                                                  bool out);

// Why `machine` cannot price anything (no levels, a non-positive bandwidth...), or nullopt.
std::optional<std::string> check_machine(const MachineCost& machine);

// The machine's parameters for the ranks of one problem. Levels are matched by name, outermost
// first. A problem level the machine does not name, and the problem's "same group" (ranks that
// share every group of the problem's topology), take the machine level just inside the last
// matched one (the innermost when none is left): ranks that differ below a matched level, or
// share all the problem's groups, are priced as the next finer level the machine knows.
// The backbone applies to messages between different groups of the problem level with the
// backbone's name; without such a level there is no backbone. So do the group capacities: each
// applies to the problem level with its name. The ranks the model reads (rank_sample.hpp) are
// stratified by backbone group, else by the outermost level's groups.
class MachinePricing {
 public:
  // `topology` may be null (a flat problem); `machine` must pass check_machine and outlive this.
  MachinePricing(const MachineCost& machine, const Topology* topology, int size,
                 RankReading reading = RankReading::sampled_at_scale);

  const MachineCost& machine() const { return *machine_; }
  int size() const { return size_; }
  // The level a message from rank a to rank b pays.
  // Its index among the machine's levels (levels paying the same latency, for draining a link).
  std::size_t level_index(int a, int b) const {
    return static_cast<std::size_t>(&between(a, b) - machine_->levels.data());
  }
  const LevelCost& between(int a, int b) const {
    const int* ga = groups_.data() + static_cast<std::size_t>(a) * levels_;
    const int* gb = groups_.data() + static_cast<std::size_t>(b) * levels_;
    for (int l = 0; l < levels_; ++l)
      if (ga[l] != gb[l]) return *costs_[l];
    return *costs_[levels_];
  }
  // The end of the run of ranks from `rank` on that share all its groups, which the model
  // cannot tell apart: ranks rank .. alike_until(rank) - 1.
  int alike_until(int rank) const { return alike_until_[static_cast<std::size_t>(rank)]; }
  // The backbone group of a rank, or -1 when no backbone applies to this problem.
  int backbone_group(int rank) const { return backbone_groups_.empty() ? -1 : backbone_groups_[rank]; }
  int backbone_group_count() const { return backbone_group_count_; }
  // Latency of the level the backbone joins (what a message across it pays).
  double backbone_latency_us() const { return backbone_latency_us_; }
  // How many times the calibrated capacity the backbone passes from backbone group `from` to
  // `to`: what leaves `from` through its own links and enters `to` through theirs over what the
  // calibrated groups' links passed (BackboneCost::groups_links_bytes_per_us), at least 1; 1 where
  // the backbone is a limit of its own.
  double backbone_widening(int from, int to) const {
    if (links_out_.empty()) return 1.0;
    const double links = std::min(links_out_[static_cast<std::size_t>(from)], links_in_[static_cast<std::size_t>(to)]);
    return std::max(1.0, links / machine_->backbone->groups_links_bytes_per_us);
  }
  // The machine level each problem level maps to (names, for explanations), "same group" last.
  std::vector<std::string> mapping() const;
  const RankSample& sample() const { return sample_; }
  // A group capacity or group link that applies to this problem: the level (its index among the
  // problem's) and the next one inward (-1 at the innermost), the number of groups of that level
  // and the ranks of the largest.
  struct SharedGroups {
    int level = 0;
    int inner = -1;
    double bytes_per_us = 0.0;
    int groups = 0;
    int largest = 0;
    bool link = false;  // a GroupLink: what leaves or enters each group, each way
    // Whether a message from rank a to rank b goes through the group of a at this level (a
    // link: leaves a's group).
    bool through(const MachinePricing& pricing, int a, int b) const {
      if (link) return pricing.group(a, level) != pricing.group(b, level);
      return pricing.group(a, level) == pricing.group(b, level) &&
             (inner < 0 || pricing.group(a, inner) != pricing.group(b, inner));
    }
  };
  const std::vector<SharedGroups>& shared_groups() const { return shared_groups_; }
  // Which group capacities a message from a to b goes through, one bit each (the model merges
  // messages of a rank only where these agree).
  unsigned long long through_groups(int a, int b) const {
    unsigned long long bits = 0;
    for (std::size_t k = 0; k < shared_groups_.size() && k < 64; ++k)
      if (shared_groups_[k].through(*this, a, b)) bits |= 1ULL << k;
    return bits;
  }
  bool has_group_links() const { return group_links_; }
  // Whether a message from a to b crosses a's own link (injection) and b's (ejection): it does
  // unless the problem's innermost level (the hosts) has a group link (MachineCost::group_links)
  // and both ranks share a group there.
  bool through_rank_links(int a, int b) const {
    return host_level_ < 0 || group(a, host_level_) != group(b, host_level_);
  }
  // The group of `rank` at problem level `level`.
  int group(int rank, int level) const { return groups_[static_cast<std::size_t>(rank) * levels_ + level]; }
  // The network's links, when the problem runs on one: the round meter then charges each link
  // the bytes the round puts through it. Kept only where every rank is read (the link term
  // needs every message); `links` must outlive this.
  void see_links(const RoutedCapacities* links) { links_ = sample_.every_rank() ? links : nullptr; }
  const RoutedCapacities* links() const { return links_; }

 private:
  const MachineCost* machine_;
  int size_ = 0;
  int levels_ = 0;                       // problem levels
  std::vector<int> groups_;              // groups_[r * levels_ + l]
  std::vector<int> alike_until_;
  std::vector<const LevelCost*> costs_;  // per problem level, then "same group"
  std::vector<int> backbone_groups_;
  int backbone_group_count_ = 0;
  double backbone_latency_us_ = 0.0;
  std::vector<double> links_out_, links_in_;  // per backbone group, where the backbone is no limit of its own
  RankSample sample_;
  std::vector<SharedGroups> shared_groups_;
  int host_level_ = -1;  // the innermost problem level when it has a group link, or -1
  bool group_links_ = false;
  const RoutedCapacities* links_ = nullptr;
};

}  // namespace topocoll
