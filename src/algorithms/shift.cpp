// shift: Tam and Wang's shift exchange (complete-exchange-on-clusters.txt, 3.1, Algorithm 1).
// In round i (1..p-1) each rank sends its block to (rank + i) mod p and receives from
// (rank - i) mod p: no node contention, but each round waits for the previous one.
// Rounds: p-1. Messages per rank: p-1, one per round. Bytes per rank: (p-1)*B.
// Cost (Tam-Wang): kg(p-1) + (p-1)T_w.
#include "algorithms/flat_algorithms.hpp"

namespace topocoll {

RankSchedule build_shift(const Problem& problem, int rank) {
  const int p = problem.size;
  RankSchedule schedule;
  for (int i = 1; i < p; ++i) {
    Round& round = schedule.rounds.emplace_back();
    const int to = (rank + i) % p;
    const int from = (rank - i + p) % p;
    round.recvs.push_back({from, {problem.recv_segment(rank, from)}});
    round.sends.push_back({to, {problem.send_segment(rank, to)}});
  }
  if (schedule.rounds.empty()) schedule.rounds.emplace_back();
  schedule.rounds.front().copies.push_back({problem.send_segment(rank, rank), problem.recv_segment(rank, rank)});
  return schedule;
}

double predict_shift_us(const Problem& problem, const TamWangParams& m) {
  const double k = static_cast<double>(m.packets(problem.block_bytes));
  return (problem.size - 1) * (k * m.gap_us + m.t_w());
}

}  // namespace topocoll
