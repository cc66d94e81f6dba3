// The drop-in's nonblocking C entry points: MPI_Ialltoall, MPI_Ialltoallv, MPI_Ialltoallw,
// MPI_Iscatter, MPI_Igather, MPI_Iscatterv and MPI_Igatherv (and under MPI-4 their large-count
// _c forms), under the same variables as the blocking calls (TOPOCOLL_ALLTOALL covers
// MPI_Alltoall and MPI_Ialltoall). Each describes its call and hands it to answer_start
// (interposed_call.hpp). Not recursive: the executor reaches the PMPI_ forms
// (native_starts_of_the_executor.cpp).
#include <mpi.h>

#include "exec/call_descriptions.hpp"
#include "interpose/interposed_call.hpp"

using topocoll::Operation;
using topocoll::exec::alltoallv_call;
using topocoll::exec::alltoallw_call;
using topocoll::exec::gatherv_call;
using topocoll::exec::scatterv_call;
using topocoll::exec::uniform_call;
using topocoll::interpose::answer_start;

extern "C" {

int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return answer_start(
      uniform_call(Operation::alltoall, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, comm), request,
      "MPI_Ialltoall");
}

int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                   MPI_Request* request) {
  return answer_start(
      alltoallv_call(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm), request,
      "MPI_Ialltoallv");
}

int MPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm, MPI_Request* request) {
  return answer_start(
      alltoallw_call(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm), request,
      "MPI_Ialltoallw");
}

int MPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return answer_start(
      uniform_call(Operation::scatter, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm), request,
      "MPI_Iscatter");
}

int MPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return answer_start(
      uniform_call(Operation::gather, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm), request,
      "MPI_Igather");
}

int MPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return answer_start(scatterv_call(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm),
                      request, "MPI_Iscatterv");
}

int MPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return answer_start(gatherv_call(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm),
                      request, "MPI_Igatherv");
}

}  // extern "C"

#if MPI_VERSION >= 4
using topocoll::exec::large_alltoallv_call;
using topocoll::exec::large_alltoallw_call;
using topocoll::exec::large_gatherv_call;
using topocoll::exec::large_scatterv_call;
using topocoll::exec::large_uniform_call;

extern "C" {

int MPI_Ialltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return answer_start(
      large_uniform_call(Operation::alltoall, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, comm),
      request, "MPI_Ialltoall_c");
}

int MPI_Ialltoallv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype,
                     void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request* request) {
  return answer_start(
      large_alltoallv_call(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm),
      request, "MPI_Ialltoallv_c");
}

int MPI_Ialltoallw_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* request) {
  return answer_start(
      large_alltoallw_call(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm),
      request, "MPI_Ialltoallw_c");
}

int MPI_Iscatter_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return answer_start(
      large_uniform_call(Operation::scatter, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm),
      request, "MPI_Iscatter_c");
}

int MPI_Igather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return answer_start(
      large_uniform_call(Operation::gather, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm),
      request, "MPI_Igather_c");
}

int MPI_Iscatterv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype,
                    void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    MPI_Request* request) {
  return answer_start(
      large_scatterv_call(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm), request,
      "MPI_Iscatterv_c");
}

int MPI_Igatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                   MPI_Comm comm, MPI_Request* request) {
  return answer_start(
      large_gatherv_call(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm), request,
      "MPI_Igatherv_c");
}

}  // extern "C"
#endif  // MPI_VERSION >= 4
