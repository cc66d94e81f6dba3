// The C profiling-interface entry points of libtopocoll-pmpi.so: MPI_Init and MPI_Init_thread
// (where the ranks compare their configuration), then MPI_Alltoall, MPI_Alltoallv,
// MPI_Alltoallw, MPI_Scatter, MPI_Gather, MPI_Scatterv and MPI_Gatherv. Each only describes its
// call, as the executor's CallArguments, and hands it to answer_call (interposed_call.hpp),
// which runs the algorithm its variable names (TOPOCOLL_ALLTOALL, ..., TOPOCOLL_ALLTOALLW, ...,
// TOPOCOLL_GATHERV) or hands the call to the MPI library's PMPI_ entry point.
//
// No recursion: nothing in this library calls these definitions; the executor linked into it
// reaches the PMPI_ ones (see native_calls_of_the_executor.cpp).
#include <mpi.h>

#include "exec/call.hpp"
#include "exec/call_descriptions.hpp"
#include "interpose/configuration_agreement.hpp"
#include "interpose/interposed_call.hpp"

using topocoll::Operation;
using topocoll::exec::alltoallv_call;
using topocoll::exec::alltoallw_call;
using topocoll::exec::CallArguments;
using topocoll::exec::gatherv_call;
using topocoll::exec::scatterv_call;
using topocoll::exec::uniform_call;
using topocoll::interpose::answer_call;

extern "C" {

// MPI_Init and MPI_Init_thread: the library's own, then the ranks compare their configuration
// (configuration_agreement.hpp).
int MPI_Init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) topocoll::interpose::agree_on_configuration();
  return rc;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) topocoll::interpose::agree_on_configuration();
  return rc;
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  return answer_call(uniform_call(Operation::alltoall, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0,
                                  comm),
                     "MPI_Alltoall");
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return answer_call(alltoallv_call(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                                    comm),
                     "MPI_Alltoallv");
}

int MPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                  void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                  MPI_Comm comm) {
  return answer_call(alltoallw_call(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                                    comm),
                     "MPI_Alltoallw");
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return answer_call(uniform_call(Operation::scatter, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  root, comm),
                     "MPI_Scatter");
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return answer_call(uniform_call(Operation::gather, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                                  comm),
                     "MPI_Gather");
}

int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return answer_call(scatterv_call(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm),
                     "MPI_Scatterv");
}

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return answer_call(gatherv_call(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm),
                     "MPI_Gatherv");
}

}  // extern "C"

#if MPI_VERSION >= 4
// MPI-4's large-count forms (MPICH 4 has them; Open MPI 4.1 does not): the same routes, under
// the same variables, with counts of MPI_Count and displacements of MPI_Aint.
using topocoll::exec::large_alltoallv_call;
using topocoll::exec::large_alltoallw_call;
using topocoll::exec::large_gatherv_call;
using topocoll::exec::large_scatterv_call;
using topocoll::exec::large_uniform_call;

extern "C" {

int MPI_Alltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm) {
  return answer_call(large_uniform_call(Operation::alltoall, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                        recvtype, 0, comm),
                     "MPI_Alltoall_c");
}

int MPI_Alltoallv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype,
                    void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype,
                    MPI_Comm comm) {
  return answer_call(large_alltoallv_call(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                                          recvtype, comm),
                     "MPI_Alltoallv_c");
}

int MPI_Alltoallw_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                    const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  return answer_call(large_alltoallw_call(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                                          recvtypes, comm),
                     "MPI_Alltoallw_c");
}

int MPI_Scatter_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return answer_call(large_uniform_call(Operation::scatter, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                        root, comm),
                     "MPI_Scatter_c");
}

int MPI_Gather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return answer_call(large_uniform_call(Operation::gather, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                        root, comm),
                     "MPI_Gather_c");
}

int MPI_Scatterv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype,
                   void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return answer_call(large_scatterv_call(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                                         comm),
                     "MPI_Scatterv_c");
}

int MPI_Gatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                  const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                  MPI_Comm comm) {
  return answer_call(large_gatherv_call(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                                        comm),
                     "MPI_Gatherv_c");
}

}  // extern "C"
#endif  // MPI_VERSION >= 4
