#include "model/plan_cost.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

#include "model/hierarchical_cost.hpp"
#include "model/round_timeline.hpp"
#include "schedule/staging_rule.hpp"

namespace topocoll {

namespace {

// Keeps a round's loads: the copies' bytes and the transfers kept in flight exactly `keep`
// more rounds; notes the other in-flight counts it sees.
class LoadSink final : public RoundSink {
 public:
  // Reads `rank`'s part of a round: the transfers kept in flight `keep` more rounds (0: the
  // round's own), and its copies when `staged_so_far` is given: the local copies, and those of
  // the transfers the executor stages (schedule/staging_rule.hpp), in and out of the staging
  // area, with the bytes the rank's earlier rounds staged; call finish() after the round.
  LoadSink(RankRoundLoad& load, std::size_t keep, std::size_t* staged_so_far, int rank, const MachinePricing& pricing)
      : load_(&load),
        keep_(keep),
        copies_(staged_so_far != nullptr),
        staged_so_far_(staged_so_far),
        rank_(rank),
        pricing_(&pricing) {}
  // A plan told without places still names each buffer a message touches (round_sink.hpp),
  // which is what decides whether the executor stages it.
  bool wants_places() const override { return false; }
  void copy(const Segment& from, const Segment&) override {
    if (copies_) load_->copy_bytes += from.length;
  }
  void copy_after_posts(const Segment& from, const Segment&) override {
    if (copies_) load_->copy_bytes_after_posts += from.length;
  }
  void send(int peer, std::span<const Segment> segments, std::size_t overlap_rounds) override {
    const std::size_t bytes = add(peer, segments, overlap_rounds, sends_);
    if (copies_ && overlap_rounds == keep_) stage(bytes, mixes_buffers(segments));
  }
  void recv(int peer, std::span<const Segment> segments, std::size_t overlap_rounds) override {
    const std::size_t bytes = add(peer, segments, overlap_rounds, recvs_);
    // The executor stages a round's sends before its receives.
    if (copies_ && overlap_rounds == keep_ && mixes_buffers(segments)) received_mixed_.push_back(bytes);
  }
  // The round's staged receives, once its sends have taken their share of the staging area.
  void finish() {
    for (const std::size_t bytes : received_mixed_) stage(bytes, true);
  }
  // The bytes the round staged.
  std::size_t staged() const { return staged_; }
  void send_pieces(int peer, std::size_t bytes, int pieces, std::size_t overlap_rounds) override {
    add_pieces(peer, bytes, pieces, overlap_rounds, sends_);
  }
  void recv_pieces(int peer, std::size_t bytes, int pieces, std::size_t overlap_rounds) override {
    add_pieces(peer, bytes, pieces, overlap_rounds, recvs_);
  }
  void send_pieces_to_run(int first, int count, std::size_t bytes, int pieces, std::size_t overlap_rounds) override {
    add_run(first, count, bytes, pieces, overlap_rounds, sends_);
  }
  void recv_pieces_from_run(int first, int count, std::size_t bytes, int pieces, std::size_t overlap_rounds) override {
    add_run(first, count, bytes, pieces, overlap_rounds, recvs_);
  }
  bool takes_in_flight(std::size_t overlap_rounds) const override { return overlap_rounds == keep_; }
  void skip_in_flight(std::size_t overlap_rounds) override { note_other(overlap_rounds); }
  const std::set<std::size_t>& other_in_flight() const { return others_; }

 private:
  // One direction's loads, with what the model reads of the last one's peer.
  struct Loads {
    std::vector<MessageLoad>* list;
    const LevelCost* last_level = nullptr;
    int last_group = -1;
    unsigned long long last_through = 0;
  };

