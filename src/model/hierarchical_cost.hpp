// The hierarchical cost model: the time of a schedule on a machine described per topology
// level (machine_cost.hpp), read round by round. Rounds run one after the other (the schedule
// semantics: a round ends when all its transfers have completed). A round lasts as long as its
// slowest constraint:
//  - each rank: its copies, then the largest latency among its messages (sent or received)
//    plus max(n * o + smallest send / injection + c, o + max(bytes out / injection, bytes in /
//    ejection + c)), n = sends, c = (receives - 1) * o_r: posting is sequential, data flows
//    while later messages are posted, and the last one posted still has to go; then the CPU
//    completes the receives, which arrive together as the link drains, one after another (the
//    first one's completion is in the calibrated latency; only receives up to the eager limit
//    count). Without a measured o_r: n = max(sends, receives) and c = 0 (a receive costs o).
//    With the eager messages' copy bandwidth known, the posts also take the CPU's copies of
//    the eager messages sent, and c the copies of those received (machine_cost.hpp); with a
//    rendezvous cost known, c also takes it once per message received above the eager limit.
//    Copies after the posts (LocalCopy::after_posts) overlap the flows: the rank also takes
//    its copies + n * o + those copies + c;
//  - each message on its own: the sender's copies + o + latency + bytes / bandwidth of its level;
//  - each link of the network, when the problem runs on a known one (routed_capacities.hpp):
//    the round's longest copy + o + the time the link takes to pass the bytes the round's
//    messages put through it (flows share a link's bandwidth), each flow's from its latency
//    on: the latest of (a latency L + the bytes of the flows of latency L or more / the
//    bandwidth). The links then stand for the backbone below, which is left out (it stands for
//    them elsewhere);
//  - each group capacity (a node's memory, machine_cost.hpp): per group of its level, the
//    round's longest copy + o + the time it takes to pass the bytes of the messages through the
//    group, drained the same way; each group link (a host's adapter shared by its ranks) the
//    same with the bytes leaving the group, and those entering it, then the longest c of the
//    ranks receiving through it (they complete their receives once through). Where the
//    innermost level (the hosts) has a group link, a rank's own link carries only its messages
//    that leave its host;
//  - on every shared link (a rank's own, a group's, the network's, the backbone) a message
//    carries its envelope beside its bytes (MachineCost::envelope_bytes); a lone message's
//    latency has it already;
//  - copies: a round's local copies, and those of the transfers the executor stages (in and
//    out of its staging area, schedule/staging_rule.hpp), which plan_cost.cpp adds to them;
//  - the backbone: for each ordered pair of groups it joins, the round's longest copy + o +
//    the time to drain the bytes from one group to the other through the one-direction
//    capacity (at that many flows), none moving before the backbone latency; for each
//    unordered pair, the same with both directions and duplex_ratio times the capacity. A
//    backbone that was no limit of its own in the calibration widens as the two groups' links
//    pass more than the calibrated ones (MachinePricing::backbone_widening).
//    Draining respects release times (a flow moves data from max(latency, its release)), which
//    model latency-weighted sharing (TCP's RTT unfairness, which SimGrid's network models
//    reproduce): a rank's flows inside its group take its link before its flows across the
//    backbone, which are released once its in-group bytes are through at injection bandwidth
//    (at the receiver: ejection). Drain time = max over k of (k-th release + bytes released
//    from then on / capacity), on the senders' side and on the receivers' side.
// Transfers kept in flight across rounds (Transfer::overlap_rounds) are priced per group
// (posted in one round, due in one later round) as a round of their own, laid over the rounds
// they overlap (round_timeline.hpp). When the backbone's near_weight is known, the group's
// flows across also share each rank's link with the flows inside the group of the rounds it
// overlaps: on a rank with K flows across, those take near_weight / (near_weight + K) of the
// link until they are through (at full rate while the flows across are still in their
// latency), and the flows across the rest; the backbone carries min(capacity, what the
// senders' links pass, what the receivers' links pass) at every moment.
// Where the machine has group links, a group also shares each of them with the rounds it
// overlaps per flow (shared_link_rounds.hpp, plan_cost.cpp): while its flows are on a host's
// link, a round's few flows through it get a small share, so the rounds wait.
// With the network's links seen, a schedule with transfers kept in flight takes at least what
// its busiest link (a rank's own injection or ejection included) takes to pass all the bytes of
// its rounds and groups: the groups laid over the rounds share those links, which neither's time
// alone shows (plan_cost.cpp adds the difference to the last round). So it does with the
// busiest group link, where the machine has group links.
// What it ignores: contention inside a group (switch capacity below the backbone) unless the
// network's links are known or a group capacity or link is calibrated, packets and queues (head-of-line
// blocking, TCP slow start, losses), receives completed while others are still arriving (o_r is
// charged after the last byte), ranks running ahead into the next round, copies sharing memory
// with the transfers they overlap, the max-min share of the ranks' links across several pairs of
// groups at once (on unequal clusters links idle that each pair's drain counts as busy:
// scripts/maxmin-direct.py), and more than one backbone per pair of groups (every pair of groups
// at the backbone level is assumed joined like the calibrated pair).
// On a single-level machine with Tam and Wang's parameters (machine_from_tam_wang) it gives
// their formulas: each round max(packets) * g + T_w when messages are whole packets.
#pragma once

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "model/machine_cost.hpp"
#include "model/shared_link_rounds.hpp"
#include "model/tam_wang.hpp"
#include "schedule/schedule.hpp"

