// The one error policy of the public API: a Failure becomes the thread's last error message
// (topocoll_error_message()), is printed on stderr as "topocoll: ..." unless the handler is
// MPI_ERRORS_RETURN, and is raised through the communicator's error handler (MPI_COMM_WORLD's
// when the communicator is MPI_COMM_NULL, as MPI does for errors without a communicator).
#pragma once

#include <mpi.h>

#include "exec/failure.hpp"

namespace topocoll::exec {

// Returns failure.code after the handler returned (it may also abort).
int report_failure(MPI_Comm comm, const Failure& failure);

// Records the message only; for errors MPI itself already raised on the user's communicator.
void record_failure(const Failure& failure);

// Whether `comm`'s error handler is MPI_ERRORS_RETURN (the program takes codes, and nothing is
// printed for it).
bool handler_returns(MPI_Comm comm);

// This thread's last error message, "" when none or when MPI is not running.
const char* last_error_message();

}  // namespace topocoll::exec
