// The v forms: before building its schedule, each rank learns the sizes of the blocks its
// algorithm makes it handle without owning them (Algorithm::size_questions: lg's collectors,
// the inner ranks of a scatter or gather tree), from the ranks that hold those sizes. Point-to-point on the private
// communicator, with the call's own tag for it; only between ranks that have something to say.
#pragma once

#include <mpi.h>

#include "algorithms/registry.hpp"
#include "exec/block_view.hpp"
#include "exec/failure.hpp"

namespace topocoll::exec {

MaybeFailure exchange_block_sizes(const Algorithm& algorithm, const Problem& problem, int rank,
                                  LocalBlocks& blocks, MPI_Comm comm, int tag);

}  // namespace topocoll::exec
