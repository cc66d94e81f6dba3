// The handed-on route of auto, made cheap. Where auto's choice for a uniform call (alltoall,
// scatter, gather) was the MPI library's own (a tuning table that says native), a later call of
// the same shape on the communicator goes straight to the MPI library: no argument checks (the
// MPI library makes its own), no layouts, no plan, no string built. The shape is everything
// auto's choice depends on (resolve_auto's key): the operation, the root, the bytes of a block,
// the knobs, and the topology, calibration and network in force. The v forms never take it:
// their traffic summary travels with every call.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "algorithms/problem.hpp"
#include "exec/environment_defaults.hpp"
#include "exec/call.hpp"
#include "topocoll/topocoll.hpp"

namespace topocoll::exec {

struct HandedOnShape {
  Operation operation = Operation::alltoall;
  int root = 0;
  std::size_t block_bytes = 0;
  AlgorithmKnobs knobs;
  std::string topology_spec, calibration_path, network_path;
  std::string chosen_by;  // the decision table's entry that said native
};

class AutoShortcuts {
 public:
  // The entry that covers this call, or null (then the call takes the whole path).
  const HandedOnShape* find(const CallArguments& arguments, const CollectiveOptions& options,
                            const EnvironmentDefaults& defaults) const;
  // Remembers a uniform call that auto handed to the MPI library.
  void remember(const CheckedCall& call);

 private:
  std::vector<HandedOnShape> shapes_;  // a handful: one per size range a program uses
};

// Bytes of one block of a uniform operation, from the side MPI says is significant on rank
// `rank` (never the side it ignores, whose datatype may be unset); 0 for the v forms, and for a
// negative count or a null datatype.
std::size_t significant_block_bytes(const CallArguments& arguments, int rank);

}  // namespace topocoll::exec
