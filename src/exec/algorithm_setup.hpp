// What a call needs before its schedule can be built, shared by every operation: the
// topology spec it runs under, and for topology-aware algorithms the topology itself with the
// algorithm's verdict on it.
#pragma once

#include <string>

#include "exec/call.hpp"
#include "topocoll/topocoll.hpp"
#include "exec/comm_state.hpp"
#include "exec/environment_defaults.hpp"
#include "exec/failure.hpp"

namespace topocoll::exec {

// call.topology_spec, calibration_path and network_path: options.topology, .calibration and
// .network, each the default where it is empty.
void take_machine_files(const CollectiveOptions& options, const EnvironmentDefaults& defaults, CheckedCall& call);

// For a topology-aware algorithm: discovers (or finds cached) the communicator's topology,
// sets call.problem.topology (and, for an algorithm that reads routes when call.network_path
// names a platform, call.problem.network) and asks the algorithm whether it applies; MPI_ERR_ARG
// with the reason when not. Collective on the first use of a spec or a network; every rank
// reaches the same answer.
MaybeFailure attach_topology(CommState& state, CheckedCall& call);

// When call.network_path names a platform: discovers (or finds cached) where the communicator's
// ranks run on it and sets call.problem.network (for an algorithm that reads routes, and for
// auto's cost model). Collective on the first use of a path.
MaybeFailure attach_network(CommState& state, CheckedCall& call);

}  // namespace topocoll::exec
