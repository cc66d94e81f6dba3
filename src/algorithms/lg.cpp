// lg: the Local Group total exchange of Jeannot and Steffenel
// (lg-two-cluster-total-exchange.txt, Sec. 4, Algorithm 1, with the errata of NOTES.md),
// generalised from two clusters to any number of them (the paper's future work).
// The clusters are the groups of the topology's outermost level, or of knobs.group_level: with
// the node level, lg is the node-aware exchange (gather inside each host, then one aggregated
// message per pair of hosts per rank).
//
// For every pair of clusters {X, Y}, X the smaller (n_X <= n_Y; the lower cluster on a tie),
// index X's ranks a = 0..n_X-1 and Y's b = 0..n_Y-1 in communicator order. Y's ranks form
// groups of n_X consecutive ones; the last group is partial when n_X does not divide n_Y.
//  Phase 1 (round 0, inside every cluster at once): each rank sends every other rank t of its
//   cluster one message holding M(s,t) and the blocks that t collects for the other clusters:
//   - X node a' collects M(a, Y[b]) from every X node a, for the b with b mod n_X = a';
//   - Y node d collects M(e, X[d mod n_X]) from Y node e when d is in e's group, or (NOTES.md
//     erratum 4) when e is in the partial group of r nodes, d in group 0 and d >= r, so that
//     X nodes without a partner in the partial group still receive those blocks.
//  Phase 2 (rounds 1..max over pairs of ceil(n_Y/n_X)): in step g, X node a and Y node
//   b = g*n_X + a (if b < n_Y) swap one aggregated message each: a sends M(k, Y[b]) for all
//   k in X; b sends M(k, X[a]) for the Y nodes k whose blocks it collected (itself included).
//   The steps of all cluster pairs run in the same rounds.
// Blocks are read from the send buffer where they are and received at their final place: the
// only local copy is a rank's own block; collected blocks wait in scratch.
// Bounded scratch (knobs max_scratch_bytes / segment_bytes): blocks are cut into pieces and
// the exchange is pipelined piece by piece: round t runs phase 1 of piece t and phase-2 step g
// of piece t-1-g, so the local exchange of a piece overlaps the backbone steps of the earlier
// ones. Scratch holds (steps+1) pieces' collected blocks at a time.
// Rounds: S + max ceil(n_Y/n_X), S pieces (1 without a cap). Messages between clusters X and Y: 2*max(n_X, n_Y)
// (against 2*n_X*n_Y for direct), each block crossing once. Inside cluster C: n_C(n_C-1).
// For a sink without places (the cost model) and one block size, a rank's round is told by
// counting the blocks of each message, per size of the other clusters, instead of listing them:
// O(messages x distinct cluster sizes), where listing costs O(blocks) (16384 ranks over 1024
// hosts: about 1000 blocks a message in phase 1).
#include "algorithms/lg.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/group_level.hpp"

namespace topocoll {

namespace {

// One pair of clusters, seen as the two-cluster problem of the paper.
struct ClusterPair {
  const std::vector<int>* small;  // communicator ranks of X, in order
  const std::vector<int>* large;  // ... of Y
  int n1() const { return static_cast<int>(small->size()); }
  int n2() const { return static_cast<int>(large->size()); }
  int partial() const { return n2() % n1(); }
  int steps() const { return (n2() + n1() - 1) / n1(); }
  int group(int b) const { return b / n1(); }
  bool in_partial_group(int b) const { return partial() != 0 && group(b) == steps() - 1; }
  // Whether Y node d collects M(e, X[d mod n1]) from Y node e (d != e) in phase 1.
  bool collects(int d, int e) const {
    return group(d) == group(e) || (in_partial_group(e) && group(d) == 0 && d >= partial());
  }
  // How many blocks Y node d carries in phase 2 (carried_by(d).size()): its group's (d's own
  // among them), and the partial group's when d is in group 0 at or past `partial` (group 0 is
  // never the partial group: Y has at least as many nodes as X).
  int carried_count(int d) const {
    const int mine = in_partial_group(d) ? partial() : n1();
    return mine + (partial() != 0 && group(d) == 0 && d >= partial() ? partial() : 0);
  }
  // The Y nodes whose block for X[d mod n1] Y node d carries in phase 2, in message order.
  std::vector<int> carried_by(int d) const {
    std::vector<int> sources;
    for (int e = 0; e < n2(); ++e)
      if (e == d || collects(d, e)) sources.push_back(e);
    return sources;
  }
};

using Block = std::pair<int, int>;  // (source rank, destination rank)

class LgPlan {
 public:
  // The clusters are the groups of topology level `level`.
  LgPlan(const Topology& topo, int size, int level)
      : cluster_of_(static_cast<std::size_t>(size)), index_(cluster_of_.size()) {
    members_.resize(static_cast<std::size_t>(topo.group_count(level)));
    for (int r = 0; r < size; ++r) {
      cluster_of_[r] = topo.group(r, level);
      index_[r] = static_cast<int>(members_[cluster_of_[r]].size());
      members_[cluster_of_[r]].push_back(r);
    }
    for (int c = 0; c < clusters(); ++c) {
      const int n = static_cast<int>(members_[c].size());
      auto same = std::find_if(sizes_.begin(), sizes_.end(), [&](const SizeClass& s) { return s.size == n; });
      if (same == sizes_.end()) same = sizes_.insert(sizes_.end(), SizeClass{n, {}});
      same->clusters.push_back(c);
    }
  }

