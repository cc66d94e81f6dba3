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

// MPI_Start and MPI_Request_free of a handle make_persistent made: true when `request` is one
// (`rc` then holds the code), false for any other request (the caller hands it to the library).
bool start_if_persistent(MPI_Request* request, int& rc);
bool free_if_persistent(MPI_Request* request, int& rc);

}  // namespace topocoll::interpose
