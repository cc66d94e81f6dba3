// The executor's one error value: an MPI error class or code and a message that names the
// problem. Functions that can fail return MaybeFailure (empty on success).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace topocoll::exec {

struct Failure {
  int code = MPI_ERR_OTHER;  // an MPI error class (argument checks) or the code MPI returned
  std::string message;
};

using MaybeFailure = std::optional<Failure>;

// `text` (a name or value the caller passed) as a message quotes it: whole up to 64 characters,
// longer ones cut there, with "... (N characters)".
std::string excerpt_of(std::string_view text);

// count * size in bytes for a buffer described by `role` ("the receive count"), or
// MPI_ERR_COUNT with both numbers when the product exceeds the address space (MPI_Aint).
MaybeFailure checked_bytes(std::size_t count, std::size_t size, const std::string& role, std::size_t& bytes);

// "MPI_Isend failed: <MPI's own text for code>".
Failure mpi_call_failure(const char* call, int code);

}  // namespace topocoll::exec
