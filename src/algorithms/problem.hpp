// What an alltoall schedule is built for: the number of ranks, the block size, the knobs an
// algorithm may read, and (for topology-aware algorithms) the machine's hierarchy.
#pragma once

#include <compare>
#include <cstddef>
#include <string>

#include "topology/topology.hpp"

namespace topocoll {

struct AlgorithmKnobs {
  int group_width = 4;               // group-shuffle: partners per round (the paper's w)
  std::size_t max_scratch_bytes = 0;  // lg: cap on scratch per rank (0: no cap)
  std::size_t segment_bytes = 0;      // lg: pipeline blocks in pieces of this size (0: from the cap)
  friend auto operator<=>(const AlgorithmKnobs&, const AlgorithmKnobs&) = default;
};

// Whether an algorithm applies to a problem: "not applicable" is an answer, not an error.
struct Applicability {
  bool ok = true;
  std::string reason;  // why not, when !ok
};

struct AlltoallProblem {
  int size = 1;                        // p
  std::size_t block_bytes = 0;         // bytes of each block i->j
  const Topology* topology = nullptr;  // null for flat use
  AlgorithmKnobs knobs;
};

}  // namespace topocoll
