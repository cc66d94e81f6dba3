// The one derived datatype the executor builds: an hindexed type of MPI_BYTE gathering the
// pieces of a message, with displacements relative to a buffer base (cached in plans) or
// absolute addresses (used with MPI_BOTTOM, built per call).
#pragma once

#include <mpi.h>

#include <vector>

#include "exec/failure.hpp"
#include "exec/mpi_handles.hpp"

namespace topocoll::exec {

// Creates and commits the type; `type` owns it on success.
MaybeFailure make_byte_hindexed(const std::vector<int>& lengths, const std::vector<MPI_Aint>& displacements,
                                OwnedDatatype& type);

}  // namespace topocoll::exec
