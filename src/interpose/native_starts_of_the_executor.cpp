// Where the executor's own starts of the library's nonblocking collectives (MPI_Ialltoall ...
// MPI_Igatherv, and under MPI-4 their _c forms) go inside libtopocoll-pmpi.so: to the PMPI_
// ones, through -Wl,--wrap as for the blocking calls (native_calls_of_the_executor.cpp), since
// this library defines the MPI_ names itself (nonblocking_entry_points.cpp).
#include <mpi.h>

extern "C" {

int __wrap_MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}

int __wrap_MPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                          void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                          MPI_Comm comm, MPI_Request* request) {
  return PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request);
}

int __wrap_MPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                          const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                          const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* request) {
  return PMPI_Ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm,
                         request);
}

int __wrap_MPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}

int __wrap_MPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}

int __wrap_MPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                         void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                         MPI_Request* request) {
  return PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}

int __wrap_MPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                        MPI_Request* request) {
  return PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, request);
}

// What the executor's own calls of MPI_Start, MPI_Startall and MPI_Request_free reach (the
// library defines them for its persistent collectives: persistent_entry_points.cpp).
int __wrap_MPI_Start(MPI_Request* request) { return PMPI_Start(request); }
int __wrap_MPI_Startall(int count, MPI_Request requests[]) { return PMPI_Startall(count, requests); }
int __wrap_MPI_Request_free(MPI_Request* request) { return PMPI_Request_free(request); }

#if MPI_VERSION >= 4
int __wrap_MPI_Ialltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                           MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return PMPI_Ialltoall_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}

int __wrap_MPI_Ialltoallv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                            MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[],
                            const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return PMPI_Ialltoallv_c(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
                           request);
}

int __wrap_MPI_Ialltoallw_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                            MPI_Request* request) {
  return PMPI_Ialltoallw_c(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm,
                           request);
}

int __wrap_MPI_Iscatter_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return PMPI_Iscatter_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}

int __wrap_MPI_Igather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return PMPI_Igather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}

int __wrap_MPI_Iscatterv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                           MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                           MPI_Comm comm, MPI_Request* request) {
  return PMPI_Iscatterv_c(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}

int __wrap_MPI_Igatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                          MPI_Comm comm, MPI_Request* request) {
  return PMPI_Igatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, request);
}
#endif  // MPI_VERSION >= 4

}  // extern "C"
