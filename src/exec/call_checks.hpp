// Every check of a collective call, done before any buffer is touched and before any
// communication (all of it local), and what the checks learn: the algorithm, the datatype
// layouts, the byte layout of each side and the problem to build a schedule for.
#pragma once

#include <cstddef>

#include "exec/call.hpp"
#include "exec/failure.hpp"
#include "topocoll/topocoll.hpp"

namespace topocoll::exec {

// Error classes: MPI_ERR_COMM (null or inter-communicator), MPI_ERR_ROOT (a root outside the
// communicator), MPI_ERR_ARG (unknown or inapplicable algorithm, bad options, null count or
// displacement arrays, overlapping receive blocks), MPI_ERR_COUNT
// (negative count, sizes past the address space), MPI_ERR_TYPE (null or uncommitted
// datatype, or fewer bytes sent than received), MPI_ERR_TRUNCATE (more bytes sent than
// received), MPI_ERR_BUFFER (null or misplaced buffer, MPI_IN_PLACE where MPI forbids it).
MaybeFailure check_call(const CallArguments& arguments, const CollectiveOptions& options, CheckedCall& checked);

// Uniform operations: the bytes of a block as far as this rank's arguments tell them after
// check_call failed (its first significant side with a valid count and datatype), 0 when they
// do not, and for the v forms. A rank that takes part in a call it failed plans with these.
std::size_t block_bytes_despite_failure(const CallArguments& arguments, int rank);

// The options' knobs, for the algorithms that read them.
AlgorithmKnobs knobs_of(const CollectiveOptions& options);

}  // namespace topocoll::exec
