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
  // The algorithm does not apply to this call (MPI_ERR_ARG): a verdict every rank reaches
  // alike, which a caller may answer with the MPI library's own call instead of an error.
  bool inapplicable = false;
};

using MaybeFailure = std::optional<Failure>;

// `text` (a name or value the caller passed) as a message quotes it: whole up to 64 characters,
// longer ones cut there, with "... (N characters)".
std::string excerpt_of(std::string_view text);

// Whether count * size bytes fit the address space (MPI_Aint): checked_bytes' test, for a caller
// that builds checked_bytes' `role` only when it fails.
bool bytes_fit(std::size_t count, std::size_t size);

// count * size in bytes, or MPI_ERR_COUNT with both numbers when the product exceeds the
// address space (MPI_Aint). `role` names the count ("the receive count"), followed by `index`
// when it is not negative ("receive count 3"); the text is built only for the failure.
MaybeFailure checked_bytes(std::size_t count, std::size_t size, const char* role, std::size_t& bytes,
                           int index = -1);

// A message from `peer` longer (MPI_ERR_TRUNCATE, or `code`) or shorter (MPI_ERR_COUNT) than the
// bytes this rank expects: the ranks disagree on the data they exchange; the text says so.
Failure longer_message_failure(int code, int peer, std::size_t expected);
Failure shorter_message_failure(int peer, std::size_t received, std::size_t expected);

// "MPI_Isend failed: <MPI's own text for code>".
Failure mpi_call_failure(const char* call, int code);

}  // namespace topocoll::exec
