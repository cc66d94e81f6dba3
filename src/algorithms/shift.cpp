// shift: Tam and Wang's shift exchange (complete-exchange-on-clusters.txt, 3.1, Algorithm 1).
// In round i (1..p-1) each rank sends its block to (rank + i) mod p and receives from
// (rank - i) mod p: no node contention, but each round waits for the previous one.
// Rounds: p-1. Messages per rank: p-1, one per round. Bytes per rank: (p-1)*B.
// Cost (Tam-Wang): kg(p-1) + (p-1)T_w.
#include "algorithms/flat_algorithms.hpp"

namespace topocoll {

RankSchedule build_shift(const AlltoallProblem& problem, int rank) {
  const int p = problem.size;
  const std::size_t b = problem.block_bytes;
  RankSchedule schedule;
  for (int i = 1; i < p; ++i) {
    Round& round = schedule.rounds.emplace_back();
    const int to = (rank + i) % p;
    const int from = (rank - i + p) % p;
    round.recvs.push_back({from, {recv_block(from, b)}});
    round.sends.push_back({to, {send_block(to, b)}});
  }
  if (schedule.rounds.empty()) schedule.rounds.emplace_back();
  schedule.rounds.front().copies.push_back({send_block(rank, b), recv_block(rank, b)});
  return schedule;
}

double predict_shift_us(const AlltoallProblem& problem, const TamWangParams& m) {
  const double k = static_cast<double>(m.packets(problem.block_bytes));
  return (problem.size - 1) * (k * m.gap_us + m.t_w());
}

}  // namespace topocoll
