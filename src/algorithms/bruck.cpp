// bruck: the store-and-forward algorithm of Bruck et al. for small messages, in ceil(log2 p)
// rounds. Index blocks by distance i = (dest - rank) mod p. In round k (step 2^k) a rank
// sends every block whose index has bit k set to rank + 2^k and receives the same indices
// from rank - 2^k; after the round of an index's highest set bit the block has arrived.
// Instead of the textbook's rotation, forward rotation and inverse-rotation copies, blocks
// are read straight from the send buffer, forwarded through two scratch slots per index
// (alternating, so a round never receives into what it sends) and received into their final
// place in the receive buffer: the only local copy is a rank's own block. Messages gather
// non-contiguous segments (derived datatypes in the executor).
// Rounds: ceil(log2 p). Messages per rank: ceil(log2 p). Bytes per rank: sum over k of
// n_k * B, n_k = #{i in [1,p) : bit k of i set}, about (p/2) log2(p) * B.
// Cost (Tam-Wang): sum over k of (ceil(n_k B / b) g + T_w).
#include <vector>

#include "algorithms/flat_algorithms.hpp"

namespace topocoll {

namespace {

int bruck_round_count(int p) {
  int rounds = 0;
  while ((1 << rounds) < p) ++rounds;
  return rounds;
}

int highest_bit(int i) {
  int bit = 0;
  while ((i >> (bit + 1)) != 0) ++bit;
  return bit;
}

}  // namespace

Applicability supports_bruck(const Problem& problem) {
  // Forwarding ranks would need the sizes of blocks they only pass on.
  if (problem.variable()) return {false, "bruck forwards blocks through other ranks and needs equal block sizes"};
  return {};
}

RankSchedule build_bruck(const Problem& problem, int rank) {
  const int p = problem.size;
  const std::size_t b = problem.block_bytes;
  RankSchedule schedule;
  schedule.scratch_bytes = 2 * static_cast<std::size_t>(p) * b;
  // Where the current copy of index i lives on this rank; initially the send buffer.
  std::vector<Segment> where(static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i) where[i] = send_block((rank + i) % p, b);
  std::vector<int> parity(static_cast<std::size_t>(p), 0);

  const int rounds = bruck_round_count(p);
  for (int k = 0; k < rounds; ++k) {
    const int step = 1 << k;
    Round& round = schedule.rounds.emplace_back();
    Transfer send{(rank + step) % p, {}};
    Transfer recv{(rank - step + p) % p, {}};
    for (int i = 1; i < p; ++i) {
      if ((i & step) == 0) continue;
      send.segments.push_back(where[i]);
      if (highest_bit(i) == k) {
        // Final arrival: index i on this rank holds the block from rank - i.
        where[i] = recv_block((rank - i + p) % p, b);
      } else {
        where[i] = scratch_range((2 * static_cast<std::size_t>(i) + parity[i]) * b, b);
        parity[i] ^= 1;
      }
      recv.segments.push_back(where[i]);
    }
    round.sends.push_back(std::move(send));
    round.recvs.push_back(std::move(recv));
  }
  if (schedule.rounds.empty()) schedule.rounds.emplace_back();
  schedule.rounds.front().copies.push_back({send_block(rank, b), recv_block(rank, b)});
  return schedule;
}

double predict_bruck_us(const Problem& problem, const TamWangParams& m) {
  const int p = problem.size;
  double total = 0.0;
  for (int step = 1; step < p; step <<= 1) {
    std::size_t blocks = 0;
    for (int i = 1; i < p; ++i) blocks += (i & step) ? 1 : 0;
    total += static_cast<double>(m.packets(blocks * problem.block_bytes)) * m.gap_us + m.t_w();
  }
  return total;
}

}  // namespace topocoll
