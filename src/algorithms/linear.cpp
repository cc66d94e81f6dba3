// linear: the root exchanges every block itself. Scatter: the root posts a send of block
// root -> d to every other rank d, in the order d = root+1, root+2, ... (mod p), and each rank
// receives its block; gather: the mirror image. The root's own block is a local copy.
// Rounds: 1. Messages at the root: p-1, one per rank elsewhere. Every byte leaves (or enters)
// through the root's link: (p-1) blocks, the lower bound of a flat machine and the schedule
// that topology-aware scatter and gather improve on when the root's link is not the bottleneck.
#include "algorithms/rooted_algorithms.hpp"

#include <string>

namespace topocoll {

Applicability supports_linear(const Problem& problem) {
  if (!is_rooted(problem.operation)) return {false, "linear is a scatter and gather algorithm"};
  if (problem.blocks == nullptr) return {false, "a rooted problem needs its layout (the root's blocks)"};
  if (problem.root < 0 || problem.root >= problem.size) {
    return {false, "root " + std::to_string(problem.root) + " is not a rank of " + std::to_string(problem.size)};
  }
  return {};
}

RankSchedule build_linear(const Problem& problem, int rank) {
  const int p = problem.size;
  const int root = problem.root;
  const bool scatter = flows_from_root(problem.operation);
  RankSchedule schedule;
  Round& round = schedule.rounds.emplace_back();
  if (rank != root) {
    if (scatter) {
      round.recvs.push_back({root, {problem.recv_segment(rank, root)}});
    } else {
      round.sends.push_back({root, {problem.send_segment(rank, root)}});
    }
    return schedule;
  }
  round.copies.push_back({problem.send_segment(root, root), problem.recv_segment(root, root)});
  for (int i = 1; i < p; ++i) {
    const int peer = (root + i) % p;
    if (scatter) {
      round.sends.push_back({peer, {problem.send_segment(root, peer)}});
    } else {
      round.recvs.push_back({peer, {problem.recv_segment(root, peer)}});
    }
  }
  return schedule;
}

}  // namespace topocoll
