// lg's traffic form: the bytes of the Local Group exchange (src/algorithms/lg.cpp) counted in
// blocks, from its structure alone, for equal blocks. For every pair of clusters {X, Y}, X the
// smaller (the lower on a tie), Y's ranks form groups of n_X; the last group is partial when
// n_X does not divide n_Y (r = n_Y mod n_X nodes).
//  - Phase 1 (piece x in round x): s -> t inside a cluster carries 1 + collected(t, s) blocks;
//    an X node t collects from each s the blocks for Y nodes b = idx(t) mod n_X; a Y node d
//    collects from Y node e when they share a group, or when e is in the partial group, d in
//    group 0 and d >= r (NOTES.md erratum 4).
//  - Phase 2 (step g of piece x in round x + 1 + g): X node a sends n_X blocks to Y node
//    g*n_X + a, which sends back the blocks it carries: its group's, plus the partial group's
//    when it is in group 0 at index >= r.
// Pieces: as lg's piece_bytes: segment_bytes, then max_scratch_bytes / (most blocks any rank
// collects * (steps + 1)).
#include <algorithm>
#include <vector>

#include "algorithms/lg.hpp"
#include "model/alltoall_traffic.hpp"
#include "model/hierarchical_cost.hpp"

namespace topocoll {

namespace {

// A pair of clusters seen from its small side X (n_x nodes) and large side Y (n_y nodes).
struct PairShape {
  int n_x = 0;
  int n_y = 0;
  int steps() const { return (n_y + n_x - 1) / n_x; }
  int partial() const { return n_y % n_x; }
  int group(int b) const { return b / n_x; }
  int group_size(int g) const { return std::min(n_x, n_y - g * n_x); }
  bool in_partial_group(int b) const { return partial() != 0 && group(b) == steps() - 1; }
  // Whether Y node d collects from Y node e (d != e) in phase 1.
  bool collects(int d, int e) const {
    return group(d) == group(e) || (in_partial_group(e) && group(d) == 0 && d >= partial());
  }
  // Blocks Y node d carries to X in phase 2 (its own included).
  int carried(int d) const {
    return group_size(group(d)) + (partial() != 0 && group(d) == 0 && d >= partial() ? partial() : 0);
  }
  // Y nodes b with b mod n_x = a: the blocks an X node a collects from each other X node.
  int collected_by_x(int a) const { return a < n_y ? (n_y - 1 - a) / n_x + 1 : 0; }
};

class LgShape {
 public:
  explicit LgShape(const Topology& topology) {
    members_.resize(static_cast<std::size_t>(topology.group_count(0)));
    for (int r = 0; r < topology.size(); ++r) {
      cluster_.push_back(topology.group(r, 0));
      index_.push_back(static_cast<int>(members_[cluster_.back()].size()));
      members_[cluster_.back()].push_back(r);
    }
  }
  int clusters() const { return static_cast<int>(members_.size()); }
  int cluster(int r) const { return cluster_[r]; }
  int index(int r) const { return index_[r]; }
  const std::vector<int>& members(int c) const { return members_[c]; }
  int count(int c) const { return static_cast<int>(members_[c].size()); }
  bool small_side(int c, int o) const { return count(c) < count(o) || (count(c) == count(o) && c < o); }
  PairShape pair(int c, int o) const {
    return small_side(c, o) ? PairShape{count(c), count(o)} : PairShape{count(o), count(c)};
  }
  int max_steps() const {
    int steps = 0;
    for (int c = 0; c < clusters(); ++c)
      for (int o = c + 1; o < clusters(); ++o) steps = std::max(steps, pair(c, o).steps());
    return steps;
  }
  // Blocks of s that t (same cluster, t != s) collects in phase 1.
  int collected(int t, int s) const {
    const int c = cluster(t);
    int blocks = 0;
    for (int o = 0; o < clusters(); ++o) {
      if (o == c) continue;
      const PairShape p = pair(c, o);
      blocks += small_side(c, o) ? p.collected_by_x(index(t)) : (p.collects(index(t), index(s)) ? 1 : 0);
    }
    return blocks;
  }
  // All blocks t collects in phase 1, from every other node of its cluster.
  int collected_in_all(int t) const {
    const int c = cluster(t);
    int blocks = 0;
    for (int o = 0; o < clusters(); ++o) {
      if (o == c) continue;
      const PairShape p = pair(c, o);
      blocks += small_side(c, o) ? (count(c) - 1) * p.collected_by_x(index(t)) : p.carried(index(t)) - 1;
    }
    return blocks;
  }

