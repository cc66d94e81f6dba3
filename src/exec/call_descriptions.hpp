// A call's arguments as the executor sees them (CallArguments), from the MPI signature of each
// operation: one place that says which buffer, count, displacements and datatype serve as which
// side, for the API, the drop-in's C entry points and their nonblocking forms.
#pragma once

#include <mpi.h>

#include "exec/call.hpp"

namespace topocoll::exec {

// MPI_Alltoall, MPI_Scatter and MPI_Gather (`root` unused by alltoall).
inline CallArguments uniform_call(Operation operation, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return CallArguments{operation, SideArguments{sendbuf, sendcount, nullptr, nullptr, sendtype},
                       SideArguments{recvbuf, recvcount, nullptr, nullptr, recvtype}, root, comm};
}

inline CallArguments alltoallv_call(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                    MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                                    MPI_Datatype recvtype, MPI_Comm comm) {
  return CallArguments{Operation::alltoallv, SideArguments{sendbuf, 0, sendcounts, sdispls, sendtype},
                       SideArguments{recvbuf, 0, recvcounts, rdispls, recvtype}, 0, comm};
}

inline CallArguments alltoallw_call(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                    const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  CallArguments call{Operation::alltoallv, SideArguments{sendbuf, 0, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes},
                     SideArguments{recvbuf, 0, recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes}, 0, comm};
  call.per_peer_types = true;
  return call;
}

inline CallArguments scatterv_call(const void* sendbuf, const int sendcounts[], const int displs[],
                                   MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                   int root, MPI_Comm comm) {
  return CallArguments{Operation::scatterv, SideArguments{sendbuf, 0, sendcounts, displs, sendtype},
                       SideArguments{recvbuf, recvcount, nullptr, nullptr, recvtype}, root, comm};
}

inline CallArguments gatherv_call(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                                  MPI_Comm comm) {
  return CallArguments{Operation::gatherv, SideArguments{sendbuf, sendcount, nullptr, nullptr, sendtype},
                       SideArguments{recvbuf, 0, recvcounts, displs, recvtype}, root, comm};
}

// The MPI-4 large-count forms (MPI_Alltoall_c ...): counts of MPI_Count, displacements of MPI_Aint.
inline CallArguments large_uniform_call(Operation operation, const void* sendbuf, MPI_Count sendcount,
                                        MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount,
                                        MPI_Datatype recvtype, int root, MPI_Comm comm) {
  CallArguments call{operation, SideArguments{sendbuf, sendcount, nullptr, nullptr, sendtype},
                     SideArguments{recvbuf, recvcount, nullptr, nullptr, recvtype}, root, comm};
  call.large_counts = true;
  return call;
}

inline CallArguments large_alltoallv_call(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                          MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[],
                                          const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  CallArguments call{Operation::alltoallv,
                     SideArguments{sendbuf, 0, nullptr, nullptr, sendtype, nullptr, sendcounts, sdispls},
                     SideArguments{recvbuf, 0, nullptr, nullptr, recvtype, nullptr, recvcounts, rdispls}, 0, comm};
  call.large_counts = true;
  return call;
}

inline CallArguments large_alltoallw_call(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                          const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                                          const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  CallArguments call{Operation::alltoallv,
                     SideArguments{sendbuf, 0, nullptr, nullptr, MPI_DATATYPE_NULL, sendtypes, sendcounts, sdispls},
                     SideArguments{recvbuf, 0, nullptr, nullptr, MPI_DATATYPE_NULL, recvtypes, recvcounts, rdispls}, 0,
                     comm};
  call.per_peer_types = true;
  call.large_counts = true;
  return call;
}

inline CallArguments large_scatterv_call(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                                         MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount,
                                         MPI_Datatype recvtype, int root, MPI_Comm comm) {
  CallArguments call{Operation::scatterv,
                     SideArguments{sendbuf, 0, nullptr, nullptr, sendtype, nullptr, sendcounts, displs},
                     SideArguments{recvbuf, recvcount, nullptr, nullptr, recvtype}, root, comm};
  call.large_counts = true;
  return call;
}

inline CallArguments large_gatherv_call(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                                        const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                        int root, MPI_Comm comm) {
  CallArguments call{Operation::gatherv, SideArguments{sendbuf, sendcount, nullptr, nullptr, sendtype},
                     SideArguments{recvbuf, 0, nullptr, nullptr, recvtype, nullptr, recvcounts, displs}, root, comm};
  call.large_counts = true;
  return call;
}

}  // namespace topocoll::exec
