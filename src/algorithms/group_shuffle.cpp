// group-shuffle: Tam and Wang's group shuffle exchange (complete-exchange-on-clusters.txt,
// 3.4, Algorithm 3). The pairwise rounds (edge colours) are taken w at a time; in each round
// a rank runs a synchronous shuffle with its (at most) w partners. Bounding the fan-out to w
// limits head-of-line blocking while keeping few rounds.
// Rounds: ceil(C/w), C = p-1 colours (even p) or p (odd p). Messages per rank: p-1.
// Bytes per rank: (p-1)*B. Cost (Tam-Wang): sum over rounds of (w_j k g + T_w), w_j the
// partners of the busiest rank in round j: the paper's kg(p-1) + ((p-1)/w)T_w when p is even
// and w divides p-1.
#include <algorithm>

#include "algorithms/edge_colouring.hpp"
#include "algorithms/flat_algorithms.hpp"

namespace topocoll {

Applicability supports_group_shuffle(const Problem& problem) {
  if (problem.knobs.group_width < 1) {
    return {false, "group-shuffle needs a group width of at least 1, got " +
                       std::to_string(problem.knobs.group_width)};
  }
  return {};
}

namespace {

class GroupShufflePlan final : public RoundPlan {
 public:
  explicit GroupShufflePlan(const Problem& problem)
      : problem_(problem), width_(std::max(1, problem.knobs.group_width)), colours_(pairwise_round_count(problem.size)) {}
  std::size_t rounds(int) const override { return static_cast<std::size_t>(std::max(1, (colours_ + width_ - 1) / width_)); }
  void emit(int rank, std::size_t round, RoundSink& sink) const override {
    if (round == 0) sink.copy(problem_.send_segment(rank, rank), problem_.recv_segment(rank, rank));
    const int first = static_cast<int>(round) * width_;
    for (int c = first; c < std::min(first + width_, colours_); ++c) {
      const int partner = pairwise_partner(c, rank, problem_.size);
      if (partner < 0) continue;
      sink.recv(partner, problem_.recv_segment(rank, partner));
      sink.send(partner, problem_.send_segment(rank, partner));
    }
  }

 private:
  Problem problem_;
  int width_, colours_;
};

}  // namespace

std::unique_ptr<RoundPlan> plan_group_shuffle(const Problem& problem) {
  return std::make_unique<GroupShufflePlan>(problem);
}

double predict_group_shuffle_us(const Problem& problem, const TamWangParams& m) {
  const double k = static_cast<double>(m.packets(problem.block_bytes));
  const int colours = pairwise_round_count(problem.size);
  const int w = std::max(1, problem.knobs.group_width);
  double total = 0.0;
  for (int first = 0; first < colours; first += w) {
    // A rank has a partner in every colour of the round, except that for odd p each colour
    // idles one rank: the busiest rank has min(colours in round, p-1) partners.
    const int partners = std::min(std::min(w, colours - first), problem.size - 1);
    total += partners * k * m.gap_us + m.t_w();
  }
  return total;
}

}  // namespace topocoll
