// direct: the synchronous shuffle of Tam and Wang (complete-exchange-on-clusters.txt, 3.3)
// as far as MPI lets us: one round in which every send and receive is posted at once, peers
// in the order (rank + i) mod p for the sends and (rank - i) mod p for the receives, so that
// at any instant each rank targets a different destination.
// Rounds: 1. Messages per rank: p-1. Bytes on the wire per rank: (p-1)*B. One local copy (own
// block). The executor may bound the requests in flight (AlltoallOptions::max_requests).
// Cost (Tam-Wang): k(p-1)g + T_w, the optimum T_ata.
#include "algorithms/flat_algorithms.hpp"

namespace topocoll {

RankSchedule build_direct(const Problem& problem, int rank) {
  const int p = problem.size;
  RankSchedule schedule;
  Round& round = schedule.rounds.emplace_back();
  round.copies.push_back({problem.send_segment(rank, rank), problem.recv_segment(rank, rank)});
  for (int i = 1; i < p; ++i) {
    const int to = (rank + i) % p;
    const int from = (rank - i + p) % p;
    round.recvs.push_back({from, {problem.recv_segment(rank, from)}});
    round.sends.push_back({to, {problem.send_segment(rank, to)}});
  }
  return schedule;
}

double predict_direct_us(const Problem& problem, const TamWangParams& m) {
  if (problem.size < 2) return 0.0;
  const double k = static_cast<double>(m.packets(problem.block_bytes));
  return k * (problem.size - 1) * m.gap_us + m.t_w();
}

}  // namespace topocoll
