// The drop-in's persistent collectives, where the MPI library has them and a progress engine
// topocoll can hook: Open MPI 4.1's MPIX_Alltoall_init ... MPIX_Gatherv_init (its pcollreq
// extension; MPI-4's MPI_Alltoall_init ... elsewhere are left to the library), under the blocking
// calls' variables; and MPI_Start, MPI_Startall and MPI_Request_free, which run or free the
// handles made here and hand every other request to the library (persistent_collectives.hpp).
#include <mpi.h>

#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)

#include "exec/call_descriptions.hpp"
#include "interpose/interposed_call.hpp"
#include "exec/persistent_requests.hpp"
#include "interpose/persistent_collectives.hpp"

using topocoll::Operation;
using topocoll::exec::alltoallv_call;
using topocoll::exec::alltoallw_call;
using topocoll::exec::CallArguments;
using topocoll::exec::gatherv_call;
using topocoll::exec::scatterv_call;
using topocoll::exec::uniform_call;
using topocoll::exec::free_persistent;
using topocoll::exec::start_all_persistent;
using topocoll::exec::start_persistent;
using topocoll::interpose::make_persistent;
using topocoll::interpose::persistent_by_topocoll;

extern "C" {

int MPIX_Alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const CallArguments call =
      uniform_call(Operation::alltoall, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, comm);
  if (!persistent_by_topocoll(call, "MPIX_Alltoall_init")) {
    return PMPIX_Alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request);
  }
  return make_persistent(call, "MPIX_Alltoall_init", request);
}

int MPIX_Alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                        void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                        MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const CallArguments call =
      alltoallv_call(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  if (!persistent_by_topocoll(call, "MPIX_Alltoallv_init")) {
    return PMPIX_Alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
                                info, request);
  }
  return make_persistent(call, "MPIX_Alltoallv_init", request);
}

int MPIX_Alltoallw_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                        const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const CallArguments call =
      alltoallw_call(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
  if (!persistent_by_topocoll(call, "MPIX_Alltoallw_init")) {
    return PMPIX_Alltoallw_init(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm,
                                info, request);
  }
  return make_persistent(call, "MPIX_Alltoallw_init", request);
}

int MPIX_Scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const CallArguments call =
      uniform_call(Operation::scatter, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  if (!persistent_by_topocoll(call, "MPIX_Scatter_init")) {
    return PMPIX_Scatter_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info, request);
  }
  return make_persistent(call, "MPIX_Scatter_init", request);
}

int MPIX_Gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const CallArguments call =
      uniform_call(Operation::gather, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  if (!persistent_by_topocoll(call, "MPIX_Gather_init")) {
    return PMPIX_Gather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info, request);
  }
  return make_persistent(call, "MPIX_Gather_init", request);
}

int MPIX_Scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                       void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request* request) {
  const CallArguments call =
      scatterv_call(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  if (!persistent_by_topocoll(call, "MPIX_Scatterv_init")) {
    return PMPIX_Scatterv_init(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, info,
                               request);
  }
  return make_persistent(call, "MPIX_Scatterv_init", request);
}

int MPIX_Gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                      const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request* request) {
  const CallArguments call =
      gatherv_call(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  if (!persistent_by_topocoll(call, "MPIX_Gatherv_init")) {
    return PMPIX_Gatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, info,
                              request);
  }
  return make_persistent(call, "MPIX_Gatherv_init", request);
}

int MPI_Start(MPI_Request* request) { return start_persistent(request); }

int MPI_Startall(int count, MPI_Request requests[]) { return start_all_persistent(count, requests); }

int MPI_Request_free(MPI_Request* request) { return free_persistent(request); }

}  // extern "C"

#endif  // OMPI_HAVE_MPI_EXT_PCOLLREQ
