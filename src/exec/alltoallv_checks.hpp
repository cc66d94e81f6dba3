// Every check of an alltoallv call, local and done before any buffer is touched, and the byte
// layouts of its two sides.
#pragma once

#include <mpi.h>

#include "exec/alltoall_checks.hpp"
#include "exec/block_view.hpp"

namespace topocoll::exec {

struct AlltoallvArguments {
  const void* sendbuf = nullptr;
  const int* sendcounts = nullptr;
  const int* sdispls = nullptr;
  MPI_Datatype sendtype = MPI_DATATYPE_NULL;
  void* recvbuf = nullptr;
  const int* recvcounts = nullptr;
  const int* rdispls = nullptr;
  MPI_Datatype recvtype = MPI_DATATYPE_NULL;
  MPI_Comm comm = MPI_COMM_NULL;
};

struct CheckedAlltoallv {
  CheckedAlltoall common;  // algorithm, layouts, in_place, settings, problem (size, knobs)
  SideLayout send;         // with MPI_IN_PLACE: the receive side's blocks, staged
  SideLayout recv;
  int rank = 0;
};

// Error classes as for alltoall, plus MPI_ERR_ARG for null count or displacement arrays,
// negative displacements and overlapping receive blocks.
MaybeFailure check_alltoallv(const AlltoallvArguments& arguments, const AlltoallOptions& options,
                             CheckedAlltoallv& checked);

}  // namespace topocoll::exec