  int clusters() const { return static_cast<int>(members_.size()); }
  int cluster(int r) const { return cluster_of_[r]; }
  bool same_cluster(int a, int b) const { return cluster_of_[a] == cluster_of_[b]; }
  const std::vector<int>& members(int c) const { return members_[c]; }
  bool any_cluster_empty() const {
    return std::any_of(members_.begin(), members_.end(), [](const auto& m) { return m.empty(); });
  }

  ClusterPair pair(int c, int other) const {
    const auto& a = members_[c];
    const auto& b = members_[other];
    const bool c_small = a.size() < b.size() || (a.size() == b.size() && c < other);
    return c_small ? ClusterPair{&a, &b} : ClusterPair{&b, &a};
  }

  int max_steps() const {
    int steps = 0;
    for (int c = 0; c < clusters(); ++c)
      for (int o = c + 1; o < clusters(); ++o) steps = std::max(steps, pair(c, o).steps());
    return steps;
  }

  // The blocks of sender s that receiver t (same cluster, t != s) collects in phase 1.
  std::vector<Block> collected(int t, int s) const {
    std::vector<Block> blocks;
    collected(t, s, blocks);
    return blocks;
  }
  // The same into `blocks` (cleared first), without allocating once it has room.
  void collected(int t, int s, std::vector<Block>& blocks) const {
    blocks.clear();
    const int c = cluster_of_[s];
    for (int o = 0; o < clusters(); ++o) {
      if (o == c) continue;
      const ClusterPair p = pair(c, o);
      if (p.small == &members_[c]) {
        for (int b = index_[t]; b < p.n2(); b += p.n1()) blocks.push_back({s, (*p.large)[b]});
      } else if (p.collects(index_[t], index_[s])) {
        blocks.push_back({s, (*p.small)[index_[t] % p.n1()]});
      }
    }
  }

  // How many blocks collected(t, s) lists, without listing them: per size of the other
  // clusters, as many alike as there are on each side of pair()'s rule.
  int collected_count(int t, int s) const {
    int count = 0;
    const int c = cluster_of_[s], n = static_cast<int>(members_[c].size()), i = index_[t];
    for (const SizeClass& other : sizes_) {
      if (other.size == 0) continue;
      const auto [larger, smaller] = other.beside(c, n);
      if (larger > 0 && i < other.size) count += larger * ((other.size - 1 - i) / n + 1);
      if (smaller > 0 && ClusterPair{&members_[other.clusters.front()], &members_[c]}.collects(i, index_[s])) {
        count += smaller;
      }
    }
    return count;
  }

  // The last phase-2 step at which r has a partner in some other cluster (-1: none).
  // The small side meets large node g * n1 + index while that exists; the large side meets the
  // small side at its own group's step only. Only the two sizes and which side is small matter,
  // so the other clusters are read by size (pair()'s rule: the smaller, or of equal sizes the
  // lower index, is small): O(distinct sizes), not O(clusters), per rank.
  int last_step(int r) const {
    int last = -1;
    const int c = cluster_of_[r], n = static_cast<int>(members_[c].size()), i = index_[r];
    for (const SizeClass& s : sizes_) {
      if (s.size == 0) continue;  // an empty cluster meets no one (lg refuses them anyway)
      const auto [larger, smaller] = s.beside(c, n);
      if (larger > 0) last = std::max(last, (s.size - 1 - i) / n);
      if (smaller > 0) last = std::max(last, i / s.size);
    }
    return last;
  }

