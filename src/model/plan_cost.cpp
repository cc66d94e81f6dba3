#include "model/plan_cost.hpp"

#include <algorithm>
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
  const std::set<std::size_t>& other_in_flight() const { return others_; }

 private:
  void add(int peer, std::span<const Segment> segments, std::size_t overlap_rounds, std::vector<MessageLoad>& list) {
    if (overlap_rounds != keep_) {
      if (overlap_rounds > 0) others_.insert(overlap_rounds);
      return;
    }
    std::size_t bytes = 0;
    for (const Segment& s : segments) bytes += s.length;
    list.push_back({peer, bytes});
  }

  RankRoundLoad* load_;
  std::size_t keep_;
  bool copies_;
  std::set<std::size_t> others_;
};

}  // namespace

std::vector<double> plan_round_times_us(const RoundPlan& plan, int size, const MachinePricing& pricing,
                                        double give_up_above_us) {
  RoundCostMeter meter(pricing);
  if (plan.keeps_transfers_in_flight()) meter.record_near_traffic();
  std::vector<std::size_t> rounds_of(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) rounds_of[r] = plan.rounds(r);
  const std::size_t rounds = size > 0 ? *std::max_element(rounds_of.begin(), rounds_of.end()) : 0;
  std::vector<double> times;
  std::set<std::pair<std::size_t, std::size_t>> in_flight;  // (posted round, overlap_rounds)
  RankRoundLoad load;
  double total = 0.0;
  for (std::size_t t = 0; t < rounds; ++t) {
    for (int r = 0; r < size; ++r) {
      if (t >= rounds_of[r]) continue;
      load.clear();
      LoadSink sink(load, 0, true);
      plan.emit(r, t, sink);
      meter.add(r, load);
      for (std::size_t k : sink.other_in_flight()) in_flight.insert({t, k});
    }
    times.push_back(meter.finish_round());
    total += times.back();
    if (total > give_up_above_us) return times;
  }
  std::vector<InFlightGroup> groups;
  for (const auto& [posted, k] : in_flight) {
    std::size_t most_posts = 0;
    for (int r = 0; r < size; ++r) {
      if (posted >= rounds_of[r]) continue;
      load.clear();
      LoadSink sink(load, k, false);
      plan.emit(r, posted, sink);
      most_posts = std::max({most_posts, load.sends.size(), load.recvs.size()});
      meter.add(r, load);
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
  for (const RankSchedule& rs : schedule.ranks)
    for (const Round& round : rs.rounds)
      for (const Transfer& t : round.sends) in_flight_ = in_flight_ || t.overlap_rounds > 0;
}

void RecordedRounds::emit(int rank, std::size_t round, RoundSink& sink) const {
  const Round& r = schedule_->ranks[rank].rounds[round];
  for (const LocalCopy& c : r.copies) sink.copy(c.from, c.to);
  for (const Transfer& t : r.sends) sink.send(t.peer, t.segments, t.overlap_rounds);
  for (const Transfer& t : r.recvs) sink.recv(t.peer, t.segments, t.overlap_rounds);
}

}  // namespace topocoll
