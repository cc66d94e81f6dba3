// Every check of an alltoall call, done before any buffer is touched and before any
// communication (all of it local), and what the checks learn: the algorithm, the datatype
// layouts, the block size and the problem to build a schedule for.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>

#include "algorithms/problem.hpp"
#include "algorithms/registry.hpp"
#include "exec/datatype_layout.hpp"
#include "exec/executor.hpp"
#include "exec/failure.hpp"
#include "topocoll/topocoll.hpp"

namespace topocoll::exec {

struct AlltoallArguments {
  const void* sendbuf = nullptr;
  int sendcount = 0;
  MPI_Datatype sendtype = MPI_DATATYPE_NULL;
  void* recvbuf = nullptr;
  int recvcount = 0;
  MPI_Datatype recvtype = MPI_DATATYPE_NULL;
  MPI_Comm comm = MPI_COMM_NULL;
};

struct CheckedAlltoall {
  const Algorithm* algorithm = nullptr;  // null while `auto` has not chosen
  bool auto_select = false;  // `auto`: the algorithm is chosen once the topology is known
  std::string calibration_path;  // auto: options.calibration, or TOPOCOLL_CALIBRATION
  bool native = false;    // the MPI library's own MPI_Alltoall
  bool in_place = false;  // sendbuf == MPI_IN_PLACE: sendcount and sendtype are ignored
  DatatypeLayout send_layout;  // unset when in_place
  DatatypeLayout recv_layout;
  std::size_t block_bytes = 0;  // bytes from each rank to each rank
  Problem problem;  // its topology is set later, for algorithms that need one
  std::string topology_spec;  // options.topology, or TOPOCOLL_TOPOLOGY when that is empty
  ExecutionSettings settings;
};

// Error classes: MPI_ERR_COMM (null or inter-communicator), MPI_ERR_ARG (unknown or
// inapplicable algorithm, bad options), MPI_ERR_COUNT (negative count), MPI_ERR_TYPE (null or
// uncommitted datatype, or fewer bytes sent than received per block), MPI_ERR_TRUNCATE (more
// bytes sent than received per block), MPI_ERR_BUFFER (null or misplaced buffer).
MaybeFailure check_alltoall(const AlltoallArguments& arguments, const AlltoallOptions& options,
                            CheckedAlltoall& checked);

// The pieces of check_alltoall that alltoallv shares.
MaybeFailure check_communicator(MPI_Comm comm, int& size);
MaybeFailure check_algorithm_and_options(const AlltoallOptions& options, CheckedAlltoall& checked);
MaybeFailure check_count(int count, const char* role);
MaybeFailure check_buffer(const void* buffer, int count, const DatatypeLayout& layout, const char* role);
// The algorithm knobs of the options.
AlgorithmKnobs knobs_of(const AlltoallOptions& options);

}  // namespace topocoll::exec
