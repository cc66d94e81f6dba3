// The persistent collectives the drop-in answers (Open MPI's MPIX_Alltoall_init ..., MPI-4's
// MPI_Alltoall_init ... under MPICH: persistent_entry_points.cpp,
// fortran_persistent_entry_points.cpp): handles of
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

// Whether `code` lies in the MPI library's Fortran bindings (MPICH's libmpichfort or libmpifort):
// MPICH's mpi_f08 makes persistent collectives through the C entry points but starts, waits on
// and frees them with PMPI_Start, PMPI_Wait and PMPI_Request_free, past the drop-in, so a
// handle the drop-in made there would never run its collective.
bool in_fortran_bindings(const void* code);

}  // namespace topocoll::interpose
