// The persistent collectives the drop-in answers (Open MPI 4.1's MPIX_Alltoall_init ...:
// persistent_entry_points.cpp). A generalized request cannot be started again, so the handle the
// program holds is a persistent receive of this process from itself, on MPI_COMM_SELF's private
// duplicate, under a tag of its own: MPI_Start starts that receive and then the collective
// (answer_start: topocoll's schedule, or the library's nonblocking call where topocoll hands it
// on), and when the collective completes, the library sends itself the message that completes
// the receive. MPI_Wait and MPI_Test then work on the handle as on any persistent request, and
// leave it inactive for the next MPI_Start. Every MPI call that makes progress advances the
// collective (Open MPI's progress engine: exec/outstanding.hpp); without that engine the
// persistent forms are left to the MPI library.
//
// A collective that fails after its start completes its handle with MPI_ERR_TRUNCATE (a
// message one int longer than the receive); topocoll_error_message() names the failure.
#pragma once

#include <mpi.h>

#include "exec/call.hpp"

namespace topocoll::interpose {

// Makes the program's handle for `call` (whose arrays MPI says stay valid and unchanged while the
// handle lives). `entry_point` names the call in verbose lines.
int make_persistent(const exec::CallArguments& call, const char* entry_point, MPI_Request* request);

// MPI_Start, MPI_Startall and MPI_Request_free, C's and Fortran's: the handles make_persistent
// made are answered here, every other request goes to the library (PMPI_Start,
// PMPI_Request_free). MPI_Startall starts each in order and returns the first failure's code
// (MPI leaves the order unspecified).
int start_persistent(MPI_Request* request);
int start_all_persistent(int count, MPI_Request requests[]);
int free_persistent(MPI_Request* request);

}  // namespace topocoll::interpose
