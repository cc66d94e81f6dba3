// Resolving `auto`: the algorithm with the lowest time predicted by the cost model calibrated
// for the machine (src/select/auto_select.hpp), on the communicator's topology. Every rank makes
// the same choice: same calibration, same topology, same problem. For the v forms, whose block
// sizes each rank knows only in part, the problem is the uniform operation of the same total
// volume (one MPI_Allreduce of the bytes sent), among the algorithms that apply to blocks of
// different sizes. Scatter and gather choose among their own registry (topo with a binomial
// tree or a star in each phase). Where the calibration's decision table covers the call (its
// operation, the communicator's size and topology shape, the block size), auto runs the table's
// algorithm instead, `native` included. Choices are cached per communicator.
#pragma once

#include <mpi.h>

#include <cstddef>

#include "exec/call.hpp"
#include "topocoll/topocoll.hpp"
#include "exec/comm_state.hpp"
#include "exec/failure.hpp"

namespace topocoll::exec {

// Which traffic summary a v form's auto chooses by (traffic_summary_exchange.hpp).
enum class AutoTraffic {
  with_the_call,  // a blocking call: the previous call's, this call's own sent on its way
  settled,        // a nonblocking start that may wait: everything on its way completed first
  latest_known,   // a nonblocking start that never waits: the latest complete one (must exist)
};

// Sets call.algorithm and its knobs, call.auto_chosen_by, call.native when the table named the
// MPI library's own (and call.problem.topology). The v forms' summary is read off
// call.send.bytes and call.recv.bytes.
MaybeFailure resolve_auto(CommState& state, CheckedCall& call, MPI_Comm private_comm,
                          AutoTraffic traffic = AutoTraffic::with_the_call);

}  // namespace topocoll::exec
