// linkaware's colouring (linkaware.cpp says why and how): the transfers of a total exchange as a
// bipartite multigraph, senders on one side and receivers on the other, coloured with as many
// phases as each sender has transfers, each phase a perfect matching, so that no capacity carries
// more flows in a phase than it must. A transfer is one message between two ranks, or an orbit
// of such messages that always travel together (linkaware's column-symmetric start: one message
// from each column, the same in every column), whose route is the union of its messages' routes.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "algorithms/rank_routes.hpp"

namespace topocoll {

struct TransferGraph {
  int classes = 0;     // senders, and as many receivers
  int phases = 0;      // each class sends and receives this many transfers, one per phase
  int capacities = 0;  // capacity ids in the routes are below this
  std::vector<int> sender, receiver;  // per transfer
  std::vector<std::size_t> first;     // per transfer, its route's first id in `ids` (one more at the end)
  std::vector<int> ids;

  int transfers() const { return static_cast<int>(sender.size()); }
  std::span<const int> route(int transfer) const {
    const auto t = static_cast<std::size_t>(transfer);
    return {ids.data() + first[t], ids.data() + first[t + 1]};
  }
  void add(int from, int to, std::span<const int> capacities_crossed);
};

// Every ordered pair of distinct ranks one transfer, in the order (from, to): p classes, p - 1
// phases.
TransferGraph transfers_of(const RankRoutes& routes);

// A colouring: transfer[phase][class] is the transfer the class sends in the phase.
struct TransferColouring {
  std::vector<std::vector<int>> transfer;
  int worst_load = 0;  // the most flows on one capacity in one phase
  int bound = 0;       // ceil(most crossings of one capacity / phases)
  bool from_start = false;  // the search began from the start it was given, not the greedy colouring
};

// The colouring of `graph`: from `start` (a colouring, transfer[phase][class]; empty or not a
// colouring: none) where it loads the capacities no more than the greedy colouring (taken as it
// is when at the bound), else from the greedy colouring, improved by the local search; `crossed`
// counts the flows of the whole exchange on each capacity, `ranks` the ranks (the search's budget
// grows with their pairs). Deterministic.
TransferColouring colour_transfers(const TransferGraph& graph, const std::vector<long long>& crossed, int ranks,
                                   const std::vector<std::vector<int>>& start);

}  // namespace topocoll
