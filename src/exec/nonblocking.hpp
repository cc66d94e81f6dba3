// Nonblocking collectives (MPI_Ialltoall ... MPI_Igatherv semantics): the same checks, set-up,
// plans and executor as the blocking call (collective.hpp), the executor's walk resumed at each
// progress (outstanding.hpp) instead of driven to its end at once. The user's request completes
// when the last round has and the received blocks are unpacked.
#pragma once

#include <mpi.h>

#include "exec/call.hpp"
#include "exec/environment_defaults.hpp"
#include "topocoll/topocoll.hpp"

namespace topocoll::exec {

// What the start may do before the schedule's first round.
enum class StartRule {
  // Set the communicator up on first use (its duplicate, its topology: collective, like
  // MPI_Comm_dup). A v form whose algorithm asks block sizes of other ranks (lg, the trees of
  // scatterv and gatherv) learns them after the start under either rule.
  may_wait_for_peers,
  // Never wait for another rank (the drop-in: a valid program may start a collective and then
  // wait on a message that the other rank sends before its own start). A call whose topology
  // is not known alike to every rank yet sets itself up after its start (CommState's deferred
  // set-ups); one that would wait otherwise (the duplicate under MPICH, a network not placed, a
  // v form's auto without a traffic summary) is inapplicable: handed to the MPI library with
  // options.inapplicable_reason, else an error.
  never_waits,
};

// MPI_SUCCESS with *request the user's handle, or an MPI error code after the communicator's
// error handler was invoked (the message: topocoll_error_message()). Errors met after the start
// (a peer's message of the wrong size...) come back through the request's completion (the
// code its generalized request's query function gives) and as the thread's last message.
// `defaults`: as run_collective's.
int start_collective(const CallArguments& arguments, const CollectiveOptions& options, MPI_Request* request,
                     StartRule rule, const EnvironmentDefaults* defaults = nullptr);

}  // namespace topocoll::exec
