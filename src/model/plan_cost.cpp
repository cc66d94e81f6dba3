#include "model/plan_cost.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

#include "model/hierarchical_cost.hpp"
#include "model/round_timeline.hpp"

namespace topocoll {

namespace {

// Keeps a round's loads: the copies' bytes and the transfers kept in flight exactly `keep`
// more rounds; notes the other in-flight counts it sees.
class LoadSink final : public RoundSink {
 public:
  LoadSink(RankRoundLoad& load, std::size_t keep, bool with_copies) : load_(&load), keep_(keep), copies_(with_copies) {}
  bool wants_places() const override { return false; }
  void copy(const Segment& from, const Segment&) override {
    if (copies_) load_->copy_bytes += from.length;
  }
  void send(int peer, std::span<const Segment> segments, std::size_t overlap_rounds) override {
    add(peer, segments, overlap_rounds, load_->sends);
  }
  void recv(int peer, std::span<const Segment> segments, std::size_t overlap_rounds) override {
    add(peer, segments, overlap_rounds, load_->recvs);
  }
  void send_pieces(int peer, std::size_t bytes, int pieces, std::size_t overlap_rounds) override {
    add_pieces(peer, bytes, pieces, overlap_rounds, load_->sends);
  }
  void recv_pieces(int peer, std::size_t bytes, int pieces, std::size_t overlap_rounds) override {
    add_pieces(peer, bytes, pieces, overlap_rounds, load_->recvs);
  }
  const std::set<std::size_t>& other_in_flight() const { return others_; }

 private:
  void add(int peer, std::span<const Segment> segments, std::size_t overlap_rounds, std::vector<MessageLoad>& list) {
    std::size_t bytes = 0;
    for (const Segment& s : segments) bytes += s.length;
    add_pieces(peer, bytes, 1, overlap_rounds, list);
  }
  void add_pieces(int peer, std::size_t bytes, int pieces, std::size_t overlap_rounds, std::vector<MessageLoad>& list) {
    if (overlap_rounds != keep_) {
      if (overlap_rounds > 0 && overlap_rounds != last_other_) others_.insert(last_other_ = overlap_rounds);
      return;
    }
    list.push_back({peer, bytes, pieces});
  }

  RankRoundLoad* load_;
  std::size_t keep_;
  bool copies_;
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
  std::set<std::pair<std::size_t, std::size_t>> in_flight;  // (posted round, overlap_rounds)
  RankRoundLoad load;
  double total = 0.0;
  for (const ReadRound& read : rounds_to_read(plan, rounds, !pricing.sample().every_rank())) {
    const std::size_t t = read.round;
    for (const auto& [r, weight] : sampled) {
      if (t >= rounds_of[r]) continue;
      load.clear();
      LoadSink sink(load, 0, true);
      plan.emit(r, t, sink);
      meter.add(r, load, weight);
      for (std::size_t k : sink.other_in_flight()) in_flight.insert({t, k});
    }
    const double us = meter.finish_round(read.count);
    times.insert(times.end(), read.count, us);
    total += us * static_cast<double>(read.count);
    if (total > give_up_above_us) return times;
  }
  std::vector<InFlightGroup> groups;
  for (const auto& [posted, k] : in_flight) {
    std::size_t most_posts = 0;
    for (const auto& [r, weight] : sampled) {
      if (posted >= rounds_of[r]) continue;
      load.clear();
      LoadSink sink(load, k, false);
      plan.emit(r, posted, sink);
      most_posts = std::max({most_posts, message_count(load.sends), message_count(load.recvs)});
      meter.add(r, load, weight);
    }
    const double posting_us = pricing.machine().send_overhead_us * static_cast<double>(most_posts);
    groups.push_back({posted, posted + k, meter.finish_in_flight(posted, posted + k), posting_us});
  }
  return overlapped_round_times(times, groups);
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
  const Round& r = schedule_->ranks[rank].rounds[round];
  for (const LocalCopy& c : r.copies) sink.copy(c.from, c.to);
  for (const Transfer& t : r.sends) sink.send(t.peer, t.segments, t.overlap_rounds);
  for (const Transfer& t : r.recvs) sink.recv(t.peer, t.segments, t.overlap_rounds);
}

}  // namespace topocoll
