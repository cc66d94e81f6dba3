// The C++ API's entry points: each describes its call (which buffer, count, displacements
// and datatype serve as which side) and hands it to the one pipeline (collective.hpp).
#include "exec/collective.hpp"
#include "exec/nonblocking.hpp"
#include "topocoll/topocoll.hpp"

namespace topocoll {

namespace {

using exec::CallArguments;
using exec::SideArguments;

// The blocking call (request null) or the nonblocking one.
int run_or_start(const CallArguments& call, const CollectiveOptions& options, MPI_Request* request, bool nonblocking) {
  if (!nonblocking) return exec::run_collective(call, options);
  return exec::start_collective(call, options, request, exec::StartRule::may_wait_for_peers);
}

// One count and datatype per side (alltoall, scatter, gather).
int run_uniform(Operation operation, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const CollectiveOptions& options,
                MPI_Request* request = nullptr, bool nonblocking = false) {
  const CallArguments call{operation, SideArguments{sendbuf, sendcount, nullptr, nullptr, sendtype},
                           SideArguments{recvbuf, recvcount, nullptr, nullptr, recvtype}, root, comm};
  return run_or_start(call, options, request, nonblocking);
}

CallArguments alltoallv_call(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                             void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                             MPI_Comm comm) {
  return CallArguments{Operation::alltoallv, SideArguments{sendbuf, 0, sendcounts, sdispls, sendtype},
                       SideArguments{recvbuf, 0, recvcounts, rdispls, recvtype}, 0, comm};
}

CallArguments alltoallw_call(const void* sendbuf, const int sendcounts[], const int sdispls[],
                             const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                             const MPI_Datatype recvtypes[], MPI_Comm comm) {
  CallArguments call{Operation::alltoallv, SideArguments{sendbuf, 0, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes},
                     SideArguments{recvbuf, 0, recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes}, 0, comm};
  call.per_peer_types = true;
  return call;
}

CallArguments scatterv_call(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return CallArguments{Operation::scatterv, SideArguments{sendbuf, 0, sendcounts, displs, sendtype},
                       SideArguments{recvbuf, recvcount, nullptr, nullptr, recvtype}, root, comm};
}

CallArguments gatherv_call(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                           const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return CallArguments{Operation::gatherv, SideArguments{sendbuf, sendcount, nullptr, nullptr, sendtype},
                       SideArguments{recvbuf, 0, recvcounts, displs, recvtype}, root, comm};
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
