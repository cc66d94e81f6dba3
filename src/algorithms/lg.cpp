// lg: the Local Group total exchange between two clusters of Jeannot and Steffenel
// (lg-two-cluster-total-exchange.txt, Sec. 4, Algorithm 1, with the errata of NOTES.md).
// C1 is the smaller cluster (n1 <= n2, swapped otherwise); its nodes are a = 0..n1-1, C2's
// b = 0..n2-1 (cluster-local indices, mapped to communicator ranks in their order).
//  Phase 1 (round 0, inside each cluster at once): C1 node a sends M(a,c) to each C1 node c
//   and, in the same message, the blocks M(a,b) for the C2 nodes b with b mod n1 = c (c
//   collects them). C2 node b sends M(b,d) to each C2 node d and, with it, M(b, d mod n1)
//   when d collects it: d is in b's group of n1 consecutive C2 nodes, or (erratum 4: the
//   last group is partial, r = n2 mod n1 nodes) b is in the partial group, d in group 0 and
//   d >= r, so that C1 nodes without a partner in the partial group still get those blocks.
//  Phase 2 (rounds 1..ceil(n2/n1)): in step g, C1 node a and C2 node b = g*n1 + a (if
//   b < n2) swap one aggregated message each: a sends M(k,b) for all k in C1, b sends M(k,a)
//   for the C2 nodes k whose blocks it collected.
// Blocks are read from the send buffer where they are and received at their final place:
// the only local copy is a rank's own block; collected blocks wait in scratch.
// Rounds: 1 + ceil(n2/n1). Inter-cluster messages: 2*n2 = 2*max(n1,n2) (against 2*n1*n2 for
// direct). Intra-cluster messages: n1(n1-1) + n2(n2-1). Every block crosses the backbone once.
#include "algorithms/lg.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace topocoll {

namespace {

struct LgLayout {
  std::vector<int> small, large;  // communicator ranks of C1 (n1 <= n2) and C2, in order
  int n1 = 0, n2 = 0;
  int partial = 0;  // nodes in C2's last group when n1 does not divide n2, else 0