namespace topocoll {

// `pieces` messages to or from `peer` carrying `bytes` in all, in equal parts to a byte; and
// the same again with `alike - 1` more peers that the model cannot tell from `peer` (they pay
// the same level, cross to the same backbone group and go through the same group capacities,
// MachinePricing::through_groups): a rank that posts thousands of alike
// blocks is read as a few loads.
struct MessageLoad {
  int peer = 0;
  std::size_t bytes = 0;
  int pieces = 1;
  std::size_t alike = 1;
  std::size_t total_bytes() const { return bytes * alike; }
  // Its bytes on a shared link: its data and each piece's envelope (MachineCost::envelope_bytes).
  double bytes_on_links(double envelope_bytes) const {
    return static_cast<double>(total_bytes()) +
           envelope_bytes * static_cast<double>(pieces) * static_cast<double>(alike);
  }
  std::size_t smallest_piece() const { return bytes / static_cast<std::size_t>(pieces); }
  std::size_t largest_piece() const { return smallest_piece() + (bytes % static_cast<std::size_t>(pieces) ? 1 : 0); }
};

// The messages of a list of loads (their pieces, times the peers alike).
std::size_t message_count(const std::vector<MessageLoad>& loads);

// What one rank does in one round, as the model sees it.
struct RankRoundLoad {
  std::vector<MessageLoad> sends;
  std::vector<MessageLoad> recvs;
  std::size_t copy_bytes = 0;
  std::size_t copy_bytes_after_posts = 0;  // copied while the round's transfers are in flight
  // Each message sent, peer by peer (peer, its bytes on the links with their envelopes), kept
  // only when the pricing sees the network's links (MachinePricing::links): the loads above
  // merge peers the links tell apart.
  std::vector<std::pair<int, double>> routed_sends;
  void clear() {
    sends.clear();
    recvs.clear();
    copy_bytes = 0;
    copy_bytes_after_posts = 0;
    routed_sends.clear();
  }
};

// Prices one round at a time: add the load of every rank the pricing's sample reads (with the
// weight it stands for), then finish_round().
class RoundCostMeter {
 public:
  explicit RoundCostMeter(const MachinePricing& pricing) : pricing_(&pricing) {}
  void add(int rank, const RankRoundLoad& load, double weight = 1.0);
  // The round's time in microseconds; the meter is then ready for the next round. A round that
  // stands for `alike` rounds (a sample of rounds, plan_cost.hpp) records its traffic for each.
  double finish_round(std::size_t alike = 1);
  // For schedules with transfers kept in flight: call before the first round; every round
  // then records each rank's bytes inside its backbone group, which finish_in_flight charges.
  void record_near_traffic() { recording_ = true; }
  // The time of a group of transfers kept in flight (added like a round's loads) that overlaps
  // the recorded rounds first_round..last_round; the meter is then ready for the next group.
  double finish_in_flight(std::size_t first_round, std::size_t last_round);
  // When the pricing sees the network's links: the time the busiest of them takes to pass the
  // bytes of every round and group added so far at its bandwidth, or the busiest rank its
  // copies, one post and its largest latency, then its bytes through its own link; and with
  // group links (MachineCost::group_links), the time the busiest group's link takes to pass
  // its bytes of every round and group (0 with neither).
  double links_floor_us() const;
  // What the round or group just finished put on each group link of the pricing
  // (MachinePricing::shared_groups; zero for a group capacity) out of its busiest group: bytes
  // (envelopes included) and messages. From a sample, the largest group's share.
  const std::vector<LinkShare>& group_link_use() const { return link_use_; }

