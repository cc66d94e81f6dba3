// What topology a communicator sees: where its ranks run (world rank, host name), the groups a
// topology spec (or else Slurm) gives them, and the node level from
// MPI_Comm_split_type(MPI_COMM_TYPE_SHARED).
// Collective over the communicator.
#pragma once

#include <mpi.h>

#include <string>

#include "exec/failure.hpp"
#include "topology/topology.hpp"
#include "topology/topology_file.hpp"

namespace topocoll::exec {

// World ranks and host names (MPI_Get_processor_name) of `comm`'s ranks, on every rank.
MaybeFailure discover_placement(MPI_Comm comm, RankPlacement& placement);

// The topology of `comm` under `spec` (a shorthand, a host-name pattern or a topology file path).
// An empty spec gives Slurm's switch tree when every rank has SLURM_TOPOLOGY_ADDR and
// SLURM_TOPOLOGY_ADDR_PATTERN (its switch levels and node), else the node level alone. A level
// named "node" is appended from the shared-memory split unless the topology already has one.
// Errors (a malformed or inconsistent spec or Slurm address) carry MPI_ERR_ARG and name the entry
// at fault; every rank reaches the same verdict when it reads the same spec.
MaybeFailure discover_topology(MPI_Comm comm, const std::string& spec, Topology& topology);

}  // namespace topocoll::exec