  int group(int b) const { return b / n1; }
  int steps() const { return (n2 + n1 - 1) / n1; }
  bool in_partial_group(int b) const { return partial != 0 && group(b) == steps() - 1; }
  // Whether C2 node d collects M(b, d mod n1) from C2 node b in phase 1.
  bool collects(int d, int b) const {
    if (group(d) == group(b)) return true;
    return in_partial_group(b) && group(d) == 0 && d >= partial;
  }
  // The C2 nodes whose blocks for C1 node (d mod n1) C2 node d carries in phase 2, itself
  // included, in message order.
  std::vector<int> carried_by(int d) const {
    std::vector<int> sources;
    for (int b = 0; b < n2; ++b)
      if (b == d || collects(d, b)) sources.push_back(b);
    return sources;
  }
};

std::optional<LgLayout> make_layout(const AlltoallProblem& problem, std::string* why) {
  const Topology* topo = problem.topology;
  if (!topo || topo->size() != problem.size) {
    if (why) *why = "lg needs a topology describing all " + std::to_string(problem.size) + " ranks";
    return std::nullopt;
  }
  if (topo->group_count(0) != 2) {
    if (why) *why = "lg needs exactly two groups at the outermost level (" + topo->levels().front() + "), found " +
                    std::to_string(topo->group_count(0));
    return std::nullopt;
  }
  LgLayout layout;
  std::vector<int> first, second;
  for (int r = 0; r < problem.size; ++r) (topo->group(r, 0) == 0 ? first : second).push_back(r);
  if (first.empty() || second.empty()) {
    if (why) *why = "lg needs both clusters to hold at least one rank";
    return std::nullopt;
  }
  if (first.size() <= second.size()) {
    layout.small = std::move(first);
    layout.large = std::move(second);
  } else {
    layout.small = std::move(second);
    layout.large = std::move(first);
  }
  layout.n1 = static_cast<int>(layout.small.size());
  layout.n2 = static_cast<int>(layout.large.size());
  layout.partial = layout.n2 % layout.n1;
  return layout;
}

// C1 node a's scratch: slot (g, k) holds M(small[k], large[g*n1 + a]).
std::size_t small_slot(const LgLayout& l, int g, int k, std::size_t b) {
  return (static_cast<std::size_t>(g) * l.n1 + k) * b;
}

void build_small_side(const LgLayout& l, int a, std::size_t b, RankSchedule& s) {
  int my_steps = 0;
  for (int g = 0; g * l.n1 + a < l.n2; ++g) ++my_steps;
  s.scratch_bytes = small_slot(l, my_steps, 0, b);
  Round& local = s.rounds[0];
  for (int c = 0; c < l.n1; ++c) {
    if (c == a) continue;
    Transfer send{l.small[c], {send_block(l.small[c], b)}};
    Transfer recv{l.small[c], {recv_block(l.small[c], b)}};
    for (int g = 0; g * l.n1 + c < l.n2; ++g) send.segments.push_back(send_block(l.large[g * l.n1 + c], b));
    for (int g = 0; g < my_steps; ++g) recv.segments.push_back(scratch_range(small_slot(l, g, c, b), b));
    local.sends.push_back(std::move(send));
    local.recvs.push_back(std::move(recv));
  }
  for (int g = 0; g < my_steps; ++g) {
    const int partner_index = g * l.n1 + a;
    const int partner = l.large[partner_index];
    Round& step = s.rounds[1 + g];
    Transfer send{partner, {}};
    for (int k = 0; k < l.n1; ++k) {
      send.segments.push_back(k == a ? send_block(partner, b) : scratch_range(small_slot(l, g, k, b), b));
    }
    Transfer recv{partner, {}};
    for (int k : l.carried_by(partner_index)) recv.segments.push_back(recv_block(l.large[k], b));
    step.sends.push_back(std::move(send));
    step.recvs.push_back(std::move(recv));
  }
}

void build_large_side(const LgLayout& l, int d, std::size_t b, RankSchedule& s) {
  const std::vector<int> carried = l.carried_by(d);
  auto slot_of = [&](int k) {
    return static_cast<std::size_t>(std::find(carried.begin(), carried.end(), k) - carried.begin()) * b;
  };
  s.scratch_bytes = carried.size() * b;
  const int my_c1 = l.small[d % l.n1];
  Round& local = s.rounds[0];
  for (int e = 0; e < l.n2; ++e) {
    if (e == d) continue;
    Transfer send{l.large[e], {send_block(l.large[e], b)}};
    if (l.collects(e, d)) send.segments.push_back(send_block(l.small[e % l.n1], b));
    Transfer recv{l.large[e], {recv_block(l.large[e], b)}};
    if (l.collects(d, e)) recv.segments.push_back(scratch_range(slot_of(e), b));
    local.sends.push_back(std::move(send));
    local.recvs.push_back(std::move(recv));
  }
  Round& step = s.rounds[1 + l.group(d)];
  Transfer send{my_c1, {}};
  for (int k : carried) send.segments.push_back(k == d ? send_block(my_c1, b) : scratch_range(slot_of(k), b));
  Transfer recv{my_c1, {}};
  for (int k = 0; k < l.n1; ++k) recv.segments.push_back(recv_block(l.small[k], b));
  step.sends.push_back(std::move(send));
  step.recvs.push_back(std::move(recv));
}

}  // namespace

Applicability supports_lg(const AlltoallProblem& problem) {
  std::string why;
  if (!make_layout(problem, &why)) return {false, why};
  return {};
}

RankSchedule build_lg(const AlltoallProblem& problem, int rank) {
  std::string why;
  const auto layout = make_layout(problem, &why);
  RankSchedule s;
  if (!layout) return s;  // supports() says why; builders are only called when it holds
  const std::size_t b = problem.block_bytes;
  s.rounds.resize(1 + static_cast<std::size_t>(layout->steps()));
  s.rounds[0].copies.push_back({send_block(rank, b), recv_block(rank, b)});
  const auto in_small = std::find(layout->small.begin(), layout->small.end(), rank);
  if (in_small != layout->small.end()) {
    build_small_side(*layout, static_cast<int>(in_small - layout->small.begin()), b, s);
  } else {
    const auto in_large = std::find(layout->large.begin(), layout->large.end(), rank);
    build_large_side(*layout, static_cast<int>(in_large - layout->large.begin()), b, s);
  }
  return s;
}

double predict_lg_us(const AlltoallProblem& problem, const TamWangParams& m) {
  // Read off the schedule: phase 1 is a direct exchange of aggregated messages, phase 2 one
  // message per step. Single-level Tam-Wang parameters; issue 4's calibrated per-level model
  // replaces this for the two-cluster platforms.
  Schedule schedule;
  schedule.size = problem.size;
  schedule.block_bytes = problem.block_bytes;
  for (int r = 0; r < problem.size; ++r) schedule.ranks.push_back(build_lg(problem, r));
  return predict_schedule_us(schedule, m);
}

}  // namespace topocoll
