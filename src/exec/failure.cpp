// Messages for failures of MPI calls made by the library itself.
#include "exec/failure.hpp"

#include <limits>

namespace topocoll::exec {

namespace {

const char* kDisagreement =
    ": the ranks disagree on the data they exchange (each rank's count times its type's size, or the counts of "
    "MPI_Alltoallv, must match its peers')";

}  // namespace

Failure longer_message_failure(int code, int peer, std::size_t expected) {
  return Failure{code, "rank " + std::to_string(peer) + " sent a message longer than the " +
                           std::to_string(expected) + " bytes this rank expects" + kDisagreement};
}

Failure shorter_message_failure(int peer, std::size_t received, std::size_t expected) {
  if (received == 0) {
    // What a rank sends once its own call has failed (ExecutionSettings::hollow).
    return Failure{MPI_ERR_COUNT, "rank " + std::to_string(peer) + " sent an empty message where this rank expects " +
                                      std::to_string(expected) + " bytes (where that rank's own call failed, its "
                                      "error says why)" + kDisagreement};
  }
  return Failure{MPI_ERR_COUNT, "rank " + std::to_string(peer) + " sent " + std::to_string(received) +
                                    " bytes where this rank expects " + std::to_string(expected) + kDisagreement};
}

std::string excerpt_of(std::string_view text) {
  constexpr std::size_t kLongest = 64;
  if (text.size() <= kLongest) return std::string(text);
  return std::string(text.substr(0, kLongest)) + "... (" + std::to_string(text.size()) + " characters)";
}

bool bytes_fit(std::size_t count, std::size_t size) {
  constexpr auto kLargest = static_cast<std::size_t>(std::numeric_limits<MPI_Aint>::max());
  return size == 0 || count <= kLargest / size;
}

MaybeFailure checked_bytes(std::size_t count, std::size_t size, const char* role, std::size_t& bytes, int index) {
  if (!bytes_fit(count, size)) {
    const std::string named = std::string(role) + (index >= 0 ? " " + std::to_string(index) : "");
    return Failure{MPI_ERR_COUNT, named + " (" + std::to_string(count) + ") times its type's size (" +
                                      std::to_string(size) + " bytes) exceeds the address space"};
  }
  bytes = count * size;
  return std::nullopt;
}

Failure mpi_call_failure(const char* call, int code) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  return Failure{code, std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(length))};
}

}  // namespace topocoll::exec
