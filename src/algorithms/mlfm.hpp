// mlfm: the congestion-free total exchange of a box of servers on a multi-layer full mesh
// (mlfm-congestion-free-all-to-all.txt, section 2); the algorithm is in mlfm.cpp. Here: where
// a rank sits in the box and whom it sends to and receives from in each phase, as pure
// functions (the tests check them against the network's links).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/problem.hpp"
#include "algorithms/round_plan.hpp"
#include "topology/topology.hpp"

namespace topocoll {

// A server of the job: layer i < layers, column j < columns, slot k < slots.
struct MlfmPosition {
  int layer = 0;
  int column = 0;
  int slot = 0;
  friend bool operator==(const MlfmPosition&, const MlfmPosition&) = default;
};

// The job's box: the paper's n, l and m (1 <= m <= l - 1, n >= 1).
struct MlfmShape {
  int layers = 1;
  int columns = 2;
  int slots = 1;
  int size() const { return layers * columns * slots; }
  int index(const MlfmPosition& at) const { return (at.layer * columns + at.column) * slots + at.slot; }
};

// Phase (s, t, u): s < layers, t < columns, u < slots; t != 0 crosses to another column.
struct MlfmPhase {
  int s = 0;
  int t = 0;
  int u = 0;
};

// Phase number q (0 .. size-1) in the order s, then t, then u; phase 0 is (0, 0, 0), each
// server to itself.
MlfmPhase mlfm_phase(const MlfmShape& shape, int q);
// Where server `from` sends in `phase`: ((i+s)%n, (j+t+k+1)%l or (j+t+k+2)%l, (k+u)%m) for t != 0
// (the second when t+k+1 >= l), ((i+s)%n, j, (k+u)%m) for t = 0.
MlfmPosition mlfm_destination(const MlfmShape& shape, const MlfmPosition& from, const MlfmPhase& phase);
// The inverse: whom server `to` receives from in `phase`.
MlfmPosition mlfm_source(const MlfmShape& shape, const MlfmPosition& to, const MlfmPhase& phase);

// The ranks of a problem as a box: each rank's position, and the rank at each position (by
// MlfmShape::index).
struct MlfmJob {
  MlfmShape shape;
  std::vector<MlfmPosition> position_of_rank;
  std::vector<int> rank_at;
};

// The job a topology describes: levels "column", "layer", "slot" first (topocoll-platform
// mlfm's topology files; inner levels such as the executor's "node" are ignored). A topology
// names a group by its path from the outermost level, so a column (level 0) is one group in
// every layer, which is what the algorithm needs; a rank's layer is the order in which its leaf
// first appears among its column's ranks, its slot the order in which it appears among its
// leaf's. The ranks must fill a box: as many leaves in every column, as many servers (one rank
// each) on every leaf, slots <= columns - 1. Otherwise nullopt, `why_not` saying why.
std::optional<MlfmJob> mlfm_job(const Topology* topology, int size, std::string* why_not);
// The job from whatever tells the ranks' coordinates: the problem's topology where it makes a
// box, else the groups of the network its ranks run on (a network `topocoll-platform mlfm` wrote
// gives each server its column, layer and slot). nullopt where neither makes a box.
std::optional<MlfmJob> mlfm_job_of(const Problem& problem);
// The phases after the local copy, as destination[phase][rank]: size - 1 permutations without
// fixed points (linkaware starts from them when the ranks form a box).
std::vector<std::vector<int>> mlfm_destinations(const MlfmJob& job);

Applicability supports_mlfm(const Problem& problem);
std::unique_ptr<RoundPlan> plan_mlfm(const Problem& problem);

}  // namespace topocoll
