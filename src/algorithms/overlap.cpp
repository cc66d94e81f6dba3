// overlap: the total exchange with the slow level's traffic started first and kept going
// while the fast level's runs beside it. lg's two phases, run one after the other, leave the
// backbone idle during the local phase; and `direct`, which posts everything at once, lets the
// local flows take each node's link first (a flow's share of a link falls with its round-trip
// time, in TCP and in SimGrid's models), so the backbone idles until they are done. Here:
//  Round 0 posts every transfer with the ranks outside the rank's group at the outermost
//   level (cluster), receives and sends first, rotated by the rank's index in its group so
//   that the senders of a group start on different destinations; they stay in flight until
//   the last round (overlap_rounds).
//  Rounds 0..n-2 of a group of n ranks are the shift exchange inside it: to index + s and from
//   index - s, one partner at a time, so at most one local flow shares a node's link with
//   the flows across.
//  Every rank runs R = max over groups of (n - 1) rounds (at least 1), so all the transfers
//   across complete together. The rank's own block is copied in the last round, while they
//   are in flight: copied in round 0 or 1, it could leave the node's link idle, since a flow
//   across does not move data before its (backbone) latency has passed.
// Messages across a pair of clusters X, Y: 2 n_X n_Y (as direct; lg: 2 max(n_X, n_Y)).
// Time (a flow model): about max(the backbone's bytes / its bandwidth, a node's bytes / its
// link) + one backbone latency: on two clusters, the lower bound (docs/results.md).
#include "algorithms/overlap.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace topocoll {

namespace {

struct Groups {
  std::vector<int> group_of, index;
  std::vector<std::vector<int>> members;
};

Groups outer_groups(const Topology& topology, int size) {
  Groups g;
  g.group_of.resize(static_cast<std::size_t>(size));
  g.index.resize(g.group_of.size());
  g.members.resize(static_cast<std::size_t>(std::max(topology.group_count(0), 1)));
  for (int r = 0; r < size; ++r) {
    const int group = topology.group(r, 0);
    if (group >= static_cast<int>(g.members.size())) g.members.resize(static_cast<std::size_t>(group) + 1);
    g.group_of[r] = group;
    g.index[r] = static_cast<int>(g.members[group].size());
    g.members[group].push_back(r);
  }
  return g;
}

}  // namespace

Applicability supports_overlap(const AlltoallProblem& problem) {
  if (!problem.topology || problem.topology->size() != problem.size || problem.topology->level_count() < 1) {
    return {false, "overlap needs a topology describing all " + std::to_string(problem.size) + " ranks"};
  }
  return {};
}

RankSchedule build_overlap(const AlltoallProblem& problem, int rank) {
  RankSchedule s;
  if (!supports_overlap(problem).ok) return s;  // supports() says why
  const Groups g = outer_groups(*problem.topology, problem.size);
  std::size_t largest = 1;
  for (const auto& m : g.members) largest = std::max(largest, m.size());
  const std::size_t rounds = std::max<std::size_t>(largest - 1, 1);
  s.rounds.resize(rounds);

  const std::vector<int>& mine = g.members[g.group_of[rank]];
  const int n = static_cast<int>(mine.size());
  const int me = g.index[rank];
  std::vector<int> outside;
  outside.reserve(static_cast<std::size_t>(problem.size) - mine.size());
  for (int r = 0; r < problem.size; ++r)
    if (g.group_of[r] != g.group_of[rank]) outside.push_back(r);
  const std::size_t m = outside.size();
  for (std::size_t j = 0; j < m; ++j) {
    const int peer = outside[(static_cast<std::size_t>(me) + j) % m];
    s.rounds[0].recvs.push_back({peer, {problem.recv_segment(rank, peer)}, rounds - 1});
    s.rounds[0].sends.push_back({peer, {problem.send_segment(rank, peer)}, rounds - 1});
  }
  for (int step = 1; step < n; ++step) {
    Round& round = s.rounds[static_cast<std::size_t>(step - 1)];
    const int to = mine[(me + step) % n];
    const int from = mine[(me - step + n) % n];
    round.recvs.push_back({from, {problem.recv_segment(rank, from)}});
    round.sends.push_back({to, {problem.send_segment(rank, to)}});
  }
  s.rounds.back().copies.push_back({problem.send_segment(rank, rank), problem.recv_segment(rank, rank)});
  return s;
}

double predict_overlap_us(const AlltoallProblem& problem, const TamWangParams& model) {
  Schedule schedule;
  schedule.size = problem.size;
  schedule.block_bytes = problem.block_bytes;
  for (int r = 0; r < problem.size; ++r) schedule.ranks.push_back(build_overlap(problem, r));
  return predict_schedule_us(schedule, model);
}

}  // namespace topocoll
