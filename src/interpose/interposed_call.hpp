// The one path every interposed entry point takes, C and Fortran alike: the configured
// algorithm through topocoll's executor, or the MPI library's own call (its PMPI_ entry point)
// where `native` is asked for, where the communicator is an intercommunicator, or where the
// algorithm does not apply to the call; TOPOCOLL_VERBOSE says which, once per communicator.
#pragma once

#include "exec/call.hpp"

namespace topocoll::interpose {

// `call` holds the caller's arguments as C handles (MPI_IN_PLACE and MPI_BOTTOM already C's).
// `entry_point` names what the program called, for the verbose lines ("MPI_Alltoall",
// "MPI_ALLTOALL (Fortran)"). Never throws; returns the MPI code the program gets.
int answer_call(const exec::CallArguments& call, const char* entry_point);

// The nonblocking forms (MPI_Ialltoall ...): the same variables and routes; *request the
// program's handle. topocoll answers only a call whose start waits for no other rank
// (exec::StartRule::never_waits); TOPOCOLL_VERBOSE says why another goes to the MPI library.
int answer_start(const exec::CallArguments& call, MPI_Request* request, const char* entry_point);

// Whether the persistent form of `call` (MPIX_Alltoall_init ..., MPI_Alltoall_init ...) is
// topocoll's to answer (persistent_collectives.hpp): the configuration agreed, the operation's
// variable not `native`, an intracommunicator, and under Open MPI its progress engine hooked
// (exec::progress_from_every_call; elsewhere the drop-in's completion calls advance). When
// not, TOPOCOLL_VERBOSE says so and the MPI library's own persistent call answers; when so, each
// MPI_Start goes the nonblocking way (answer_start), which may still hand a start on.
// `from_fortran_bindings`: the MPI library's Fortran bindings called the C entry point (MPICH):
// a handle made from there stays the library's (persistent_collectives.hpp, in_fortran_bindings).
bool persistent_by_topocoll(const exec::CallArguments& call, const char* entry_point,
                            bool from_fortran_bindings = false);

}  // namespace topocoll::interpose