  // Phase 2 of rank r with cluster `o` at step g: the partner (or -1), and how many blocks r
  // sends (phase2's, without listing them; r's own is one of them).
  std::pair<int, int> phase2_count(int r, int o, int g) const {
    const ClusterPair p = pair(cluster_of_[r], o);
    if (p.small == &members_[cluster_of_[r]]) {
      const int b = g * p.n1() + index_[r];
      return b < p.n2() ? std::pair{(*p.large)[b], p.n1()} : std::pair{-1, 0};
    }
    if (p.group(index_[r]) != g) return {-1, 0};
    return {(*p.small)[index_[r] % p.n1()], p.carried_count(index_[r])};
  }

  // Phase 2 of rank r with cluster `o` at step g: the partner (or -1), and the blocks r sends.
  std::pair<int, std::vector<Block>> phase2(int r, int o, int g) const {
    const int c = cluster_of_[r];
    const ClusterPair p = pair(c, o);
    std::vector<Block> blocks;
    if (p.small == &members_[c]) {
      const int b = g * p.n1() + index_[r];
      if (b >= p.n2()) return {-1, {}};
      const int partner = (*p.large)[b];
      for (int k : *p.small) blocks.push_back({k, partner});
      return {partner, blocks};
    }
    if (p.group(index_[r]) != g) return {-1, {}};
    const int partner = (*p.small)[index_[r] % p.n1()];
    for (int e : p.carried_by(index_[r])) blocks.push_back({(*p.large)[e], partner});
    return {partner, blocks};
  }

 private:
  std::vector<int> cluster_of_, index_;
  std::vector<std::vector<int>> members_;
  // Each size of cluster, with the clusters of that size (in order).
  struct SizeClass {
    int size = 0;
    std::vector<int> clusters;
    // Of these clusters other than c (of n ranks): how many c meets as the small side (they are
    // larger, or as large and after c), and how many as the large side.
    std::pair<int, int> beside(int c, int n) const {
      const auto all = static_cast<int>(clusters.size());
      if (size != n) return size > n ? std::pair{all, 0} : std::pair{0, all};
      const auto before = static_cast<int>(std::lower_bound(clusters.begin(), clusters.end(), c) - clusters.begin());
      const int after = all - before - (before < all && clusters[static_cast<std::size_t>(before)] == c ? 1 : 0);
      return {after, before};
    }
  };
  std::vector<SizeClass> sizes_;
};

std::optional<LgPlan> make_plan(const Problem& problem, std::string* why) {
  const Topology* topo = problem.topology;
  if (!topo || topo->size() != problem.size) {
    *why = "lg needs a topology describing all " + std::to_string(problem.size) + " ranks";
    return std::nullopt;
  }
  if (auto wrong = group_level_problem(problem, "lg")) {
    *why = *wrong;
    return std::nullopt;
  }
  const int level = group_level(problem.knobs);
  if (topo->group_count(level) < 2) {
    *why = "lg needs at least two groups at the " + std::string(level == 0 ? "outermost level" : "group level") + " (" +
           topo->levels()[static_cast<std::size_t>(level)] + "), found " + std::to_string(topo->group_count(level));
    return std::nullopt;
  }
  LgPlan plan(*topo, problem.size, level);
  if (plan.any_cluster_empty()) {
    *why = "lg needs every cluster to hold at least one rank";
    return std::nullopt;
  }
  return plan;
}

// The most blocks any rank collects in phase 1 (scratch per piece is that times the piece).
std::size_t max_collected(const LgPlan& plan) {
  std::size_t most = 0;
  for (int c = 0; c < plan.clusters(); ++c) {
    for (int t : plan.members(c)) {
      std::size_t n = 0;
      for (int s : plan.members(c))
        if (s != t) n += plan.collected(t, s).size();
      most = std::max(most, n);
    }
  }
  return most;
}

std::size_t piece_bytes(const Problem& problem, const LgPlan& plan) {
  return lg_piece_bytes(problem.block_bytes, problem.knobs, plan.max_steps(), [&] { return max_collected(plan); });
}

}  // namespace

std::vector<AlgorithmKnobs> lg_auto_knobs(const Problem& problem) {
  return with_group_levels(problem, {problem.knobs});
}

Applicability supports_lg(const Problem& problem) {
  std::string why;
  const auto plan = make_plan(problem, &why);
  if (!plan) return {false, why};
  if (problem.variable() && (problem.knobs.max_scratch_bytes > 0 || problem.knobs.segment_bytes > 0)) {
    return {false, "lg pipelines pieces only for equal block sizes (alltoall): no scratch cap or piece size "
                   "for alltoallv"};
  }
  if (problem.block_bytes > 0 && piece_bytes(problem, *plan) == 0) {
    const std::size_t need = max_collected(*plan) * static_cast<std::size_t>(plan->max_steps() + 1);
    return {false, "lg's scratch cap of " + std::to_string(problem.knobs.max_scratch_bytes) +
                       " bytes is below the " + std::to_string(need) + " bytes it needs for one-byte pieces"};
  }
  return {};
}

namespace {

// lg's rounds: round t runs phase 1 of piece t (t < pieces) and phase-2 step g = t-1-x of every
// earlier piece x, the earlier pieces first.
class LgRounds final : public RoundPlan {
 public:
  LgRounds(const Problem& problem, LgPlan plan)
      : problem_(problem), plan_(std::move(plan)), steps_(plan_.max_steps()),
        // Alltoallv moves every block whole (one piece); alltoall may cut blocks into pieces.
        piece_(problem.variable() ? 0 : piece_bytes(problem, plan_)),
        pieces_(piece_ == 0 ? 1 : static_cast<int>((problem.block_bytes + piece_ - 1) / piece_)) {}

