// direct: the synchronous shuffle of Tam and Wang (complete-exchange-on-clusters.txt, 3.3)
// as far as MPI lets us: one round in which every send and receive is posted at once, peers
// in the order (rank + i) mod p for the sends and (rank - i) mod p for the receives, so that
// at any instant each rank targets a different destination.
// Rounds: 1. Messages per rank: p-1. Bytes on the wire per rank: (p-1)*B. One local copy (own
// block). The executor may bound the requests in flight (CollectiveOptions::max_requests).
// Cost (Tam-Wang): k(p-1)g + T_w, the optimum T_ata.
#include <utility>

#include "algorithms/flat_algorithms.hpp"

namespace topocoll {

namespace {

class DirectPlan final : public RoundPlan {
 public:
  explicit DirectPlan(const Problem& problem) : problem_(problem) {}
  std::size_t rounds(int) const override { return 1; }
  void emit(int rank, std::size_t, RoundSink& sink) const override {
    sink.copy(problem_.send_segment(rank, rank), problem_.recv_segment(rank, rank));
    if (!sink.wants_places() && !problem_.variable()) {  // one block size: the ranks below, then above
      for (const auto& [first, count] : {std::pair{0, rank}, std::pair{rank + 1, problem_.size - rank - 1}}) {
        sink.recv_pieces_from_run(first, count, problem_.block_bytes, 1, 0);
        sink.send_pieces_to_run(first, count, problem_.block_bytes, 1, 0);
      }
      return;
    }
    for (int i = 1; i < problem_.size; ++i) exchange_at_distance(problem_, rank, i, sink);
  }

 private:
  Problem problem_;
};

}  // namespace

std::unique_ptr<RoundPlan> plan_direct(const Problem& problem) { return std::make_unique<DirectPlan>(problem); }

double predict_direct_us(const Problem& problem, const TamWangParams& m) {
  if (problem.size < 2) return 0.0;
  const double k = static_cast<double>(m.packets(problem.block_bytes));
  return k * (problem.size - 1) * m.gap_us + m.t_w();
}

}  // namespace topocoll
