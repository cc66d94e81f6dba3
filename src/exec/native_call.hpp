// The MPI library's own implementation of a call (the `native` algorithm), with the user's
// arguments as they came.
#pragma once

#include <mpi.h>

#include "exec/call.hpp"

namespace topocoll::exec {

// MPI_Alltoall, MPI_Alltoallv, MPI_Alltoallw, MPI_Scatter, MPI_Gather, MPI_Scatterv or
// MPI_Gatherv, or its large-count form (MPI_Alltoall_c ...: MPI_ERR_UNSUPPORTED_OPERATION from
// an MPI library older than MPI-4); its code.
int call_native(const CallArguments& arguments);
// "MPI_Alltoall", "MPI_Alltoall_c" ...
const char* native_call_name(const CallArguments& call);

// The nonblocking form of the same call (MPI_Ialltoall ... MPI_Igatherv_c), started; its code.
int start_native(const CallArguments& arguments, MPI_Request* request);
// "MPI_Ialltoall", "MPI_Ialltoall_c" ...
const char* native_start_name(const CallArguments& call);

// The persistent form (MPI-4's MPI_Alltoall_init ... MPI_Gatherv_init), made: its code;
// MPI_ERR_UNSUPPORTED_OPERATION from an MPI library older than MPI-4.
int init_native(const CallArguments& arguments, MPI_Info info, MPI_Request* request);

}  // namespace topocoll::exec
