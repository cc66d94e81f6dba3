// A calibration's decision table: which algorithm `auto` runs, measured rather than predicted,
// for one operation on communicators of one size and topology shape, over a range of block
// sizes. topocoll-tune writes it (tuning.hpp decides the winners); auto looks a call up in it
// before it asks the cost model, and the model answers wherever no entry covers the call.
// In the calibration file (docs/tuning.md, "The decision table"):
//
//   "decisions": [{"operation": "alltoall", "ranks": 16, "shape": "cluster:1x16 node:1x16",
//                  "from_bytes": 1024, "to_bytes": 65535, "algorithm": "pairwise",
//                  "measured": [{"bytes": 1024, "us": 80.1, "native_us": 95.3}, ...]}, ...]
//
// The same idea as Open MPI's coll_tuned dynamic rules file (collective -> communicator size ->
// message size -> algorithm) and MPICH's JSON tuning files (collective -> comm_size ->
// msg_size -> algorithm), keyed also by the shape, since topocoll's algorithms depend on it.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "schedule/operation.hpp"
#include "topology/topology.hpp"

namespace topocoll {

// An entry naming `auto` hands its sizes to the cost model: topocoll-tune measured the model's
// own choice there (which may be one of an algorithm's tuned settings, such as a topo variant,
// that no fixed name runs) as fast as the fastest.
inline constexpr std::string_view kModelDecision = "auto";

// One tuned size inside an entry's range: the winner's median and the MPI library's there.
struct DecisionEvidence {
  std::size_t bytes = 0;
  double us = 0.0;
  std::optional<double> native_us;
};

struct Decision {
  Operation operation = Operation::alltoall;
  int ranks = 0;
  std::string shape;           // topology_shape() of the communicator's topology
  std::size_t from_bytes = 0;  // bytes per block, both ends included
  std::size_t to_bytes = 0;
  std::string algorithm;       // a name of the operation's registry, `native` included, or kModelDecision
  std::vector<DecisionEvidence> measured;  // may be empty (a table written by hand)

  bool covers(Operation op, int size, std::string_view call_shape, std::size_t block_bytes) const;
};

// What the table keys on besides the size: per level, outermost first, its name and its groups'
// sizes, "NAME:GxS" when its G groups all hold S ranks, else "NAME:S1+S2+...":
// "cluster:3+7 node:10x1". Two communicators of one shape have the same groups, though maybe
// not the same ranks in them.
std::string topology_shape(const Topology& topology);

// The entry that covers the call, or null.
const Decision* find_decision(std::span<const Decision> table, Operation operation, int ranks,
                              std::string_view shape, std::size_t block_bytes);

// "the tuning table (alltoall, 16 ranks, cluster:1x16 node:1x16, 1024-65535 bytes per block)":
// what auto's verbose notes and topocoll-bench say when the table chose.
std::string describe_decision(const Decision& decision);

// Nullopt when the entries are consistent, else the first conflict: two entries of the same
// operation, ranks and shape whose ranges overlap.
std::optional<std::string> find_overlap(std::span<const Decision> table);

// `table` with every entry of the same operation, ranks and shape as one of `fresh` replaced by
// `fresh`'s (a new tuning run of a communicator replaces its old ranges, keeps the others).
std::vector<Decision> merge_decisions(std::span<const Decision> table, std::span<const Decision> fresh);

}  // namespace topocoll