  // Up to the last round with a transfer of the rank (pieces past the last step of its pairs
  // leave nothing to do), at least the first (its own block's copy).
  std::size_t rounds(int rank) const override {
    const int c = plan_.cluster(rank);
    int last = plan_.members(c).size() > 1 ? pieces_ - 1 : 0;
    const int last_step = plan_.last_step(rank);
    if (last_step >= 0) last = std::max(last, pieces_ + last_step);
    return static_cast<std::size_t>(last + 1);
  }

  std::size_t scratch_bytes(int rank) const override {
    const std::size_t ring = static_cast<std::size_t>(steps_ + 1);  // pieces alive at once
    return slots(rank).piece_scratch * std::min<std::size_t>(ring, static_cast<std::size_t>(pieces_));
  }

  void emit(int rank, std::size_t round, RoundSink& sink) const override {
    const int t = static_cast<int>(round);
    if (t == 0) sink.copy(problem_.send_segment(rank, rank), problem_.recv_segment(rank, rank));
    for (int x = std::max(0, t - steps_); x < std::min(t, pieces_); ++x) emit_phase2(rank, x, t - 1 - x, sink);
    if (t < pieces_) emit_phase1(rank, t, sink);
  }

 private:
  // Scratch slots of one piece, in the order its blocks arrive in phase 1.
  struct Slots {
    std::map<Block, std::size_t> at;
    std::size_t piece_scratch = 0;
  };

  const Slots& slots(int rank) const {
    if (slots_rank_ != rank) {
      slots_ = Slots{};
      for (int peer : plan_.members(plan_.cluster(rank))) {
        if (peer == rank) continue;
        for (const Block& blk : plan_.collected(rank, peer)) {
          slots_.at.emplace(blk, slots_.piece_scratch);
          slots_.piece_scratch += piece_ == 0 ? problem_.bytes(blk.first, blk.second) : piece_;
        }
      }
      slots_rank_ = rank;
    }
    return slots_;
  }

  // The part of a block that piece x carries.
  Segment cut(const Segment& whole, int x) const {
    if (piece_ == 0) return whole;
    const std::size_t lo = std::min(whole.length, static_cast<std::size_t>(x) * piece_);
    return Segment{whole.buffer, whole.offset + lo, std::min(piece_, whole.length - lo)};
  }
  Segment sent(int rank, int dst, int x) const { return cut(problem_.send_segment(rank, dst), x); }
  Segment received(int rank, int src, int x) const { return cut(problem_.recv_segment(rank, src), x); }
  // Where piece x of a collected block waits in scratch (its length only, for a sink without
  // places).
  Segment stored(int rank, const Block& blk, int x, const RoundSink& sink) const {
    const Segment part = cut(Segment{BufferKind::scratch, 0, problem_.bytes(blk.first, blk.second)}, x);
    if (!sink.wants_places()) return part;
    const std::size_t ring = static_cast<std::size_t>(steps_ + 1);
    const std::size_t base = (static_cast<std::size_t>(x) % ring) * slots(rank).piece_scratch;
    return scratch_range(base + slots(rank).at.at(blk), part.length);
  }

