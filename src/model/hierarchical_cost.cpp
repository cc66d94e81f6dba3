// The hierarchical cost model, round by round (see hierarchical_cost.hpp).
#include "model/hierarchical_cost.hpp"

#include <algorithm>
#include <span>
#include <utility>

#include "model/plan_cost.hpp"

namespace topocoll {

namespace {

double transfer_us(std::size_t bytes, double bytes_per_us) { return static_cast<double>(bytes) / bytes_per_us; }
double transfer_us(double bytes, double bytes_per_us) { return bytes / bytes_per_us; }

// The earliest time a shared capacity can carry bytes that become available at their release
// times ((when, bytes) each, reordered here): max over k of (k-th release + bytes released from
// then on / capacity); 0 with none.
double latest_drain_us(std::vector<std::pair<double, double>>& releases, double bytes_per_us) {
  if (releases.empty()) return 0.0;
  double total = 0;
  double first = releases.front().first, last = first;
  for (const auto& [when, bytes] : releases) {
    total += bytes;
    first = std::min(first, when);
    last = std::max(last, when);
  }
  if (first == last) return first + transfer_us(total, bytes_per_us);
  std::sort(releases.begin(), releases.end());
  double end_us = 0.0;
  double later = 0;
  for (auto it = releases.rbegin(); it != releases.rend(); ++it) {
    later += it->second;
    end_us = std::max(end_us, it->first + transfer_us(later, bytes_per_us));
  }
  return end_us;
}

}  // namespace

std::size_t message_count(const std::vector<MessageLoad>& loads) {
  std::size_t messages = 0;
  for (const MessageLoad& load : loads) messages += static_cast<std::size_t>(load.pieces) * load.alike;
  return messages;
}

void RoundCostMeter::add(int rank, const RankRoundLoad& load, double weight) {
  const MachineCost& m = pricing_->machine();
  const double copy_us = m.copy_bytes_per_us > 0 ? transfer_us(load.copy_bytes, m.copy_bytes_per_us) : 0.0;
  longest_copy_us_ = std::max(longest_copy_us_, copy_us);
  const double after_copy_us =
      m.copy_bytes_per_us > 0 ? transfer_us(load.copy_bytes_after_posts, m.copy_bytes_per_us) : 0.0;
  double rank_us = copy_us;
  if (!load.sends.empty() || !load.recvs.empty()) {
    double latency_us = 0.0;
    const auto is_eager = [&m](const MessageLoad& message) {
      return !m.recv_overhead_until_bytes || message.largest_piece() <= *m.recv_overhead_until_bytes;
    };
    // out and in: the bytes through the rank's own link (not those that stay inside its host),
    // envelopes included.
    double out = 0.0, in = 0.0;
    std::size_t eager_out = 0;
    std::size_t smallest = load.sends.empty() ? 0 : load.sends.front().smallest_piece();
    for (const MessageLoad& send : load.sends) {
      const LevelCost& level = pricing_->between(rank, send.peer);
      latency_us = std::max(latency_us, level.latency_us);
      if (pricing_->through_rank_links(rank, send.peer)) out += send.bytes_on_links(m.envelope_bytes);
      if (is_eager(send)) eager_out += send.total_bytes();
      smallest = std::min(smallest, send.smallest_piece());
      const double alone_us =
          copy_us + m.send_overhead_us + level.latency_us + transfer_us(send.largest_piece(), level.bytes_per_us);
      slowest_us_ = std::max(slowest_us_, alone_us);
    }
    std::size_t receives = 0, eager = 0, eager_in = 0;  // eager: up to the limit that pays o_r
    for (const MessageLoad& recv : load.recvs) {
      latency_us = std::max(latency_us, pricing_->between(recv.peer, rank).latency_us);
      if (pricing_->through_rank_links(recv.peer, rank)) in += recv.bytes_on_links(m.envelope_bytes);
      const std::size_t n = static_cast<std::size_t>(recv.pieces) * recv.alike;
      receives += n;
      if (is_eager(recv)) {
        eager += n;
        eager_in += recv.total_bytes();
      }
    }
    // The CPU copies eager messages in while posting and out while completing (machine_cost.hpp).
    const double copy_in_us = m.eager_copy_bytes_per_us ? transfer_us(eager_out, *m.eager_copy_bytes_per_us) : 0.0;
    const double copy_out_us = m.eager_copy_bytes_per_us ? transfer_us(eager_in, *m.eager_copy_bytes_per_us) : 0.0;
    // Posting is sequential and data flows meanwhile: the last message posted still has to go
    // (at least the smallest), and everything has to cross the rank's link. Then the CPU
    // completes the receives, which arrive together as the link drains, one after another (the
    // first one's completion is in the latency). Without a measured o_r, a receive costs o as a
    // post, beside the sends.
    const std::size_t sends = message_count(load.sends);
    // Beyond the eager limit the receiver's CPU runs each message's rendezvous (machine_cost.hpp).
    const double rendezvous_us = m.rendezvous_us ? static_cast<double>(receives - eager) * *m.rendezvous_us : 0.0;
    double messages = static_cast<double>(sends), completing_us = copy_out_us + rendezvous_us;
    if (m.recv_overhead_us) {
      if (eager > 1) completing_us += static_cast<double>(eager - 1) * *m.recv_overhead_us;
    } else {
      messages = static_cast<double>(std::max(sends, receives));
    }
    const double posting_us =
        messages * m.send_overhead_us + copy_in_us + transfer_us(smallest, m.injection_bytes_per_us) + completing_us;
    const double wire_us = std::max(transfer_us(out, m.injection_bytes_per_us),
                                    transfer_us(in, m.ejection_bytes_per_us) + completing_us);
    // Copies after the posts take the CPU while the data flows; the receives complete after both.
    const double after_posts_us = messages * m.send_overhead_us + copy_in_us + after_copy_us + completing_us;
    rank_us += std::max(latency_us + std::max(posting_us, m.send_overhead_us + wire_us), after_posts_us);
    // The network's links, where seen, stand for the backbone (which stands for them elsewhere).
    if (pricing_->links() != nullptr) {
      add_link_traffic(rank, load, weight, RankTotals{out, in, copy_us, latency_us});
    } else if (pricing_->backbone_group(rank) >= 0) {
      add_backbone_traffic(rank, load, weight);
    }
    if (!pricing_->shared_groups().empty()) add_group_traffic(rank, load, weight, completing_us);
  } else {
    rank_us += after_copy_us;
  }
  slowest_us_ = std::max(slowest_us_, rank_us);
}

void RoundCostMeter::add_link_traffic(int rank, const RankRoundLoad& load, double weight, const RankTotals& round) {
  const RoutedCapacities& links = *pricing_->links();
  const std::size_t levels = pricing_->machine().levels.size();
  if (link_bytes_.empty()) {
    link_bytes_.assign(links.bytes_per_us.size() * levels, 0.0);
    link_touched_.assign(links.bytes_per_us.size(), 0);
  }
  if (rank_totals_.empty()) rank_totals_.assign(static_cast<std::size_t>(pricing_->size()), {});
  RankTotals& mine = rank_totals_[static_cast<std::size_t>(rank)];
  mine.out += round.out;
  mine.in += round.in;
  mine.copy_us += round.copy_us;
  mine.latency_us = std::max(mine.latency_us, round.latency_us);
  for (const auto& [peer, bytes] : load.routed_sends) {
    const std::size_t level = pricing_->level_index(rank, peer);
    for (const int c : links.routes.route(rank, peer)) {
      const auto at = static_cast<std::size_t>(c);
      if (!link_touched_[at]) {
        link_touched_[at] = 1;
        links_touched_.push_back(c);
      }
      link_bytes_[at * levels + level] += weight * bytes;
    }
  }
}

double RoundCostMeter::links_us(double start_us, std::size_t alike) {
  double longest_us = 0.0;
  const RoutedCapacities* links = pricing_->links();
  const std::vector<LevelCost>& levels = pricing_->machine().levels;
  if (link_bytes_in_all_.empty()) link_bytes_in_all_.assign(links->bytes_per_us.size(), 0.0);
  for (const int c : links_touched_) {
    const auto at = static_cast<std::size_t>(c);
    const std::span<double> bytes(link_bytes_.data() + at * levels.size(), levels.size());
    longest_us = std::max(longest_us, start_us + level_drain_us(bytes, links->bytes_per_us[at]));
    for (double& b : bytes) {
      link_bytes_in_all_[at] += b * static_cast<double>(alike);
      b = 0.0;
    }
    link_touched_[at] = 0;
  }
  links_touched_.clear();
  return longest_us;
}

double RoundCostMeter::links_floor_us() const {
  const MachineCost& m = pricing_->machine();
  double floor_us = 0.0;
  for (const RankTotals& rank : rank_totals_) {
    if (rank.out == 0 && rank.in == 0) continue;
    // Its copies (the model does not overlap them with its messages), a post, and all its bytes
    // through its link after the largest latency of its messages (as a round of the model).
    floor_us = std::max(floor_us, rank.copy_us + m.send_overhead_us + rank.latency_us +
                                      std::max(transfer_us(rank.out, m.injection_bytes_per_us),
                                               transfer_us(rank.in, m.ejection_bytes_per_us)));
  }
  const RoutedCapacities* links = pricing_->links();
  for (std::size_t c = 0; c < link_bytes_in_all_.size(); ++c) {
    floor_us = std::max(floor_us, transfer_us(link_bytes_in_all_[c], links->bytes_per_us[c]));
  }
  const auto& shared = pricing_->shared_groups();
  for (std::size_t k = 0; k < group_traffic_.size(); ++k) {
    const GroupTraffic& traffic = group_traffic_[k];
    double busiest = traffic.weighted_in_all;
    for (const double bytes : traffic.in_all) busiest = std::max(busiest, bytes);
    floor_us = std::max(floor_us, transfer_us(busiest, shared[k].bytes_per_us));
  }
  return floor_us;
}

void RoundCostMeter::add_group_traffic(int rank, const RankRoundLoad& load, double weight, double completing_us) {
  const auto& shared = pricing_->shared_groups();
  const std::size_t levels = pricing_->machine().levels.size();
  const double envelope = pricing_->machine().envelope_bytes;
  // Reading every rank, each group's bytes; from a sample, their weighted total (group_traffic_us).
  const bool every_rank = pricing_->sample().every_rank();
  if (group_traffic_.empty()) {
    for (const MachinePricing::SharedGroups& groups : shared) {
      const std::size_t groups_read = every_rank ? static_cast<std::size_t>(groups.groups) : 0;
      GroupTraffic fresh;
      fresh.bytes.assign(groups_read * levels, 0.0);
      fresh.bytes_in.assign(groups.link ? groups_read * levels : 0, 0.0);
      fresh.weighted.assign(levels, 0.0);
      fresh.messages.assign(groups_read, 0.0);
      group_traffic_.push_back(std::move(fresh));
    }
  }
  for (std::size_t k = 0; k < shared.size(); ++k) {
    const auto mine = static_cast<std::size_t>(pricing_->group(rank, shared[k].level));
    GroupTraffic& traffic = group_traffic_[k];
    // Peers merged as alike go through the same group capacities as `peer` (plan_cost.cpp). A
    // group's link carries its ranks' sends one way and their receives the other; from a sample,
    // the sends stand for both (what leaves the groups enters them).
    // Whether any of `loads` goes through.
    const auto count = [&](const std::vector<MessageLoad>& loads, std::vector<double>& per_group, bool weighted) {
      bool through = false;
      for (const MessageLoad& message : loads) {
        if (!shared[k].through(*pricing_, rank, message.peer)) continue;
        const std::size_t level = pricing_->level_index(rank, message.peer);
        const double messages = static_cast<double>(message.pieces) * static_cast<double>(message.alike);
        if (every_rank) {
          per_group[mine * levels + level] += message.bytes_on_links(envelope);
          if (weighted) traffic.messages[mine] += messages;
        } else if (weighted) {
          traffic.weighted[level] += weight * message.bytes_on_links(envelope);
          traffic.weighted_messages += weight * messages;
        }
        through = true;
      }
      traffic.any = traffic.any || through;
      return through;
    };
    count(load.sends, traffic.bytes, true);
    // The receives through a link complete once it has passed them (as through the rank's own).
    if (shared[k].link && count(load.recvs, traffic.bytes_in, false)) {
      traffic.completing_us = std::max(traffic.completing_us, completing_us);
    }
  }
}

double RoundCostMeter::group_traffic_us(double start_us, std::size_t alike) {
  double longest_us = 0.0;
  const auto& shared = pricing_->shared_groups();
  const std::vector<LevelCost>& levels = pricing_->machine().levels;
  for (std::size_t k = 0; k < group_traffic_.size(); ++k) {
    GroupTraffic& traffic = group_traffic_[k];
    if (!traffic.any) continue;
    LinkShare& use = link_use_[k];
    const double bytes_per_us = shared[k].bytes_per_us;
    // A link's bytes also join its sums over the schedule (links_floor_us).
    const bool summed = shared[k].link;
    // Per group when every rank is read (`bytes` then has an entry per group and level, and is
    // empty otherwise); else the largest group's share of the weighted total.
    const double share = static_cast<double>(shared[k].largest) / pricing_->size();
    double weighted_bytes = 0.0;
    for (double& bytes : traffic.weighted) {
      bytes *= share;
      weighted_bytes += bytes;
    }
    double busiest_us = level_drain_us(traffic.weighted, bytes_per_us);
    if (summed) {
      traffic.weighted_in_all += weighted_bytes * static_cast<double>(alike);
      use = {weighted_bytes, std::exchange(traffic.weighted_messages, 0.0) * share};
    }
    std::fill(traffic.weighted.begin(), traffic.weighted.end(), 0.0);
    std::size_t at = 0;
    for (auto* per_group : {&traffic.bytes, &traffic.bytes_in}) {
      if (summed && traffic.in_all.empty()) {
        traffic.in_all.assign((traffic.bytes.size() + traffic.bytes_in.size()) / levels.size(), 0.0);
      }
      for (std::size_t first = 0; first < per_group->size(); first += levels.size()) {
        const std::span<double> group(per_group->data() + first, levels.size());
        busiest_us = std::max(busiest_us, level_drain_us(group, bytes_per_us));
        double bytes = 0.0;
        for (double& b : group) bytes += std::exchange(b, 0.0);
        if (summed) {
          // The busiest group's way out (the sends, the first half) is what the link's use tells.
          const std::size_t group_index = first / levels.size();
          if (per_group == &traffic.bytes && bytes > use.bytes) use = {bytes, traffic.messages[group_index]};
          traffic.in_all[at++] += bytes * static_cast<double>(alike);
        }
      }
    }
    std::fill(traffic.messages.begin(), traffic.messages.end(), 0.0);
    longest_us = std::max(longest_us, start_us + busiest_us + traffic.completing_us);
    traffic.completing_us = 0.0;
    traffic.any = false;
  }
  return longest_us;
}

RoundCostMeter::BackboneLoad& RoundCostMeter::crossing(int from, int to) {
  for (std::size_t i = 0; i < crossings_; ++i)
    if (backbone_[i].from == from && backbone_[i].to == to) return backbone_[i];
  if (crossings_ == backbone_.size()) backbone_.emplace_back();
  BackboneLoad& fresh = backbone_[crossings_++];
  fresh.from = from;
  fresh.to = to;
  fresh.bytes = 0;
  fresh.flows = 0;
  fresh.senders.clear();
  fresh.receivers.clear();
  return fresh;
}

const RoundCostMeter::BackboneLoad* RoundCostMeter::find_crossing(int from, int to) const {
  for (std::size_t i = 0; i < crossings_; ++i)
    if (backbone_[i].from == from && backbone_[i].to == to) return &backbone_[i];
  return nullptr;
}

void RoundCostMeter::add_backbone_traffic(int rank, const RankRoundLoad& load, double weight) {
  const MachineCost& m = pricing_->machine();
  const int group = pricing_->backbone_group(rank);
  // One pass per direction: bytes that stay inside the rank's group, and per other group the
  // bytes and flows that cross.
  auto tally = [this, group](const std::vector<MessageLoad>& messages, std::size_t& near) {
    by_group_.clear();
    std::size_t last = 0;  // messages to one group come in runs: try the last one first
    for (const MessageLoad& message : messages) {
      const int other = pricing_->backbone_group(message.peer);
      if (other == group) {
        near += message.total_bytes();
        continue;
      }
      if (last >= by_group_.size() || by_group_[last].group != other) {
        last = static_cast<std::size_t>(
            std::find_if(by_group_.begin(), by_group_.end(), [&](const GroupTally& t) { return t.group == other; }) -
            by_group_.begin());
        if (last == by_group_.size()) by_group_.push_back(GroupTally{other, 0, 0});
      }
      by_group_[last].bytes += message.total_bytes();
      by_group_[last].flows += message.pieces * static_cast<int>(message.alike);
    }
  };
  // The rank's shorter-route flows take its link first (latency-weighted sharing): its flows
  // across the backbone are released once they are through.
  std::size_t near_out = 0, near_in = 0;
  LinkUse across;
  tally(load.sends, near_out);
  const double send_release_us = transfer_us(near_out, m.injection_bytes_per_us);
  // What crosses carries its envelopes too.
  const auto on_backbone = [&m](const GroupTally& t) {
    return static_cast<double>(t.bytes) + m.envelope_bytes * static_cast<double>(t.flows);
  };
  for (const GroupTally& t : by_group_) {
    BackboneLoad& out = crossing(group, t.group);
    out.bytes += weight * on_backbone(t);
    out.flows += weight * t.flows;
    out.senders.push_back({send_release_us, weight * on_backbone(t)});
    across.out += t.bytes;
    across.flows_out += t.flows;
  }
  tally(load.recvs, near_in);
  const double recv_release_us = transfer_us(near_in, m.ejection_bytes_per_us);
  for (const GroupTally& t : by_group_) {
    crossing(t.group, group).receivers.push_back({recv_release_us, weight * on_backbone(t)});
    across.in += t.bytes;
    across.flows_in += t.flows;
  }
  if (recording_) {
    const std::size_t sampled = pricing_->sample().ranks().size();
    if (near_.size() != sampled) near_.assign(sampled, {}), far_.assign(sampled, {});
    const auto slot = static_cast<std::size_t>(pricing_->sample().slot(rank));
    near_[slot].out += near_out;
    near_[slot].in += near_in;
    far_[slot].out += across.out;
    far_[slot].in += across.in;
    far_[slot].flows_out += across.flows_out;
    far_[slot].flows_in += across.flows_in;
  }
}

double RoundCostMeter::shared_link_drain_us(const BackboneLoad& one, const Window& window, double capacity) const {
  const MachineCost& m = pricing_->machine();
  const double weight = m.backbone->near_weight;
  const double latency_us = pricing_->backbone_latency_us();
  // Per rank of either side: until `until` its link passes `slow` bytes/us across, then `fast`
  // (times the ranks it stands for).
  struct Phase {
    double until, slow, fast;
    bool sender;
  };
  std::vector<Phase> phases;
  double supply[2] = {0.0, 0.0};  // receivers, senders: at the start of the flows' data
  double link_bound_us = 0.0;
  const std::span<const SampledRank> sampled = pricing_->sample().ranks();
  for (std::size_t slot = 0; slot < sampled.size(); ++slot) {
    const int group = pricing_->backbone_group(sampled[slot].rank);
    const double weight_of_rank = sampled[slot].weight;
    for (const bool sender : {true, false}) {
      if (group != (sender ? one.from : one.to)) continue;
      const int flows = sender ? far_[slot].flows_out : far_[slot].flows_in;
      if (flows == 0) continue;
      const auto sum = [&](std::size_t t) { return sender ? near_sum(t, slot).out : near_sum(t, slot).in; };
      const double near = static_cast<double>(sum(window.last) - (window.first > 0 ? sum(window.first - 1) : 0));
      const double far = static_cast<double>(sender ? far_[slot].out : far_[slot].in);
      const double link = sender ? m.injection_bytes_per_us : m.ejection_bytes_per_us;
      const double share = weight / (weight + flows);
      // The flows inside run alone while those across are still in their latency.
      const double alone = latency_us * link;
      const double until = near <= alone ? near / link : latency_us + (near - alone) / (share * link);
      phases.push_back({until, weight_of_rank * (1.0 - share) * link, weight_of_rank * link, sender});
      supply[sender] += weight_of_rank * (until > latency_us ? (1.0 - share) * link : link);
      link_bound_us = std::max(link_bound_us, std::max(latency_us + far / link, (near + far) / link));
    }
  }
  std::sort(phases.begin(), phases.end(), [](const Phase& a, const Phase& b) { return a.until < b.until; });
  double now = latency_us, left = one.bytes;
  for (std::size_t i = 0;; ++i) {
    const double rate = std::min({capacity, supply[0] > 0 ? supply[0] : capacity, supply[1] > 0 ? supply[1] : capacity});
    const double next = i < phases.size() ? std::max(phases[i].until, now) : now + left / rate;
    if (i == phases.size() || rate * (next - now) >= left) return std::max(link_bound_us, now + left / rate);
    left -= rate * (next - now);
    now = next;
    if (phases[i].until > latency_us) supply[phases[i].sender] += phases[i].fast - phases[i].slow;
  }
}

// The same releases, none before floor_us (latest_drain_us).
double RoundCostMeter::drain_us(const std::vector<Release>& a, const std::vector<Release>* b, double bytes_per_us,
                                double floor_us) {
  releases_.assign(a.begin(), a.end());
  if (b) releases_.insert(releases_.end(), b->begin(), b->end());
  for (Release& r : releases_) r.first = std::max(r.first, floor_us);
  return latest_drain_us(releases_, bytes_per_us);
}

// A flow moves no data before its latency: each machine level's bytes are released at its
// latency (latest_drain_us).
double RoundCostMeter::level_drain_us(std::span<const double> bytes_by_level, double bytes_per_us) {
  const std::vector<LevelCost>& levels = pricing_->machine().levels;
  releases_.clear();
  for (std::size_t l = 0; l < bytes_by_level.size(); ++l) {
    if (bytes_by_level[l] > 0.0) releases_.push_back({levels[l].latency_us, bytes_by_level[l]});
  }
  return latest_drain_us(releases_, bytes_per_us);
}

double RoundCostMeter::finish_round(std::size_t alike) { return finish(nullptr, alike); }

double RoundCostMeter::finish_in_flight(std::size_t first_round, std::size_t last_round) {
  const Window window{first_round, std::min(last_round, near_rounds_ == 0 ? 0 : near_rounds_ - 1)};
  return finish(recording_ && near_rounds_ > 0 && first_round <= window.last ? &window : nullptr, 1);
}

RoundCostMeter::LinkUse RoundCostMeter::near_sum(std::size_t round, std::size_t slot) const {
  const auto i = static_cast<std::size_t>(std::upper_bound(near_first_.begin(), near_first_.end(), round) -
                                          near_first_.begin() - 1);
  const std::size_t at = i * pricing_->sample().ranks().size() + slot;
  const std::size_t rounds = round - near_first_[i] + 1;
  return LinkUse{near_base_[at].out + rounds * near_step_[at].out, near_base_[at].in + rounds * near_step_[at].in};
}

double RoundCostMeter::finish(const Window* window, std::size_t alike) {
  double round_us = slowest_us_;
  if (!links_touched_.empty()) {
    round_us = std::max(round_us, links_us(longest_copy_us_ + pricing_->machine().send_overhead_us, alike));
  }
  link_use_.assign(pricing_->shared_groups().size(), LinkShare{});
  if (!group_traffic_.empty()) {
    round_us = std::max(round_us, group_traffic_us(longest_copy_us_ + pricing_->machine().send_overhead_us, alike));
  }
  if (crossings_ > 0) {
    const BackboneCost& bb = *pricing_->machine().backbone;
    // The flows across move no data before their backbone latency has passed, and the flows
    // inside their groups take the links meanwhile: a release earlier than the latency costs
    // nothing (drain_us's floor).
    const double start_us = longest_copy_us_ + pricing_->machine().send_overhead_us;
    const double latency_us = pricing_->backbone_latency_us();
    for (std::size_t i = 0; i < crossings_; ++i) {
      const BackboneLoad& one = backbone_[i];
      if (one.flows == 0) continue;
      // A backbone that was no limit of its own widens with the groups' links.
      const double wider = pricing_->backbone_widening(one.from, one.to);
      const double capacity = bb.capacity_bytes_per_us(one.flows) * wider;
      round_us = std::max(round_us, start_us + std::max(drain_us(one.senders, nullptr, capacity, latency_us),
                                                        drain_us(one.receivers, nullptr, capacity, latency_us)));
      const BackboneLoad* back = find_crossing(one.to, one.from);
      const double both = bb.duplex_ratio * bb.capacity_bytes_per_us((one.flows + (back ? back->flows : 0)) / 2.0) *
                          (wider + pricing_->backbone_widening(one.to, one.from)) / 2.0;
      round_us = std::max(
          round_us, start_us + std::max(drain_us(one.senders, back ? &back->senders : nullptr, both, latency_us),
                                        drain_us(one.receivers, back ? &back->receivers : nullptr, both, latency_us)));
      if (window && bb.near_weight > 0) {
        round_us = std::max(round_us, start_us + shared_link_drain_us(one, *window, capacity));
      }
    }
  }
  if (recording_) {
    if (!window && alike > 0) {  // rounds: their bytes inside the groups join the sums
      const std::size_t sampled = pricing_->sample().ranks().size();
      near_.resize(sampled);
      for (std::size_t s = 0; s < sampled; ++s) {
        near_base_.push_back(near_first_.empty() ? LinkUse{} : near_sum(near_rounds_ - 1, s));
      }
      near_step_.insert(near_step_.end(), near_.begin(), near_.end());
      near_first_.push_back(near_rounds_);
      near_rounds_ += alike;
    }
    std::fill(near_.begin(), near_.end(), LinkUse{});
    std::fill(far_.begin(), far_.end(), LinkUse{});
  }
  slowest_us_ = 0.0;
  longest_copy_us_ = 0.0;
  crossings_ = 0;
  return round_us;
}

std::vector<double> round_times_us(const Schedule& schedule, const MachineCost& machine, const Topology* topology) {
  const MachinePricing pricing(machine, topology, schedule.size);
  return plan_round_times_us(RecordedRounds(schedule), static_cast<int>(schedule.ranks.size()), pricing);
}

double predict_hierarchical_us(const Schedule& schedule, const MachineCost& machine, const Topology* topology) {
  double total = 0.0;
  for (double t : round_times_us(schedule, machine, topology)) total += t;
  return total;
}

MachineCost machine_from_tam_wang(const TamWangParams& params) {
  const double link_bytes_per_us = static_cast<double>(params.packet_bytes) / params.gap_us;
  MachineCost machine;
  machine.levels.push_back({"same group", params.t_w() - params.send_overhead_us, link_bytes_per_us});
  machine.send_overhead_us = params.send_overhead_us;
  machine.injection_bytes_per_us = link_bytes_per_us;
  machine.ejection_bytes_per_us = link_bytes_per_us;
  machine.copy_bytes_per_us = params.copy_bytes_per_us;
  return machine;
}

}  // namespace topocoll
