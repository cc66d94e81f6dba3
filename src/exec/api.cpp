// The C++ API's entry points: each describes its call (which buffer, count, displacements
// and datatype serve as which side) and hands it to the one pipeline (collective.hpp).
#include "exec/call_descriptions.hpp"
#include "exec/collective.hpp"
#include "exec/nonblocking.hpp"
#include "topocoll/topocoll.hpp"

namespace topocoll {

namespace {

using exec::alltoallv_call;
using exec::alltoallw_call;
using exec::CallArguments;
using exec::gatherv_call;
using exec::scatterv_call;

// The blocking call (request null) or the nonblocking one.
int run_or_start(const CallArguments& call, const CollectiveOptions& options, MPI_Request* request, bool nonblocking) {
  if (!nonblocking) return exec::run_collective(call, options);
  return exec::start_collective(call, options, request, exec::StartRule::may_wait_for_peers);
}

// One count and datatype per side (alltoall, scatter, gather).
int run_uniform(Operation operation, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const CollectiveOptions& options,
                MPI_Request* request = nullptr, bool nonblocking = false) {
  return run_or_start(
      exec::uniform_call(operation, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm), options,
      request, nonblocking);
}

}  // namespace

int alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
             MPI_Datatype recvtype, MPI_Comm comm, const CollectiveOptions& options) {
  return run_uniform(Operation::alltoall, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, comm,
                     options);
}

int scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm, const CollectiveOptions& options) {
  return run_uniform(Operation::scatter, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                     options);
}

int gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm, const CollectiveOptions& options) {
  return run_uniform(Operation::gather, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                     options);
}

int alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
              const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
              const CollectiveOptions& options) {
  return exec::run_collective(
      alltoallv_call(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm), options);
}

int alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
              void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
              MPI_Comm comm, const CollectiveOptions& options) {
  return exec::run_collective(
      alltoallw_call(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm), options);
}

int scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const CollectiveOptions& options) {
  return exec::run_collective(
      scatterv_call(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm), options);
}

int gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
            const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, const CollectiveOptions& options) {
  return exec::run_collective(
      gatherv_call(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm), options);
}

// ---- nonblocking ----

int ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request, const CollectiveOptions& options) {
  return run_uniform(Operation::alltoall, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, comm,
                     options, request, true);
}

int iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
             MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request, const CollectiveOptions& options) {
  return run_uniform(Operation::scatter, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                     options, request, true);
}

int igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request, const CollectiveOptions& options) {
  return run_uniform(Operation::gather, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                     options, request, true);
}

int ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
               const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
               MPI_Request* request, const CollectiveOptions& options) {
  return run_or_start(
      alltoallv_call(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm), options,
      request, true);
}

int ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
               void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
               MPI_Comm comm, MPI_Request* request, const CollectiveOptions& options) {
  return run_or_start(
      alltoallw_call(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm), options,
      request, true);
}

int iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
              int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request,
              const CollectiveOptions& options) {
  return run_or_start(scatterv_call(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm),
                      options, request, true);
}

int igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
             const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request,
             const CollectiveOptions& options) {
  return run_or_start(gatherv_call(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm),
                      options, request, true);
}

}  // namespace topocoll