  // For a sink without places and one block size: each message as its bytes in each buffer
  // (round_sink.hpp), counted without listing the blocks.
  bool counts_only(const RoundSink& sink) const { return !sink.wants_places() && !problem_.variable(); }
  // `blocks` pieces x of blocks in `buffer`, then `more` in scratch.
  void tell(int peer, bool send, BufferKind buffer, int blocks, int more, int x, RoundSink& sink) const {
    const std::size_t piece = cut(Segment{buffer, 0, problem_.block_bytes}, x).length;
    segments_.clear();
    if (blocks > 0) segments_.push_back(Segment{buffer, 0, static_cast<std::size_t>(blocks) * piece});
    if (more > 0) segments_.push_back(Segment{BufferKind::scratch, 0, static_cast<std::size_t>(more) * piece});
    if (send) {
      sink.send(peer, segments_, 0);
    } else {
      sink.recv(peer, segments_, 0);
    }
  }

  void emit_phase1(int rank, int x, RoundSink& sink) const {
    for (int peer : plan_.members(plan_.cluster(rank))) {
      if (peer == rank) continue;
      if (counts_only(sink)) {  // what it sends lies in the send buffer; what it collects goes to scratch
        tell(peer, true, BufferKind::send, 1 + plan_.collected_count(peer, rank), 0, x, sink);
        tell(peer, false, BufferKind::recv, 1, plan_.collected_count(rank, peer), x, sink);
        continue;
      }
      segments_.assign(1, sent(rank, peer, x));
      plan_.collected(peer, rank, blocks_);
      for (const auto& [src, dst] : blocks_) segments_.push_back(sent(rank, dst, x));
      sink.send(peer, segments_, 0);
      segments_.assign(1, received(rank, peer, x));
      plan_.collected(rank, peer, blocks_);
      for (const Block& blk : blocks_) segments_.push_back(stored(rank, blk, x, sink));
      sink.recv(peer, segments_, 0);
    }
  }

  void emit_phase2(int rank, int x, int g, RoundSink& sink) const {
    const int mine = plan_.cluster(rank);
    for (int o = 0; o < plan_.clusters(); ++o) {
      if (o == mine) continue;
      if (counts_only(sink)) {  // its own block from the send buffer, the ones it collected from scratch
        const auto [partner, count] = plan_.phase2_count(rank, o, g);
        if (partner < 0) continue;
        tell(partner, true, BufferKind::send, 1, count - 1, x, sink);
        tell(partner, false, BufferKind::recv, plan_.phase2_count(partner, mine, g).second, 0, x, sink);
        continue;
      }
      const auto [partner, blocks] = plan_.phase2(rank, o, g);
      if (partner < 0) continue;
      segments_.clear();
      for (const Block& blk : blocks) {
        segments_.push_back(blk.first == rank ? sent(rank, blk.second, x) : stored(rank, blk, x, sink));
      }
      sink.send(partner, segments_, 0);
      segments_.clear();
      for (const auto& [src, dst] : plan_.phase2(partner, mine, g).second) segments_.push_back(received(rank, src, x));
      sink.recv(partner, segments_, 0);
    }
  }

  Problem problem_;
  LgPlan plan_;
  int steps_;
  std::size_t piece_;
  int pieces_;
  // Caches for emit: one rank's slots (a recorder asks for one rank's rounds in a row), and
  // the segments of the message being told.
  mutable int slots_rank_ = -1;
  mutable Slots slots_;
  mutable std::vector<Segment> segments_;
  mutable std::vector<Block> blocks_;
};

}  // namespace

std::unique_ptr<RoundPlan> plan_lg(const Problem& problem) {
  std::string why;
  auto plan = make_plan(problem, &why);
  if (!plan) return nullptr;  // supports() says why; plans are made only when it holds
  return std::make_unique<LgRounds>(problem, std::move(*plan));
}

void lg_size_questions(const Problem& problem, int rank, SizeQuestions& out) {
  out.reset(problem.size);
  std::string why;
  const auto plan = make_plan(problem, &why);
  if (!plan) return;
  for (int peer : plan->members(plan->cluster(rank))) {
    if (peer == rank) continue;
    out.learn[static_cast<std::size_t>(peer)] = plan->collected(rank, peer);
    out.tell[static_cast<std::size_t>(peer)] = plan->collected(peer, rank);
  }
}

}  // namespace topocoll
