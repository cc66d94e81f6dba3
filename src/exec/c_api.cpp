// The C API: thin wrappers over the C++ one that never let an exception cross into C.
#include <new>

#include "exec/error_report.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

extern "C" int topocoll_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const char* algorithm) {
  try {
    topocoll::AlltoallOptions options;
    if (algorithm != nullptr) options.algorithm = algorithm;
    return topocoll::alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, options);
  } catch (const std::bad_alloc&) {
    return topocoll::exec::report_failure(comm, {MPI_ERR_NO_MEM, "alltoall: out of memory"});
  }
}

extern "C" int topocoll_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                  MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                                  MPI_Datatype recvtype, MPI_Comm comm, const char* algorithm) {
  try {
    topocoll::AlltoallOptions options;
    if (algorithm != nullptr) options.algorithm = algorithm;
    return topocoll::alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
                               options);
  } catch (const std::bad_alloc&) {
    return topocoll::exec::report_failure(comm, {MPI_ERR_NO_MEM, "alltoallv: out of memory"});
  }
}

extern "C" const char* topocoll_error_message(void) { return topocoll::exec::last_error_message(); }
