// The persistent collectives the drop-in answers (Open MPI's MPIX_Alltoall_init ...:
// persistent_entry_points.cpp, fortran_persistent_entry_points.cpp): handles of
// exec/persistent_requests.hpp whose every start goes the nonblocking calls' way (answer_start:
// topocoll's schedule, or the library's nonblocking call where topocoll hands that start on).
// MPI_Start, MPI_Startall and MPI_Request_free answer them (exec::start_persistent ...).
#pragma once

#include <mpi.h>

#include "exec/call.hpp"

namespace topocoll::interpose {

// Makes the program's handle for `call` (whose arrays MPI says stay valid and unchanged while the
// handle lives). `entry_point` names the call in verbose lines; it must outlive the handle (a
// string literal).
int make_persistent(const exec::CallArguments& call, const char* entry_point, MPI_Request* request);

}  // namespace topocoll::interpose
