// overlap: the total exchange with the slow level's traffic started first and kept going
// while the fast level's runs beside it. lg's two phases, run one after the other, leave the
// backbone idle during the local phase; and `direct`, which posts everything at once, lets the
// local flows take each node's link first (a flow's share of a link falls with its round-trip
// time, in TCP and in SimGrid's models), so the backbone idles until they are done. Here:
//  Round 0 posts every transfer with the ranks outside the rank's group at the outermost
//   level (cluster; or at knobs.group_level), receives and sends first, rotated by the rank's index in its group so
//   that the senders of a group start on different destinations; they stay in flight until
//   the last round (overlap_rounds).
//  Rounds 0..n-2 of a group of n ranks are the shift exchange inside it: to index + s and from
//   index - s, one partner at a time, so at most one local flow shares a node's link with
//   the flows across.
//  With knobs.stripes = s > 1, each block across goes as s messages (equal parts), all posted
//   in round 0: where a link's sharing favours short round trips (TCP, and SimGrid's models
//   weigh a flow by its route's latency), one flow inside the group beside K flows across takes
//   w / (w + K) of the node's link, w the near weight the calibration measures; more flows
//   across win them a larger share, until the backbone is the bottleneck again. The local flow
//   then gets what the backbone leaves. auto picks s from the model (auto_select.cpp).
//  Every rank runs R = max over groups of (n - 1) rounds (at least 1), so all the transfers
//   across complete together. The rank's own block is copied in the last round, while they
//   are in flight: copied in round 0 or 1, it could leave the node's link idle, since a flow
//   across does not move data before its (backbone) latency has passed.
// Messages across a pair of clusters X, Y: 2 n_X n_Y s (as direct for s = 1; lg: 2 max(n_X, n_Y)).
// Time (a flow model): about max(the backbone's bytes / its bandwidth, a node's bytes / its
// link) + one backbone latency: on two clusters, the lower bound (docs/results.md).
#include "algorithms/overlap.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "algorithms/group_level.hpp"

namespace topocoll {

OverlapPeers::OverlapPeers(const Topology& topology, int size, int level)
    : group_of_(static_cast<std::size_t>(size)), index_(static_cast<std::size_t>(size)) {
  for (int r = 0; r < size; ++r) {
    const auto group = static_cast<std::size_t>(topology.group(r, level));
    if (group >= members_.size()) members_.resize(group + 1);
    group_of_[r] = static_cast<int>(group);
    index_[r] = static_cast<int>(members_[group].size());
    members_[group].push_back(r);
  }
}

std::size_t OverlapPeers::rounds() const {
  std::size_t largest = 1;
  for (const auto& m : members_) largest = std::max(largest, m.size());
  return std::max<std::size_t>(largest - 1, 1);
}

std::pair<int, int> OverlapPeers::inside(int rank, int step) const {
  const std::vector<int>& mine = members_[static_cast<std::size_t>(group_of_[rank])];
  const int n = static_cast<int>(mine.size());
  if (step < 1 || step >= n) return {-1, -1};
  const int me = index_[rank];
  return {mine[(me + step) % n], mine[(me - step + n) % n]};
}


int overlap_stripes(const AlgorithmKnobs& knobs) { return std::max(knobs.stripes, 1); }

std::vector<AlgorithmKnobs> overlap_auto_knobs(const Problem& problem) {
  std::vector<AlgorithmKnobs> settings;
  if (problem.knobs.stripes != 0) {
    settings.push_back(problem.knobs);
  } else {
    for (int stripes : {1, 2, 4, kMaxOverlapStripes}) {
      settings.push_back(problem.knobs);
      settings.back().stripes = stripes;
    }
  }
  return with_group_levels(problem, std::move(settings));
}

std::string describe_overlap_knobs(const AlgorithmKnobs& knobs) {
  const int stripes = overlap_stripes(knobs);
  const std::string groups = describe_group_level(knobs);
  return std::to_string(stripes) + (stripes == 1 ? " stripe" : " stripes") + (groups.empty() ? "" : ", " + groups);
}

int stripe_count(int stripes, std::size_t bytes) {
  if (bytes == 0) return 1;
  return static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(std::max(stripes, 1)), bytes));
}

std::pair<std::size_t, std::size_t> stripe_of(std::size_t bytes, int pieces, int i) {
  const auto n = static_cast<std::size_t>(pieces);
  const auto k = static_cast<std::size_t>(i);
  // bytes * k / n without overflow: bytes = q n + r.
  const auto start = [&](std::size_t j) { return (bytes / n) * j + (bytes % n) * j / n; };
  return {start(k), start(k + 1) - start(k)};
}

