// topocoll: topology-aware collective communication over MPI. C++ API.
#pragma once

#include <mpi.h>

#include <string>

#include "topocoll/topocoll.h"

namespace topocoll {

struct AlltoallOptions {
  // An algorithm name (see topocoll-plan --list) or "native".
  std::string algorithm = "pairwise";
  // group-shuffle: partners per round (the paper's w).
  int group_width = 4;
  // Bound on point-to-point requests in flight per rank (0: no bound). The `direct`
  // algorithm posts a whole round at once; this caps it, like UCC's num_posts.
  int max_requests = 0;
  // Simulation only (SMPI build): simulated bandwidth of local copies and packing, in bytes
  // per second, charged with smpi_execute. 0 selects the library default (5e9).
  double copy_bandwidth = 0.0;
};

// MPI_Alltoall semantics (MPI_IN_PLACE accepted as sendbuf). Returns MPI_SUCCESS or an MPI
// error code after invoking the communicator's error handler.
int alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
             const AlltoallOptions& options = {});

}  // namespace topocoll