 private:
  std::vector<int> cluster_, index_;
  std::vector<std::vector<int>> members_;
};

// lg's piece size (0: whole blocks in one piece), by lg's own rule.
std::size_t piece_bytes(const Problem& problem, const LgShape& shape) {
  return lg_piece_bytes(problem.block_bytes, problem.knobs, shape.max_steps(), [&] {
    std::size_t most = 0;
    for (int r = 0; r < problem.size; ++r) most = std::max(most, static_cast<std::size_t>(shape.collected_in_all(r)));
    return most;
  });
}

void add_phase1(const LgShape& shape, int rank, std::size_t len, RankRoundLoad& load) {
  for (int peer : shape.members(shape.cluster(rank))) {
    if (peer == rank) continue;
    load.sends.push_back({peer, len * static_cast<std::size_t>(1 + shape.collected(peer, rank))});
    load.recvs.push_back({peer, len * static_cast<std::size_t>(1 + shape.collected(rank, peer))});
  }
}

void add_phase2_step(const LgShape& shape, int rank, int g, std::size_t len, RankRoundLoad& load) {
  const int c = shape.cluster(rank);
  const int a = shape.index(rank);
  for (int o = 0; o < shape.clusters(); ++o) {
    if (o == c) continue;
    const PairShape p = shape.pair(c, o);
    if (shape.small_side(c, o)) {
      const int b = g * p.n_x + a;
      if (b >= p.n_y) continue;
      load.sends.push_back({shape.members(o)[b], len * static_cast<std::size_t>(p.n_x)});
      load.recvs.push_back({shape.members(o)[b], len * static_cast<std::size_t>(p.carried(b))});
    } else {
      if (p.group(a) != g) continue;
      const int partner = shape.members(o)[a % p.n_x];
      load.sends.push_back({partner, len * static_cast<std::size_t>(p.carried(a))});
      load.recvs.push_back({partner, len * static_cast<std::size_t>(p.n_x)});
    }
  }
}

}  // namespace

std::optional<double> predict_lg_from_traffic_us(const Problem& problem, const MachinePricing& pricing,
                                                 double give_up_above_us) {
  const Topology* topology = problem.topology;
  if (problem.variable() || !topology || topology->size() != problem.size || topology->group_count(0) < 2) {
    return std::nullopt;
  }
  const LgShape shape(*topology);
  const int steps = shape.max_steps();
  const std::size_t block = problem.block_bytes;
  const std::size_t piece = piece_bytes(problem, shape);
  const int pieces = piece == 0 ? 1 : static_cast<int>((block + piece - 1) / piece);
  auto piece_length = [&](int x) {
    if (piece == 0) return block;
    const std::size_t lo = std::min(block, static_cast<std::size_t>(x) * piece);
    return std::min(piece, block - lo);
  };

  RoundCostMeter meter(pricing);
  RankRoundLoad load;
  double total = 0.0;
  for (int t = 0; t < pieces + steps; ++t) {
    for (int r = 0; r < problem.size; ++r) {
      load.clear();
      if (t == 0) load.copy_bytes = block;
      if (t < pieces) add_phase1(shape, r, piece_length(t), load);
      for (int g = 0; g < steps; ++g) {
        const int x = t - 1 - g;
        if (x >= 0 && x < pieces) add_phase2_step(shape, r, g, piece_length(x), load);
      }
      meter.add(r, load);
    }
    total += meter.finish_round();
    if (total > give_up_above_us) break;
  }
  return total;
}

}  // namespace topocoll
