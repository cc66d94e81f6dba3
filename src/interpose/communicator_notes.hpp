// Messages on standard error that must be said once per communicator, not once per call:
// which algorithm answered an operation (TOPOCOLL_VERBOSE=1), and configuration errors.
// What was already said is remembered on the communicator itself, in an attribute whose
// value is a set of bits (no allocation, nothing to free; a duplicate starts afresh).
#pragma once

#include <mpi.h>

#include <iterator>
#include <string>

#include "schedule/operation.hpp"

namespace topocoll::interpose {

enum class Note : unsigned {
  configuration_error = 1u << 0,
  internal_error = 1u << 1,
  // Then two bits per operation, and two for MPI_Alltoallw after them: answered by topocoll,
  // answered by the MPI library (answer_note).
};

// The note that says who answered `operation` (`per_peer_types`: MPI_Alltoallw).
constexpr Note answer_note(Operation operation, bool per_peer_types, bool by_topocoll) {
  const unsigned index = per_peer_types ? static_cast<unsigned>(std::size(kOperations)) : static_cast<unsigned>(operation);
  return static_cast<Note>(1u << (2 + 2 * index + (by_topocoll ? 0u : 1u)));
}

enum class Speakers { rank_zero, every_rank };

// Prints "topocoll: <text>" once per communicator and note, from the communicator's rank 0
// (of its local group for an intercommunicator) or from every rank.
void say_once(MPI_Comm comm, Note note, Speakers speakers, const std::string& text);

// "MPI_COMM_WORLD (4 ranks)", "a communicator of 2 ranks", "an intercommunicator (2 + 2 ranks)".
std::string describe_communicator(MPI_Comm comm);

}  // namespace topocoll::interpose
