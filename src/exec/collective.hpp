// The one path every collective call takes, whatever the operation:
//   check the arguments -> (native: the MPI library's own call) -> resolve auto -> attach the
//   topology -> find the plan in the cache, or build it (the v forms first learn the block
//   sizes their algorithm asks for) -> stage the buffers -> execute -> unstage.
// The API's entry points (api.cpp) only describe the call.
#pragma once

#include "exec/algorithm_setup.hpp"
#include "exec/call.hpp"
#include "topocoll/topocoll.hpp"

namespace topocoll::exec {

// MPI_SUCCESS, or an MPI error code after the communicator's error handler was invoked (the
// message is the thread's last error: topocoll_error_message()).
// `defaults`: what an empty options.topology, calibration or network means; null: the
// environment, read now.
int run_collective(const CallArguments& arguments, const CollectiveOptions& options,
                   const EnvironmentDefaults* defaults = nullptr);

}  // namespace topocoll::exec