Applicability supports_overlap(const Problem& problem) {
  if (!problem.topology || problem.topology->size() != problem.size || problem.topology->level_count() < 1) {
    return {false, "overlap needs a topology describing all " + std::to_string(problem.size) + " ranks"};
  }
  if (auto wrong = group_level_problem(problem, "overlap")) return {false, *wrong};
  if (problem.knobs.stripes < 0) {
    return {false, "overlap's stripes must be 0 (one message per block) or more, not " +
                       std::to_string(problem.knobs.stripes)};
  }
  return {};
}

namespace {

class OverlapPlan final : public RoundPlan {
 public:
  explicit OverlapPlan(const Problem& problem)
      : problem_(problem),
        peers_(*problem.topology, problem.size, group_level(problem.knobs)),
        rounds_(peers_.rounds()),
        stripes_(overlap_stripes(problem.knobs)) {}
  std::size_t rounds(int) const override { return rounds_; }
  bool keeps_transfers_in_flight() const override { return rounds_ > 1; }
  std::optional<std::vector<std::size_t>> rounds_posting_in_flight() const override {
    return std::vector<std::size_t>{0};
  }
  void emit(int rank, std::size_t round, RoundSink& sink) const override {
    if (round == 0) {
      // Every block across as its stripes, kept in flight to the last round: sender and
      // receiver cut the same block size the same way, and MPI keeps the order of messages
      // between two ranks, so the pieces match in order.
      if (!sink.takes_in_flight(rounds_ - 1)) {  // the cost model's pass of the rounds alone
        if (peers_.has_across(rank)) sink.skip_in_flight(rounds_ - 1);
        return emit_inside(rank, round, sink);
      }
      const bool places = sink.wants_places();
      if (!places && !problem_.variable()) {  // one block size: runs of peers at once
        const std::size_t bytes = problem_.block_bytes;
        const int pieces = stripe_count(stripes_, bytes);
        peers_.for_each_run_across(rank, [&](int first, int count) {
          sink.recv_pieces_from_run(first, count, bytes, pieces, rounds_ - 1);
          sink.send_pieces_to_run(first, count, bytes, pieces, rounds_ - 1);
        });
        return emit_inside(rank, round, sink);
      }
      peers_.for_each_across(rank, [&](int peer) {
        post_striped(peer, problem_.recv_segment(rank, peer), sink, places, false);
        post_striped(peer, problem_.send_segment(rank, peer), sink, places, true);
      });
    }
    emit_inside(rank, round, sink);
  }

 private:
  // The round's exchange inside the rank's group, and the copy of its own block at the end.
  void emit_inside(int rank, std::size_t round, RoundSink& sink) const {
    const auto [to, from] = peers_.inside(rank, static_cast<int>(round) + 1);
    if (to >= 0) {
      sink.recv(from, problem_.recv_segment(rank, from));
      sink.send(to, problem_.send_segment(rank, to));
    }
    if (round + 1 == rounds_) sink.copy(problem_.send_segment(rank, rank), problem_.recv_segment(rank, rank));
  }

  void post_striped(int peer, const Segment& whole, RoundSink& sink, bool places, bool send) const {
    const int pieces = stripe_count(stripes_, whole.length);
    if (!places) {  // the cost model: only the pieces' count and sizes matter
      if (send) {
        sink.send_pieces(peer, whole.length, pieces, rounds_ - 1);
      } else {
        sink.recv_pieces(peer, whole.length, pieces, rounds_ - 1);
      }
      return;
    }
    for (int i = 0; i < pieces; ++i) {
      const auto [offset, length] = stripe_of(whole.length, pieces, i);
      const Segment stripe{whole.buffer, whole.offset + offset, length};
      if (send) {
        sink.send(peer, stripe, rounds_ - 1);
      } else {
        sink.recv(peer, stripe, rounds_ - 1);
      }
    }
  }

  Problem problem_;
  OverlapPeers peers_;
  std::size_t rounds_;
  int stripes_;
};

}  // namespace

std::unique_ptr<RoundPlan> plan_overlap(const Problem& problem) {
  if (!supports_overlap(problem).ok) return nullptr;  // supports() says why
  return std::make_unique<OverlapPlan>(problem);
}

}  // namespace topocoll
