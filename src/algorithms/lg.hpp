// The LG two-cluster total exchange (see lg.cpp).
#pragma once

#include <utility>
#include <vector>

#include <memory>

#include "algorithms/problem.hpp"
#include "algorithms/round_plan.hpp"
#include "schedule/schedule.hpp"

namespace topocoll {

Applicability supports_lg(const Problem& problem);
std::unique_ptr<RoundPlan> plan_lg(const Problem& problem);
// What auto tries: the group levels when the caller leaves knobs.group_level at -1
// (group_level.hpp), else the caller's knobs.
std::vector<AlgorithmKnobs> lg_auto_knobs(const Problem& problem);
// Alltoallv: the sizes of the blocks `rank` collects from each peer of its cluster in phase 1
// (peer -> dst), and of those it hands each of them.
void lg_size_questions(const Problem& problem, int rank, SizeQuestions& out);
// lg's piece size for blocks of `block` bytes: segment_bytes when set, shrunk so that (steps+1)
// pieces of the `most_collected` blocks a rank collects fit under max_scratch_bytes (when set).
// 0 when the cap is too small for one-byte pieces (or the block is empty). `most_collected` is
// only consulted under a cap (computing it costs O(p^2)).
template <typename MostCollected>
std::size_t lg_piece_bytes(std::size_t block, const AlgorithmKnobs& knobs, int steps, MostCollected most_collected) {
  if (block == 0) return 0;
  std::size_t piece = knobs.segment_bytes > 0 && knobs.segment_bytes < block ? knobs.segment_bytes : block;
  if (knobs.max_scratch_bytes == 0) return piece;
  const std::size_t per_byte = static_cast<std::size_t>(most_collected()) * static_cast<std::size_t>(steps + 1);
  if (per_byte > 0 && piece * per_byte > knobs.max_scratch_bytes) piece = knobs.max_scratch_bytes / per_byte;
  return piece;
}

}  // namespace topocoll
