// pairwise: Tam and Wang's pairwise exchange (complete-exchange-on-clusters.txt, 3.2). In
// each round ranks pair up and swap blocks: XOR pairing when p is a power of two, otherwise
// the EdgeColor 1-factorisation (Figure 1): p-1 rounds for even p, p rounds for odd p with
// one rank idle in each.
// Rounds: p-1 (even p) or p (odd p). Messages per rank: p-1. Bytes per rank: (p-1)*B.
// Cost (Tam-Wang): rounds * (kg + T_w), i.e. kg(p-1) + (p-1)T_w for even p.
#include "algorithms/edge_colouring.hpp"
#include "algorithms/flat_algorithms.hpp"

namespace topocoll {

namespace {

class PairwisePlan final : public RoundPlan {
 public:
  explicit PairwisePlan(const Problem& problem) : problem_(problem), rounds_(pairwise_round_count(problem.size)) {}
  std::size_t rounds(int) const override { return static_cast<std::size_t>(std::max(1, rounds_)); }
  void emit(int rank, std::size_t round, RoundSink& sink) const override {
    if (round == 0) sink.copy(problem_.send_segment(rank, rank), problem_.recv_segment(rank, rank));
    if (static_cast<int>(round) >= rounds_) return;
    const int partner = pairwise_partner(static_cast<int>(round), rank, problem_.size);
    if (partner < 0) return;  // idle this round (odd p)
    sink.recv(partner, problem_.recv_segment(rank, partner));
    sink.send(partner, problem_.send_segment(rank, partner));
  }

 private:
  Problem problem_;
  int rounds_;
};

}  // namespace

std::unique_ptr<RoundPlan> plan_pairwise(const Problem& problem) { return std::make_unique<PairwisePlan>(problem); }

double predict_pairwise_us(const Problem& problem, const TamWangParams& m) {
  const double k = static_cast<double>(m.packets(problem.block_bytes));
  return pairwise_round_count(problem.size) * (k * m.gap_us + m.t_w());
}

}  // namespace topocoll