 private:
  // (when flows may start, their bytes). Bytes and flows that add up over ranks are weighted
  // by the ranks a sampled rank stands for (exact integers when every rank is read).
  using Release = std::pair<double, double>;
  // What crosses the backbone from one group to another in the round.
  struct BackboneLoad {
    int from = 0;
    int to = 0;
    double bytes = 0;
    double flows = 0;
    // Per sending (receiving) rank: when its flows across are released, and their bytes.
    std::vector<Release> senders, receivers;
  };
  // One rank's bytes (and flows) on its link, out and in.
  struct LinkUse {
    std::size_t out = 0, in = 0;
    int flows_out = 0, flows_in = 0;
  };
  struct Window {
    std::size_t first = 0, last = 0;
  };
  double finish(const Window* window, std::size_t alike);
  void add_backbone_traffic(int rank, const RankRoundLoad& load, double weight);
  BackboneLoad& crossing(int from, int to);
  const BackboneLoad* find_crossing(int from, int to) const;
  double drain_us(const std::vector<Release>& a, const std::vector<Release>* b, double bytes_per_us, double floor_us);
  // A capacity's time to pass bytes_by_level[l], the bytes of the flows paying machine level l's
  // latency, each from its latency on.
  double level_drain_us(std::span<const double> bytes_by_level, double bytes_per_us);
  // A rank's bytes out and in, copies, and largest latency: of one round, or (links_floor_us) of
  // all the rounds and groups added so far.
  struct RankTotals {
    double out = 0.0, in = 0.0;  // on the rank's link, envelopes included
    double copy_us = 0.0;
    double latency_us = 0.0;
  };
  // `round`: the totals add() worked out for this load.
  void add_link_traffic(int rank, const RankRoundLoad& load, double weight, const RankTotals& round);
  // The round's links: from `start_us`, the time each link takes to pass its bytes, each flow's
  // from its latency on (level_drain_us).
  double links_us(double start_us, std::size_t alike);
  // The round's messages through the groups of the group capacities.
  // `completing_us`: the rank's CPU time completing its receives (c), which for a group link
  // comes after the link has passed them.
  void add_group_traffic(int rank, const RankRoundLoad& load, double weight, double completing_us);
  // From `start_us`: per capacity and group, the time to pass those messages' bytes at the
  // capacity, each flow's from its latency on (level_drain_us). Where the sample does not read
  // every rank, a group's bytes are the largest group's share of the weighted total (groups
  // alike).
  double group_traffic_us(double start_us, std::size_t alike);
  // From the group's start (after its copies and posting): when `one` has crossed, its flows
  // sharing the links with the window's flows inside the groups (near_weight).
  double shared_link_drain_us(const BackboneLoad& one, const Window& window, double capacity) const;

  const MachinePricing* pricing_;
  double slowest_us_ = 0.0;  // ranks and lone messages
  double longest_copy_us_ = 0.0;
  // The round's crossings (the first `crossings_` entries; storage kept from round to round).
  std::vector<BackboneLoad> backbone_;
  std::size_t crossings_ = 0;
  struct GroupTally {
    int group = 0;
    std::size_t bytes = 0;
    int flows = 0;
  };
  std::vector<GroupTally> by_group_;  // scratch: one rank's traffic per other group
  std::vector<Release> releases_;     // scratch for drain_us
  // The round's bytes per capacity of the network (MachinePricing::links) and machine level
  // (link_bytes_[capacity * levels + level]: the flows paying that level's latency), and the
  // capacities touched.
  std::vector<double> link_bytes_;
  std::vector<char> link_touched_;
  std::vector<double> link_bytes_in_all_;
  std::vector<RankTotals> rank_totals_;  // per rank over the rounds and groups added so far
  // The round's bytes through each group, per group capacity or link (MachinePricing::
  // shared_groups: for a link, out of the group, and into it in bytes_in), when every rank is
  // read; else their weighted total; each by the machine level whose latency they pay
  // (bytes[group * levels + level], weighted[level]), envelopes included.
  struct GroupTraffic {
    std::vector<double> bytes;
    std::vector<double> bytes_in;  // a group link's other direction (empty for a capacity)
    // A group link's bytes over the rounds and groups finished so far: per group (out, then in)
    // when every rank is read, else the largest group's share of the weighted total.
    std::vector<double> in_all;
    double weighted_in_all = 0.0;
    double completing_us = 0.0;  // a group link's: the longest c of the ranks receiving through it
    std::vector<double> weighted;
    // The messages out of each group (every rank read), or their weighted total.
    std::vector<double> messages;
    double weighted_messages = 0.0;
    bool any = false;
  };
  std::vector<GroupTraffic> group_traffic_;
  std::vector<LinkShare> link_use_;  // group_link_use()
  std::vector<int> links_touched_;
  bool recording_ = false;
  // This round, per sampled rank (its slot): bytes inside its group, and across.
  std::vector<LinkUse> near_, far_;
  // The bytes inside its group of the rank in each slot, summed over the rounds recorded
  // (near_rounds_ of them), kept per stretch of rounds finished as alike: stretch i starts at
  // round near_first_[i], and near_base_ / near_step_[i * sampled + s] hold slot s's sums
  // before it and what each of its rounds adds (a stretch, not a round, per entry: at scale
  // thousands of rounds are read as 64 stretches).
  std::vector<std::size_t> near_first_;
  std::vector<LinkUse> near_base_, near_step_;
  std::size_t near_rounds_ = 0;
  // Slot s's sums over rounds 0..round.
  LinkUse near_sum(std::size_t round, std::size_t slot) const;
};

// The hierarchical time of a schedule (every rank's part), in microseconds. `topology` (may be
// null) is the problem's; `machine` must pass check_machine.
double predict_hierarchical_us(const Schedule& schedule, const MachineCost& machine, const Topology* topology);

// The same rounds' times one by one.
std::vector<double> round_times_us(const Schedule& schedule, const MachineCost& machine, const Topology* topology);

// A one-level machine with Tam and Wang's parameters: o = O_s, latency T_w - O_s (so that a
// lone message costs k g + T_w), every bandwidth b / g, copies at copy_bytes_per_us.
MachineCost machine_from_tam_wang(const TamWangParams& params);

}  // namespace topocoll
