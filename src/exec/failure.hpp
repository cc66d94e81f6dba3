// The executor's one error value: an MPI error class or code and a message that names the
// problem. Functions that can fail return MaybeFailure (empty on success).
#pragma once

#include <mpi.h>

#include <optional>
#include <string>

namespace topocoll::exec {

struct Failure {
  int code = MPI_ERR_OTHER;  // an MPI error class (argument checks) or the code MPI returned
  std::string message;
};

using MaybeFailure = std::optional<Failure>;

// "MPI_Isend failed: <MPI's own text for code>".
Failure mpi_call_failure(const char* call, int code);

}  // namespace topocoll::exec
