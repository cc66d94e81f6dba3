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
  // answered by the MPI library (answer_note); then as many for the nonblocking forms.
};

// The note that says who answered `operation` (`per_peer_types`: MPI_Alltoallw; `nonblocking`:
// MPI_Ialltoall ...).
constexpr Note answer_note(Operation operation, bool per_peer_types, bool by_topocoll, bool nonblocking = false) {
  constexpr auto kForms = static_cast<unsigned>(std::size(kOperations)) + 1;  // and MPI_Alltoallw
  const unsigned form = per_peer_types ? kForms - 1 : static_cast<unsigned>(operation);
  const unsigned index = form + (nonblocking ? kForms : 0u);
  return static_cast<Note>(1u << (2 + 2 * index + (by_topocoll ? 0u : 1u)));
}
static_assert(2 + 2 * 2 * (std::size(kOperations) + 1) <= 32, "the notes fit in an unsigned attribute value");

enum class Speakers { rank_zero, every_rank };

// Prints "topocoll: <text>" once per communicator and note, from the communicator's rank 0
// (of its local group for an intercommunicator) or from every rank.
void say_once(MPI_Comm comm, Note note, Speakers speakers, const std::string& text);

// "MPI_COMM_WORLD (4 ranks)", "a communicator of 2 ranks", "an intercommunicator (2 + 2 ranks)".
std::string describe_communicator(MPI_Comm comm);

}  // namespace topocoll::interpose
