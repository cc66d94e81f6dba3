// Requests of an outstanding collective that a wait outside the collective completed.
//
// Under SMPI every MPI_Test is charged simulated time (smpi/test), so the completion calls there
// block on the outstanding collectives' requests instead of polling them (outstanding.hpp,
// wait_for_any_in_flight). Such a wait completes one request in the collective's place: it hands
// the request's status over here, keyed by the address of the collective's own handle (which
// it sets to MPI_REQUEST_NULL), and the collective takes it at its next test (RequestWindow).
// The key is unambiguous: a slot is reused only after its owner has taken its completion.
#pragma once

#include <mpi.h>

namespace topocoll::exec {

void hand_over_completion(const MPI_Request* slot, const MPI_Status& status);
// Whether any completion waits to be taken (one atomic load).
bool completions_handed_over();
// The completion handed over for `slot`, removed; false when there is none.
bool take_completion(const MPI_Request* slot, MPI_Status& status);

}  // namespace topocoll::exec
