// pairwise: Tam and Wang's pairwise exchange (complete-exchange-on-clusters.txt, 3.2). In
// each round ranks pair up and swap blocks: XOR pairing when p is a power of two, otherwise
// the EdgeColor 1-factorisation (Figure 1): p-1 rounds for even p, p rounds for odd p with
// one rank idle in each.
// Rounds: p-1 (even p) or p (odd p). Messages per rank: p-1. Bytes per rank: (p-1)*B.
// Cost (Tam-Wang): rounds * (kg + T_w), i.e. kg(p-1) + (p-1)T_w for even p.
#include "algorithms/edge_colouring.hpp"
#include "algorithms/flat_algorithms.hpp"

namespace topocoll {

RankSchedule build_pairwise(const Problem& problem, int rank) {
  const int p = problem.size;
  RankSchedule schedule;
  const int rounds = pairwise_round_count(p);
  for (int r = 0; r < rounds; ++r) {
    Round& round = schedule.rounds.emplace_back();
    const int partner = pairwise_partner(r, rank, p);
    if (partner < 0) continue;  // idle this round (odd p)
    round.recvs.push_back({partner, {problem.recv_segment(rank, partner)}});
    round.sends.push_back({partner, {problem.send_segment(rank, partner)}});
  }
  if (schedule.rounds.empty()) schedule.rounds.emplace_back();
  schedule.rounds.front().copies.push_back({problem.send_segment(rank, rank), problem.recv_segment(rank, rank)});
  return schedule;
}

double predict_pairwise_us(const Problem& problem, const TamWangParams& m) {
  const double k = static_cast<double>(m.packets(problem.block_bytes));
  return pairwise_round_count(problem.size) * (k * m.gap_us + m.t_w());
}

}  // namespace topocoll
