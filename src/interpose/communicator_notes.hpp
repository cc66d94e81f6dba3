// Messages on standard error that must be said once per communicator, not once per call:
// which algorithm answered an operation (TOPOCOLL_VERBOSE=1), and configuration errors.
// What was already said is remembered on the communicator itself, in an attribute whose
// value is a set of bits (no allocation, nothing to free; a duplicate starts afresh).
#pragma once

#include <mpi.h>

#include <string>

namespace topocoll::interpose {

enum class Note : unsigned {
  alltoall_by_topocoll = 1u << 0,
  alltoall_by_mpi = 1u << 1,
  alltoallv_by_mpi = 1u << 2,
  configuration_error = 1u << 3,
  internal_error = 1u << 4,
  alltoallv_by_topocoll = 1u << 5,
};

enum class Speakers { rank_zero, every_rank };

// Prints "topocoll: <text>" once per communicator and note, from the communicator's rank 0
// (of its local group for an intercommunicator) or from every rank.
void say_once(MPI_Comm comm, Note note, Speakers speakers, const std::string& text);

// "MPI_COMM_WORLD (4 ranks)", "a communicator of 2 ranks", "an intercommunicator (2 + 2 ranks)".
std::string describe_communicator(MPI_Comm comm);

}  // namespace topocoll::interpose
