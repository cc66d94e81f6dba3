// What a schedule is built for: the operation, the number of ranks, the layout of the blocks
// (and the root, for scatter and gather), the knobs an algorithm may read, and (for
// topology-aware algorithms) the machine's hierarchy and, where known, its network.
#pragma once

#include <compare>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "network/network.hpp"
#include "schedule/block_map.hpp"
#include "schedule/operation.hpp"
#include "schedule/schedule.hpp"
#include "topology/topology.hpp"

namespace topocoll {

class RankRoutes;  // rank_routes.hpp

struct AlgorithmKnobs {
  int group_width = 4;               // group-shuffle: partners per round (the paper's w)
  std::size_t max_scratch_bytes = 0;  // lg: cap on scratch per rank (0: no cap)
  std::size_t segment_bytes = 0;      // lg: pipeline blocks in pieces of this size (0: from the cap)
  int stripes = 0;                    // overlap: messages per block across groups (0: one; auto chooses)
  unsigned topo_linear_phases = 0;    // topo: bit l set: phase l is a star, not a binomial tree
  unsigned topo_skipped_levels = 0;   // topo: bit l set: topology level l has no phase (no leaders)
  int group_level = -1;               // lg, overlap: the level whose groups they use (-1: the outermost)
  friend auto operator<=>(const AlgorithmKnobs&, const AlgorithmKnobs&) = default;
};

// The network the ranks run on, for algorithms that read its routes (linkaware): rank r runs on
// host host_of_rank[r] of `network`.
struct NetworkPlacement {
  const network::Network* network = nullptr;
  std::vector<int> host_of_rank;
};

// Whether an algorithm applies to a problem: "not applicable" is an answer, not an error.
struct Applicability {
  bool ok = true;
  std::string reason;  // why not, when !ok
};

// The block sizes a rank of a v form must learn before it can build its schedule, by peer:
// `learn[q]` the blocks (src -> dst) whose sizes it learns from rank q, `tell[q]` those whose
// sizes it tells rank q (what q learns from it). Both hold one list per rank of the problem.
struct SizeQuestions {
  std::vector<std::vector<std::pair<int, int>>> learn, tell;
  void reset(int size) {
    learn.assign(static_cast<std::size_t>(size), {});
    tell.assign(static_cast<std::size_t>(size), {});
  }
};

struct Problem {
  int size = 1;                        // p
  std::size_t block_bytes = 0;         // bytes of each block i->j (alltoall)
  const Topology* topology = nullptr;  // null for flat use
  AlgorithmKnobs knobs;
  // Sizes and places per pair. Null: MPI_Alltoall's uniform layout (block_bytes, block d at
  // d*B). Set for alltoallv (a per-pair map) and for every rooted operation (RootedBlocks,
  // whose root is `root`).
  const BlockMap* blocks = nullptr;
  Operation operation = Operation::alltoall;
  int root = 0;  // scatter, gather and their v forms
  const NetworkPlacement* network = nullptr;  // null: not known (the tools attach a platform's)
  // The routes between the ranks (rank_routes.hpp) where the caller keeps them (the executor:
  // once per communicator, topology and network); null: built from `network` or `topology` by
  // the algorithm that reads them.
  const RankRoutes* routes = nullptr;

  // A scatter or gather (or its v form) over `layout`, whose root it takes.
  static Problem rooted(Operation operation, const RootedBlocks& layout, const Topology* topology = nullptr) {
    Problem problem{layout.size(), 0, topology, {}, &layout, operation, layout.root()};
    return problem;
  }

  bool variable() const { return blocks != nullptr; }
  std::size_t bytes(int src, int dst) const { return blocks ? blocks->bytes(src, dst) : block_bytes; }
  // The segment of block rank -> dst in rank's send buffer, and of src -> rank in its receive
  // buffer.
  Segment send_segment(int rank, int dst) const {
    return blocks ? Segment{BufferKind::send, blocks->send_offset(rank, dst), blocks->bytes(rank, dst)}
                  : send_block(static_cast<std::size_t>(dst), block_bytes);
  }
  Segment recv_segment(int rank, int src) const {
    return blocks ? Segment{BufferKind::recv, blocks->recv_offset(rank, src), blocks->bytes(src, rank)}
                  : recv_block(static_cast<std::size_t>(src), block_bytes);
  }
};

}  // namespace topocoll