  std::size_t add(int peer, std::span<const Segment> segments, std::size_t overlap_rounds, Loads& loads) {
    std::size_t bytes = 0;
    for (const Segment& s : segments) bytes += s.length;
    add_pieces(peer, bytes, 1, overlap_rounds, loads);
    return bytes;
  }
  // A staged transfer's bytes are copied once, into the staging area before its send or out of
  // it after its receive: charged with the round's copies.
  void stage(std::size_t bytes, bool mixes) {
    if (!is_staged(bytes, mixes, *staged_so_far_)) return;
    *staged_so_far_ += bytes;
    staged_ += bytes;
    load_->copy_bytes += bytes;
  }
  // A run of peers, cut where the model can tell them apart.
  void add_run(int first, int count, std::size_t bytes, int pieces, std::size_t overlap_rounds, Loads& loads) {
    for (int peer = first, end = first + count; peer < end;) {
      const int until = std::min(end, pricing_->alike_until(peer));
      add_pieces(peer, bytes, pieces, overlap_rounds, loads, static_cast<std::size_t>(until - peer));
      peer = until;
    }
  }
  void add_pieces(int peer, std::size_t bytes, int pieces, std::size_t overlap_rounds, Loads& loads,
                  std::size_t alike = 1) {
    if (overlap_rounds != keep_) {
      note_other(overlap_rounds);
      return;
    }
    if (&loads == &sends_ && pricing_->links() != nullptr) {
      const double on_links = MessageLoad{peer, bytes, pieces, 1}.bytes_on_links(pricing_->machine().envelope_bytes);
      for (std::size_t i = 0; i < alike; ++i) load_->routed_sends.push_back({peer + static_cast<int>(i), on_links});
    }
    // Alike to the last load (same size, same level, same backbone group, through the same
    // group capacities): one more peer of it.
    std::vector<MessageLoad>& list = *loads.list;
    const LevelCost* level = &pricing_->between(rank_, peer);
    const int group = pricing_->backbone_group(peer);
    const unsigned long long through = pricing_->shared_groups().empty() ? 0 : pricing_->through_groups(rank_, peer);
    if (!list.empty() && list.back().bytes == bytes && list.back().pieces == pieces && loads.last_level == level &&
        loads.last_group == group && loads.last_through == through) {
      list.back().alike += alike;
      return;
    }
    list.push_back({peer, bytes, pieces, alike});
    loads.last_level = level;
    loads.last_group = group;
    loads.last_through = through;
  }
  void note_other(std::size_t overlap_rounds) {
    if (overlap_rounds > 0 && overlap_rounds != last_other_) others_.insert(last_other_ = overlap_rounds);
  }

