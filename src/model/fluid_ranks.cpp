#include "model/fluid_ranks.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <queue>
#include <stdexcept>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/fluid_flows.hpp"

namespace topocoll::fluid {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// A transfer's two ends, and the round by whose end each must have it (a detached send's sender
// has it once posted: -1).
struct Ends {
  int sender = 0;
  long long sender_due = 0;
  int receiver = 0;
  std::size_t receiver_due = 0;
  bool completion_costs = false;  // a detached message: its receiver pays smpi/or to complete it
};

// A send posted before its receiver has posted the round's receives.
struct WaitingSend {
  int sender = 0;
  std::size_t round = 0;
  double posted_us = 0.0;
  double bytes = 0.0;
  long long sender_due = 0;  // -1: detached
};

struct RankState {
  std::size_t rounds = 0;
  std::size_t round = 0;                   // the round it is in
  bool posted = false;                     // whether it has posted that round
  bool finishing = false;                  // its round's end is on the calendar
  std::vector<double> receives_posted_us;  // per round
  std::map<std::size_t, int> open;         // due round -> its transfers not yet complete
  double cpu_free_us = 0.0;                // when the round's posts and copies are done
  // When its CPU is done with the round's posts and with completing the receives in so far
  // (smpi/or each, one after the other, as SMPI charges them).
  double cpu_busy_until_us = 0.0;
  double copy_out_us = 0.0;                // then copying its staged receives out
  std::size_t staged = 0;                  // bytes staged so far (schedule/staging_rule.hpp)
  // Per (sender, round): the due rounds of its receives from that sender, in posting order.
  std::unordered_map<long long, std::vector<std::size_t>> expected;
  std::vector<WaitingSend> waiting;  // sends to this rank that wait for its post
};

class RankByRank {
 public:
  RankByRank(const RoundPlan& plan, int size, const network::Network& network, std::span<const int> host_of_rank,
             const FluidParameters& parameters)
      : plan_(&plan),
        size_(size),
        hosts_(host_of_rank),
        parameters_(&parameters),
        links_(network, parameters, false, fluid_),
        ranks_(static_cast<std::size_t>(size)) {
    for (int r = 0; r < size; ++r) {
      RankState& rank = ranks_[static_cast<std::size_t>(r)];
      rank.rounds = plan.rounds(r);
      rank.receives_posted_us.assign(rank.rounds, 0.0);
      calendar_.emplace(0.0, r);
    }
  }

  FluidTime run() {
    double end = 0.0;
    std::vector<std::size_t> ended;
    while (!calendar_.empty() || !fluid_.idle()) {
      const double next_rank = calendar_.empty() ? kInfinity : calendar_.top().first;
      ended.clear();
      const double now = fluid_.step(next_rank, &ended);
      for (std::size_t id : ended) {
        transfers_in(ends_[id], now);
        std::vector<Ends>().swap(ends_[id]);
      }
      while (!calendar_.empty() && calendar_.top().first <= now) {
        const int r = calendar_.top().second;
        calendar_.pop();
        RankState& rank = ranks_[static_cast<std::size_t>(r)];
        if (rank.posted) {  // its round has ended: on to the next
          rank.open.erase(rank.round);
          ++rank.round;
          rank.posted = rank.finishing = false;
        }
        if (rank.round < rank.rounds) {
          post(r, now);
        } else {
          end = std::max(end, now);
        }
      }
      flush();
    }
    for (const RankState& rank : ranks_) {
      if (rank.round < rank.rounds)
        throw std::invalid_argument("fluid model: the plan's sends and receives do not match");
    }
    FluidTime result;
    result.us = end;
    for (const RankState& rank : ranks_) result.rounds = std::max(result.rounds, rank.rounds);
    result.flow_classes = fluid_.flow_classes();
    result.events = fluid_.events();
    return result;
  }

 private:
  // Rank r posts its current round at `now`.
  void post(int r, double now) {
    RankState& rank = ranks_[static_cast<std::size_t>(r)];
    const std::size_t t = rank.round;
    tally_.start(rank.staged);
    plan_->emit(r, t, tally_);
    tally_.finish();
    const double posting = now + copy_us(*parameters_, tally_.copied_before);
    rank.receives_posted_us[t] = posting;  // receives first, then the sends (the executor's order)
    for (const RankRoundTally::Message& received : tally_.received) {
      check_peer(received.peer);
      rank.expected[key(received.peer, t)].push_back(t + received.overlap_rounds);
      ++rank.open[t + received.overlap_rounds];
    }
    double cpu = 0.0;
    for (const RankRoundTally::Message& sent : tally_.sent) {
      check_peer(sent.peer);
      cpu += copy_us(*parameters_, sent.staged_bytes) + parameters_->send_overhead_us;
      // SMPI completes a send below its detached threshold for the sender once posted; the
      // data still waits for the receive to be posted.
      const bool detached = is_detached(*parameters_, sent.bytes);
      if (!detached) ++rank.open[t + sent.overlap_rounds];
      const WaitingSend send{r, t, posting + cpu, static_cast<double>(sent.bytes) + parameters_->envelope_bytes,
                             detached ? -1 : static_cast<long long>(t + sent.overlap_rounds)};
      RankState& receiver = ranks_[static_cast<std::size_t>(sent.peer)];
      if (has_posted(receiver, t)) {
        start(send, sent.peer);
      } else {
        receiver.waiting.push_back(send);
      }
    }
    rank.posted = true;
    // The sends that waited for this round's receives.
    std::size_t kept = 0;
    for (const WaitingSend& send : rank.waiting) {
      if (send.round == t) {
        start(send, r);
      } else {
        rank.waiting[kept++] = send;
      }
    }
    rank.waiting.resize(kept);
    rank.cpu_free_us = posting + cpu + copy_us(*parameters_, tally_.copied_after);
    rank.cpu_busy_until_us = std::max(rank.cpu_busy_until_us, rank.cpu_free_us);
    rank.copy_out_us = copy_us(*parameters_, tally_.staged_received_bytes);
    maybe_finish(r, now);
  }

