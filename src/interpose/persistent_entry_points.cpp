// The drop-in's persistent collectives, where the MPI library has them: Open MPI 4.1's
// MPIX_Alltoall_init ... MPIX_Gatherv_init (its pcollreq extension), or MPI-4's MPI_Alltoall_init
// ... MPI_Gatherv_init (MPICH 4), under the blocking calls' variables; and MPI_Start,
// MPI_Startall and MPI_Request_free, which run or free the handles made here and hand every other
// request to the library (persistent_collectives.hpp).
#include <mpi.h>

#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

// The entry points' names, and their PMPI_ forms, in the library's family.
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
#define TOPOCOLL_PERSISTENT 1
#define PERSISTENT_CALL(op) MPIX_##op##_init
#define PERSISTENT_PMPI(op) PMPIX_##op##_init
#define PERSISTENT_NAME(op) "MPIX_" #op "_init"
#define PERSISTENT_FROM_FORTRAN false  // Open MPI's Fortran persistent forms have entry points of their own
#elif MPI_VERSION >= 4 && !(defined(OPEN_MPI) && OPEN_MPI)
#define TOPOCOLL_PERSISTENT 1
#define PERSISTENT_CALL(op) MPI_##op##_init
#define PERSISTENT_PMPI(op) PMPI_##op##_init
#define PERSISTENT_NAME(op) "MPI_" #op "_init"
#define PERSISTENT_FROM_FORTRAN in_fortran_bindings(__builtin_return_address(0))  // MPICH's call these
#endif

#if defined(TOPOCOLL_PERSISTENT)

#include "exec/call_descriptions.hpp"
#include "exec/persistent_requests.hpp"
#include "interpose/interposed_call.hpp"
#include "interpose/persistent_collectives.hpp"

using topocoll::Operation;
using topocoll::exec::alltoallv_call;
using topocoll::exec::alltoallw_call;
using topocoll::exec::CallArguments;
using topocoll::exec::free_persistent;
using topocoll::exec::gatherv_call;
using topocoll::exec::scatterv_call;
using topocoll::exec::start_all_persistent;
using topocoll::exec::start_persistent;
using topocoll::exec::uniform_call;
using topocoll::interpose::in_fortran_bindings;
using topocoll::interpose::make_persistent;
using topocoll::interpose::persistent_by_topocoll;

extern "C" {

int PERSISTENT_CALL(Alltoall)(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const CallArguments call =
      uniform_call(Operation::alltoall, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, comm);
  if (!persistent_by_topocoll(call, PERSISTENT_NAME(Alltoall), PERSISTENT_FROM_FORTRAN)) {
    return PERSISTENT_PMPI(Alltoall)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request);
  }
  return make_persistent(call, PERSISTENT_NAME(Alltoall), request);
}

int PERSISTENT_CALL(Alltoallv)(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                               void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const CallArguments call =
      alltoallv_call(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  if (!persistent_by_topocoll(call, PERSISTENT_NAME(Alltoallv), PERSISTENT_FROM_FORTRAN)) {
    return PERSISTENT_PMPI(Alltoallv)(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                                      comm, info, request);
  }
  return make_persistent(call, PERSISTENT_NAME(Alltoallv), request);
}

int PERSISTENT_CALL(Alltoallw)(const void* sendbuf, const int sendcounts[], const int sdispls[],
                               const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                               const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                               MPI_Request* request) {
  const CallArguments call =
      alltoallw_call(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
  if (!persistent_by_topocoll(call, PERSISTENT_NAME(Alltoallw), PERSISTENT_FROM_FORTRAN)) {
    return PERSISTENT_PMPI(Alltoallw)(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                                      comm, info, request);
  }
  return make_persistent(call, PERSISTENT_NAME(Alltoallw), request);
}

int PERSISTENT_CALL(Scatter)(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                             MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const CallArguments call =
      uniform_call(Operation::scatter, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  if (!persistent_by_topocoll(call, PERSISTENT_NAME(Scatter), PERSISTENT_FROM_FORTRAN)) {
    return PERSISTENT_PMPI(Scatter)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info,
                                    request);
  }
  return make_persistent(call, PERSISTENT_NAME(Scatter), request);
}

int PERSISTENT_CALL(Gather)(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const CallArguments call =
      uniform_call(Operation::gather, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  if (!persistent_by_topocoll(call, PERSISTENT_NAME(Gather), PERSISTENT_FROM_FORTRAN)) {
    return PERSISTENT_PMPI(Gather)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info,
                                   request);
  }
  return make_persistent(call, PERSISTENT_NAME(Gather), request);
}

int PERSISTENT_CALL(Scatterv)(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                              void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                              MPI_Info info, MPI_Request* request) {
  const CallArguments call =
      scatterv_call(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  if (!persistent_by_topocoll(call, PERSISTENT_NAME(Scatterv), PERSISTENT_FROM_FORTRAN)) {
    return PERSISTENT_PMPI(Scatterv)(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
                                     info, request);
  }
  return make_persistent(call, PERSISTENT_NAME(Scatterv), request);
}

int PERSISTENT_CALL(Gatherv)(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                             MPI_Info info, MPI_Request* request) {
  const CallArguments call =
      gatherv_call(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  if (!persistent_by_topocoll(call, PERSISTENT_NAME(Gatherv), PERSISTENT_FROM_FORTRAN)) {
    return PERSISTENT_PMPI(Gatherv)(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
                                    info, request);
  }
  return make_persistent(call, PERSISTENT_NAME(Gatherv), request);
}

int MPI_Start(MPI_Request* request) { return start_persistent(request); }

int MPI_Startall(int count, MPI_Request requests[]) { return start_all_persistent(count, requests); }

int MPI_Request_free(MPI_Request* request) { return free_persistent(request); }

}  // extern "C"

#endif  // TOPOCOLL_PERSISTENT
