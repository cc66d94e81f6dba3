// The call a rank makes in place of its own when its arguments fail their checks, so that it
// still takes part in the exchange its peers have begun (tags taken, the same messages, each
// of them empty) and then returns its own error: the same operation, communicator and root;
// blocks as large as its arguments still tell (uniform operations, which size the plan alike
// on every rank) or empty (the v forms, whose sizes travel in the call); MPI_BYTE; and
// buffers never touched, since the stand-in runs hollow (ExecutionSettings::hollow).
#pragma once

#include <vector>

#include "exec/call.hpp"

namespace topocoll::exec {

struct StandInCall {
  CallArguments arguments;
  std::vector<int> zeros;  // the v forms' counts and displacements
};

// `failed`: the rank's own arguments, whose communicator (of `size` ranks) and root are valid.
void make_stand_in(const CallArguments& failed, int rank, int size, StandInCall& out);

}  // namespace topocoll::exec
