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
#include <algorithm>
#include <bit>
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

namespace {

// Where index i lies on a rank in round k (bit k of i set): it has been forwarded once for each
// set bit below k, the j-th time (from 0) into scratch slot 2i + (j mod 2).
class BruckPlan final : public RoundPlan {
 public:
  explicit BruckPlan(const Problem& problem)
      : p_(problem.size),
        b_(problem.block_bytes),
        rounds_(bruck_round_count(problem.size)),
        counts_(rounds_, 0),
        from_send_(rounds_, 0),
        into_recv_(rounds_, 0) {
    for (int k = 0; k < rounds_; ++k) {
      for (int i = 1; i < p_; ++i) {
        if (((i >> k) & 1) == 0) continue;
        ++counts_[k];
        if ((i & ((1 << k) - 1)) == 0) ++from_send_[k];  // not forwarded yet
        if (highest_bit(i) == k) ++into_recv_[k];        // arrives
      }
    }
  }
  std::size_t rounds(int) const override { return static_cast<std::size_t>(std::max(1, rounds_)); }
  std::size_t scratch_bytes(int) const override { return 2 * static_cast<std::size_t>(p_) * b_; }
  void emit(int rank, std::size_t round, RoundSink& sink) const override {
    if (round == 0) sink.copy(send_block(rank, b_), recv_block(rank, b_));
    const int k = static_cast<int>(round);
    if (k >= rounds_) return;
    const int step = 1 << k;
    const int to = (rank + step) % p_, from = (rank - step + p_) % p_;
    if (!sink.wants_places()) {  // each buffer's share of the bytes (round_sink.hpp)
      const auto by_buffer = [&](BufferKind buffer, std::size_t blocks) {
        std::vector<Segment> segments;
        if (blocks > 0) segments.push_back(Segment{buffer, 0, blocks * b_});
        if (counts_[k] > blocks) segments.push_back(Segment{BufferKind::scratch, 0, (counts_[k] - blocks) * b_});
        return segments;
      };
      sink.send(to, by_buffer(BufferKind::send, from_send_[k]), 0);
      sink.recv(from, by_buffer(BufferKind::recv, into_recv_[k]), 0);
      return;
    }
    sent_.clear();
    received_.clear();
    for (int i = 1; i < p_; ++i) {
      if ((i & step) == 0) continue;
      const int forwarded = std::popcount(static_cast<unsigned>(i & (step - 1)));
      sent_.push_back(forwarded == 0 ? send_block((rank + i) % p_, b_) : slot(i, forwarded - 1));
      received_.push_back(highest_bit(i) == k ? recv_block((rank - i + p_) % p_, b_) : slot(i, forwarded));
    }
    sink.send(to, sent_, 0);
    sink.recv(from, received_, 0);
  }

 private:
  Segment slot(int i, int forward) const {
    return scratch_range((2 * static_cast<std::size_t>(i) + static_cast<std::size_t>(forward % 2)) * b_, b_);
  }

  int p_;
  std::size_t b_;
  int rounds_;
  std::vector<std::size_t> counts_;               // indices with bit k set
  std::vector<std::size_t> from_send_;            // ... still in the send buffer (no lower bit set)
  std::vector<std::size_t> into_recv_;            // ... arriving (bit k their highest)
  mutable std::vector<Segment> sent_, received_;  // scratch for emit
};

}  // namespace

std::unique_ptr<RoundPlan> plan_bruck(const Problem& problem) { return std::make_unique<BruckPlan>(problem); }

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
