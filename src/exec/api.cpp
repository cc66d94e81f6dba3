// The C++ API's entry points: each describes its call (which buffer, count, displacements
// and datatype serve as which side) and hands it to the one pipeline (collective.hpp).
#include "exec/collective.hpp"
#include "topocoll/topocoll.hpp"

namespace topocoll {

namespace {

using exec::CallArguments;
using exec::SideArguments;

// One count and datatype per side (alltoall, scatter, gather).
int run_uniform(Operation operation, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const CollectiveOptions& options) {
  const CallArguments call{operation, SideArguments{sendbuf, sendcount, nullptr, nullptr, sendtype},
                           SideArguments{recvbuf, recvcount, nullptr, nullptr, recvtype}, root, comm};
  return exec::run_collective(call, options);
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
  const CallArguments call{Operation::alltoallv, SideArguments{sendbuf, 0, sendcounts, sdispls, sendtype},
                           SideArguments{recvbuf, 0, recvcounts, rdispls, recvtype}, 0, comm};
  return exec::run_collective(call, options);
}

int alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
              void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
              MPI_Comm comm, const CollectiveOptions& options) {
  CallArguments call{Operation::alltoallv, SideArguments{sendbuf, 0, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes},
                     SideArguments{recvbuf, 0, recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes}, 0, comm};
  call.per_peer_types = true;
  return exec::run_collective(call, options);
}

int scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const CollectiveOptions& options) {
  const CallArguments call{Operation::scatterv, SideArguments{sendbuf, 0, sendcounts, displs, sendtype},
                           SideArguments{recvbuf, recvcount, nullptr, nullptr, recvtype}, root, comm};
  return exec::run_collective(call, options);
}

int gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
            const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, const CollectiveOptions& options) {
  const CallArguments call{Operation::gatherv, SideArguments{sendbuf, sendcount, nullptr, nullptr, sendtype},
                           SideArguments{recvbuf, 0, recvcounts, displs, recvtype}, root, comm};
  return exec::run_collective(call, options);
}

}  // namespace topocoll