  RankRoundLoad* load_;
  Loads sends_{&load_->sends}, recvs_{&load_->recvs};
  std::size_t keep_;
  bool copies_;
  std::size_t* staged_so_far_;
  std::size_t staged_ = 0;
  std::vector<std::size_t> received_mixed_;  // receives that mix buffers, staged at finish()
  int rank_;
  const MachinePricing* pricing_;
  std::set<std::size_t> others_;
  std::size_t last_other_ = 0;  // the last one noted (a plan tells many alike in a row)
};

// The stretches of rounds read as one when the ranks are sampled (plan_cost.hpp).
constexpr std::size_t kSampledRounds = 64;

// A round read, and the stretch of rounds [first, first + count) it stands for.
struct ReadRound {
  std::size_t round = 0, first = 0, count = 1;
};

std::vector<ReadRound> rounds_to_read(const RoundPlan& plan, std::size_t rounds, bool sampled_ranks) {
  std::vector<ReadRound> read;
  const std::optional<std::vector<std::size_t>> posting = plan.rounds_posting_in_flight();
  if (!sampled_ranks || !posting || rounds <= kSampledRounds + 2) {
    for (std::size_t t = 0; t < rounds; ++t) read.push_back({t, t, 1});
    return read;
  }
  // Stretch boundaries: the first and last rounds and each posting round alone, equal
  // stretches between.
  std::vector<std::size_t> cuts = {0, 1, rounds - 1, rounds};
  for (std::size_t t : *posting) cuts.insert(cuts.end(), {t, t + 1});
  for (std::size_t i = 0; i <= kSampledRounds; ++i) cuts.push_back(1 + i * (rounds - 2) / kSampledRounds);
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  for (std::size_t i = 0; i + 1 < cuts.size() && cuts[i] < rounds; ++i) {
    const std::size_t count = std::min(cuts[i + 1], rounds) - cuts[i];
    read.push_back({cuts[i] + count / 2, cuts[i], count});
  }
  return read;
}

// A group kept in flight shares each group link with the rounds it overlaps, per flow
// (shared_link_rounds.hpp): the rounds get longer, and the group may end later than alone.
void share_group_links(const MachinePricing& pricing, const std::vector<LinkShare>& group_use,
                       const std::vector<std::vector<LinkShare>>& round_use, InFlightGroup& group,
                       std::vector<double>& round_us) {
  const MachineCost& m = pricing.machine();
  const double weight = m.backbone && m.backbone->near_weight > 0 ? m.backbone->near_weight : 1.0;
  std::vector<double> extra_us;
  double end_us = 0.0;
  for (std::size_t k = 0; k < group_use.size(); ++k) {
    if (!pricing.shared_groups()[k].link || group_use[k].messages <= 0.0) continue;
    const SharedLinkTimes shared = share_link_with_group(round_us, round_use[k], group.posted, group.completes,
                                                         group_use[k], pricing.shared_groups()[k].bytes_per_us, weight);
    extra_us.resize(std::max(extra_us.size(), shared.extra_us.size()), 0.0);
    for (std::size_t i = 0; i < shared.extra_us.size(); ++i) extra_us[i] = std::max(extra_us[i], shared.extra_us[i]);
    end_us = std::max(end_us, shared.group_end_us);
  }
  for (std::size_t i = 0; i < extra_us.size(); ++i) round_us[group.posted + i] += extra_us[i];
  group.us = std::max(group.us, end_us);
}

}  // namespace

std::vector<double> plan_round_times_us(const RoundPlan& plan, int size, const MachinePricing& pricing,
                                        double give_up_above_us) {
  RoundCostMeter meter(pricing);
  if (plan.keeps_transfers_in_flight()) meter.record_near_traffic();
  std::vector<std::size_t> rounds_of(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) rounds_of[r] = plan.rounds(r);
  const std::size_t rounds = size > 0 ? *std::max_element(rounds_of.begin(), rounds_of.end()) : 0;
  const std::span<const SampledRank> sampled = pricing.sample().ranks();
  std::vector<double> times;
  // Per group link (MachinePricing::shared_groups), what each round put on it.
  const auto& shared = pricing.shared_groups();
  std::vector<std::vector<LinkShare>> link_use(shared.size());
  std::set<std::pair<std::size_t, std::size_t>> in_flight;  // (posted round, overlap_rounds)
  RankRoundLoad load;
  double total = 0.0;
  std::vector<std::size_t> staged(static_cast<std::size_t>(size), 0);  // per rank read, so far
  for (const ReadRound& read : rounds_to_read(plan, rounds, !pricing.sample().every_rank())) {
    const std::size_t t = read.round;
    for (const auto& [r, weight] : sampled) {
      if (t >= rounds_of[r]) continue;
      load.clear();
      LoadSink sink(load, 0, &staged[static_cast<std::size_t>(r)], r, pricing);
      plan.emit(r, t, sink);
      sink.finish();
      // A round read for a stretch stages for each of its rounds.
      staged[static_cast<std::size_t>(r)] += sink.staged() * (read.count - 1);
      meter.add(r, load, weight);
      for (std::size_t k : sink.other_in_flight()) in_flight.insert({t, k});
    }
    const double us = meter.finish_round(read.count);
    times.insert(times.end(), read.count, us);
    for (std::size_t k = 0; k < shared.size(); ++k) {
      link_use[k].insert(link_use[k].end(), read.count, meter.group_link_use()[k]);
    }
    total += us * static_cast<double>(read.count);
    if (total > give_up_above_us) return times;
  }
  std::vector<InFlightGroup> groups;
  for (const auto& [posted, k] : in_flight) {
    std::size_t most_posts = 0;
    for (const auto& [r, weight] : sampled) {
      if (posted >= rounds_of[r]) continue;
      load.clear();
      LoadSink sink(load, k, nullptr, r, pricing);
      plan.emit(r, posted, sink);
      most_posts = std::max({most_posts, message_count(load.sends), message_count(load.recvs)});
      meter.add(r, load, weight);
    }
    const double posting_us = pricing.machine().send_overhead_us * static_cast<double>(most_posts);
    groups.push_back({posted, posted + k, meter.finish_in_flight(posted, posted + k), posting_us});
    share_group_links(pricing, meter.group_link_use(), link_use, groups.back(), times);
  }
  std::vector<double> laid = overlapped_round_times(times, groups);
  // A group laid over rounds shares the network's links (and the groups' links) with them, which
  // the rounds' times do not see: whatever the overlap, no link passes the schedule's bytes
  // faster than its bandwidth.
  if (!laid.empty() && (pricing.links() != nullptr || pricing.has_group_links())) {
    const double floor_us = meter.links_floor_us();
    double sum = 0.0;
    for (const double us : laid) sum += us;
    if (sum < floor_us) laid.back() += floor_us - sum;
  }
  return laid;
}

double predict_plan_us(const RoundPlan& plan, int size, const MachinePricing& pricing, double give_up_above_us) {
  double total = 0.0;
  for (double t : plan_round_times_us(plan, size, pricing, give_up_above_us)) total += t;
  return total;
}

RecordedRounds::RecordedRounds(const Schedule& schedule) : schedule_(&schedule) {
  std::set<std::size_t> posting;
  for (const RankSchedule& rs : schedule.ranks)
    for (std::size_t t = 0; t < rs.rounds.size(); ++t)
      for (const Transfer& transfer : rs.rounds[t].sends)
        if (transfer.overlap_rounds > 0) posting.insert(t);
  posting_.assign(posting.begin(), posting.end());
}

void RecordedRounds::emit(int rank, std::size_t round, RoundSink& sink) const {
  tell_round(schedule_->ranks[rank].rounds[round], sink);
}

}  // namespace topocoll