  static bool has_posted(const RankState& rank, std::size_t round) {
    return rank.round > round || (rank.round == round && rank.posted);
  }

  // The flow of `send` to `receiver`, who has posted the round.
  void start(const WaitingSend& send, int receiver) {
    RankState& to = ranks_[static_cast<std::size_t>(receiver)];
    const auto dues = to.expected.find(key(send.sender, send.round));
    if (dues == to.expected.end())
      throw std::invalid_argument("fluid model: a send that its receiver does not receive");
    const std::size_t receiver_due = dues->second.front();
    if (dues->second.size() == 1) {
      to.expected.erase(dues);
    } else {
      dues->second.erase(dues->second.begin());
    }
    const FluidRoute& route =
        links_.route(hosts_[static_cast<std::size_t>(send.sender)], hosts_[static_cast<std::size_t>(receiver)]);
    const double start_us = std::max(send.posted_us, to.receives_posted_us[send.round]) + route.latency_us;
    const BatchKey batch{route.capacities, route.back_capacities, route.penalty, route.rate_cap, send.bytes, start_us};
    auto [at, added] = batch_.try_emplace(batch, batch_ends_.size());
    if (added) batch_ends_.emplace_back();
    batch_ends_[at->second].push_back({send.sender, send.sender_due, receiver, receiver_due, send.sender_due < 0});
  }

  // The classes of the flows started at this moment (alike flows merged), into the network.
  void flush() {
    for (const auto& [batch, index] : batch_) {
      const auto& [capacities, back, penalty, rate_cap, bytes, start_us] = batch;
      std::vector<Ends>& ends = batch_ends_[index];
      const std::size_t id = fluid_.add(links_.flows(FluidRoute{capacities, back, 0.0, penalty, rate_cap},
                                                     static_cast<double>(ends.size()), bytes, start_us, 0));
      if (ends_.size() <= id) ends_.resize(id + 1);
      ends_[id] = std::move(ends);
    }
    batch_.clear();
    batch_ends_.clear();
  }

  void transfers_in(const std::vector<Ends>& ends, double now) {
    for (const Ends& e : ends) {
      if (e.sender_due >= 0) --ranks_[static_cast<std::size_t>(e.sender)].open[static_cast<std::size_t>(e.sender_due)];
      RankState& receiver = ranks_[static_cast<std::size_t>(e.receiver)];
      --receiver.open[e.receiver_due];
      if (e.completion_costs && parameters_->recv_overhead_us > 0.0) {
        receiver.cpu_busy_until_us = std::max(receiver.cpu_busy_until_us, now) + parameters_->recv_overhead_us;
      }
    }
    for (const Ends& e : ends) {
      maybe_finish(e.sender, now);
      maybe_finish(e.receiver, now);
    }
  }

  // Puts rank r's round end on the calendar once its transfers due by then are in.
  void maybe_finish(int r, double now) {
    RankState& rank = ranks_[static_cast<std::size_t>(r)];
    if (!rank.posted || rank.finishing || rank.round >= rank.rounds) return;
    const auto open = rank.open.find(rank.round);
    if (open != rank.open.end() && open->second > 0) return;
    rank.finishing = true;
    calendar_.emplace(std::max({now, rank.cpu_free_us, rank.cpu_busy_until_us}) + rank.copy_out_us, r);
  }

  long long key(int sender, std::size_t round) const { return static_cast<long long>(round) * size_ + sender; }
  void check_peer(int peer) const {
    if (peer < 0 || peer >= size_) throw std::invalid_argument("fluid model: a message to or from no rank");
  }

  const RoundPlan* plan_;
  int size_;
  std::span<const int> hosts_;
  const FluidParameters* parameters_;
  FluidNetwork fluid_;
  FluidLinks links_;
  std::vector<RankState> ranks_;
  RankRoundTally tally_;
  // (time, rank): when a rank posts its next round (or, past its last, ends).
  using Entry = std::pair<double, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> calendar_;
  // Flows started at this moment, merged by route, bytes and start.
  using BatchKey = std::tuple<std::vector<int>, std::vector<int>, double, double, double, double>;
  std::map<BatchKey, std::size_t> batch_;
  std::vector<std::vector<Ends>> batch_ends_;
  std::vector<std::vector<Ends>> ends_;  // per class id: the transfers it carries
};

}  // namespace

FluidTime time_by_rank(const RoundPlan& plan, int size, const network::Network& network,
                       std::span<const int> host_of_rank, const FluidParameters& parameters) {
  check_hosts_of_ranks(size, network, host_of_rank);
  return RankByRank(plan, size, network, host_of_rank, parameters).run();
}

}  // namespace topocoll::fluid
