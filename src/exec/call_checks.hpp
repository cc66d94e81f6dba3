// Every check of a collective call, done before any buffer is touched and before any
// communication (all of it local), and what the checks learn: the algorithm, the datatype
// layouts, the byte layout of each side and the problem to build a schedule for.
#pragma once

#include "exec/call.hpp"
#include "exec/failure.hpp"
#include "topocoll/topocoll.hpp"

namespace topocoll::exec {

// Error classes: MPI_ERR_COMM (null or inter-communicator), MPI_ERR_ROOT (a root outside the
// communicator), MPI_ERR_ARG (unknown or inapplicable algorithm, bad options, null count or
// displacement arrays, negative displacements, overlapping receive blocks), MPI_ERR_COUNT
// (negative count, sizes past the address space), MPI_ERR_TYPE (null or uncommitted
// datatype, or fewer bytes sent than received), MPI_ERR_TRUNCATE (more bytes sent than
// received), MPI_ERR_BUFFER (null or misplaced buffer, MPI_IN_PLACE where MPI forbids it).
MaybeFailure check_call(const CallArguments& arguments, const CollectiveOptions& options, CheckedCall& checked);

// The options' knobs, for the algorithms that read them.
AlgorithmKnobs knobs_of(const CollectiveOptions& options);

}  // namespace topocoll::exec
