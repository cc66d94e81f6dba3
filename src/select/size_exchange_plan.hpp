// How auto prices a v form's algorithm that asks size questions (Algorithm::size_questions: lg's
// collectors, the inner ranks of a scatterv or gatherv tree): before it builds the schedule, the
// executor exchanges those sizes in one round of point-to-point messages, 8 bytes per size, only
// between ranks that have something to say (exec/block_size_exchange.hpp). The algorithm's own
// rounds do not show that round; with a per-message overhead it can cost as much as they do (lg's
// 31 size messages each way on a switch of 32 ranks). This plan is that round, then the
// algorithm's: for pricing only (its messages have no places).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "algorithms/registry.hpp"

namespace topocoll {

class SizeExchangeFirst final : public RoundPlan {
 public:
  // `algorithm` has size questions; `inner` is its plan for `problem`; both must outlive this.
  SizeExchangeFirst(const Algorithm& algorithm, const Problem& problem, std::unique_ptr<RoundPlan> inner)
      : algorithm_(&algorithm), problem_(&problem), inner_(std::move(inner)) {}
  std::size_t rounds(int rank) const override { return inner_->rounds(rank) + 1; }
  void emit(int rank, std::size_t round, RoundSink& sink) const override;
  std::size_t scratch_bytes(int rank) const override { return inner_->scratch_bytes(rank); }
  bool keeps_transfers_in_flight() const override { return inner_->keeps_transfers_in_flight(); }
  std::optional<std::vector<std::size_t>> rounds_posting_in_flight() const override;

 private:
  const Algorithm* algorithm_;
  const Problem* problem_;
  std::unique_ptr<RoundPlan> inner_;
};

}  // namespace topocoll
