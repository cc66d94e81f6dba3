// Persistent collectives (MPI-4's MPI_Alltoall_init ... semantics), for the API
// (topocoll::alltoall_init ..., api.cpp) and the drop-in (Open MPI's MPIX_Alltoall_init ...,
// interpose/persistent_collectives.hpp). A generalized request cannot be started again, so the
// handle the program holds is a persistent receive of this process from itself, on
// MPI_COMM_SELF's private duplicate, under a tag of its own: a start starts that receive and then
// the collective (`start`: topocoll's nonblocking call, or the library's where topocoll hands the
// start on), and when the collective completes, this process sends itself the message that
// completes the receive. MPI_Wait and MPI_Test then work on the handle as on any persistent
// request, and leave it inactive for the next start. Every MPI call that makes progress must
// advance the collective (Open MPI's progress engine: outstanding.hpp,
// progress_from_every_call; or, in the drop-in, its completion calls, which advance topocoll's
// collectives before they test: interpose/completion_entry_points.cpp): the makers check it.
//
// A run that fails completes its handle with a message one int longer than the receive:
// MPI_ERR_TRUNCATE from the wait where the MPI library reports a truncated message a process
// sent itself (MPICH); Open MPI 4.1 does not, and its wait returns MPI_SUCCESS. A failure at the
// start is the start's error; one on the way is raised, as a nonblocking call's is, when the run
// completes (Open MPI: on MPI_COMM_WORLD's error handler); topocoll_error_message() names it.
#pragma once

#include <mpi.h>

#include <functional>

namespace topocoll::exec {

// Starts one run of the collective: MPI_SUCCESS and *request its nonblocking request, or an
// error code (already reported).
using PersistentStart = std::function<int(MPI_Request* request)>;

// Makes the program's handle for a collective on `comm` that `start` runs at each start.
// `label` ("MPIX_Alltoall_init", "alltoall_init") names it in messages; it must outlive the
// handle.
int make_persistent(MPI_Comm comm, const char* label, PersistentStart start, MPI_Request* request);

// MPI_Start, MPI_Startall and MPI_Request_free: the handles make_persistent made are answered
// here, every other request goes to MPI_Start and MPI_Request_free (the library's: the drop-in
// links these to PMPI_Start and PMPI_Request_free). MPI_Startall starts each in order and returns
// the first failure's code (MPI leaves the order unspecified); a negative count is the library's
// to report.
int start_persistent(MPI_Request* request);
int start_all_persistent(int count, MPI_Request requests[]);
int free_persistent(MPI_Request* request);

}  // namespace topocoll::exec
