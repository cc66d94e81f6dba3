// Where the executor's own MPI_Alltoall and MPI_Alltoallv calls go inside libtopocoll-pmpi.so.
//
// The executor (linked in from the topocoll archive) calls MPI_Alltoall for `native`, and may
// call it for the flat parts of future hierarchical algorithms. Left alone, those calls would
// bind to this library's exported MPI_Alltoall and run topocoll again, with no end for
// `native`. The library is linked with -Wl,--wrap=MPI_Alltoall,--wrap=MPI_Alltoallv: every
// reference to those names in the linked-in archives then binds to the __wrap_ functions
// below, which are the MPI library's own implementations. The definitions in
// mpi_entry_points.cpp are definitions, not references, so they keep their names and stay the
// library's only exports (exports.map).
#include <mpi.h>

extern "C" {

int __wrap_MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm) {
  return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int __wrap_MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                         void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                         MPI_Comm comm) {
  return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}

}  // extern "C"
