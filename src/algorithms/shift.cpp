// shift: Tam and Wang's shift exchange (complete-exchange-on-clusters.txt, 3.1, Algorithm 1).
// In round i (1..p-1) each rank sends its block to (rank + i) mod p and receives from
// (rank - i) mod p: no node contention, but each round waits for the previous one.
// Rounds: p-1. Messages per rank: p-1, one per round. Bytes per rank: (p-1)*B.
// Cost (Tam-Wang): kg(p-1) + (p-1)T_w.
#include "algorithms/flat_algorithms.hpp"

namespace topocoll {

void exchange_at_distance(const Problem& problem, int rank, int i, RoundSink& sink) {
  const int p = problem.size;
  const int to = (rank + i) % p;
  const int from = (rank - i + p) % p;
  sink.recv(from, problem.recv_segment(rank, from));
  sink.send(to, problem.send_segment(rank, to));
}

namespace {

class ShiftPlan final : public RoundPlan {
 public:
  explicit ShiftPlan(const Problem& problem) : problem_(problem) {}
  std::size_t rounds(int) const override { return static_cast<std::size_t>(std::max(1, problem_.size - 1)); }
  void emit(int rank, std::size_t round, RoundSink& sink) const override {
    if (round == 0) sink.copy(problem_.send_segment(rank, rank), problem_.recv_segment(rank, rank));
    const int i = static_cast<int>(round) + 1;
    if (i < problem_.size) exchange_at_distance(problem_, rank, i, sink);
  }

 private:
  Problem problem_;
};

}  // namespace

std::unique_ptr<RoundPlan> plan_shift(const Problem& problem) { return std::make_unique<ShiftPlan>(problem); }

double predict_shift_us(const Problem& problem, const TamWangParams& m) {
  const double k = static_cast<double>(m.packets(problem.block_bytes));
  return (problem.size - 1) * (k * m.gap_us + m.t_w());
}

}  // namespace topocoll
