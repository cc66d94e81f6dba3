// Runs liu (algorithms/liu.hpp) for one rank. Each stage: the pieces the rank holds are sorted
// by their next hop; every message of the stage is packed (header, then the payloads: local
// copies, charged under SMPI) and sent to each peer of the stage, empty or not; from each
// peer it expects one message, whose first part (at most kLiuFirstPartBytes) lands in a
// buffer posted in advance, and whose header says whether a second part follows. The
// received pieces stay where they landed until the next stage packs them; after the fourth,
// every piece is copied to its place in the receive buffer.
#pragma once

#include <mpi.h>

#include "algorithms/problem.hpp"
#include "exec/executor.hpp"
#include "exec/failure.hpp"

namespace topocoll::exec {

// `problem` knows this rank's blocks only (LocalBlocks). Every stage completes on every rank
// even after a failure (a message that breaks its header, a block whose bytes disagree with
// what this rank expects), so no peer is left waiting; the first failure is returned.
MaybeFailure run_liu_exchange(const Problem& problem, int rank, const ByteBuffers& buffers, MPI_Comm comm, int tag,
                              double copy_bandwidth);

}  // namespace topocoll::exec
