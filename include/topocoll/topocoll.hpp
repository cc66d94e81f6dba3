// topocoll: topology-aware collective communication over MPI. C++ API.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>

#include "topocoll/topocoll.h"

namespace topocoll {

struct AlltoallOptions {
  // An algorithm name (see topocoll-plan --list), "native", or "auto": the algorithm with the
  // lowest time predicted by the cost model calibrated for the machine (see `calibration`).
  std::string algorithm = "pairwise";
  // group-shuffle: partners per round (the paper's w).
  int group_width = 4;
  // Bound on point-to-point requests in flight per rank (0: no bound; the floor is 2). The
  // `direct` algorithm posts a whole round at once, and `overlap` keeps its messages across
  // groups in flight over several rounds; this caps every one of them, like UCC's num_posts
  // (overlap's messages across then complete in the round that posts them).
  int max_requests = 0;
  // Simulation only (SMPI build): simulated bandwidth of local copies and packing, in bytes
  // per second, charged as simulated computation on the calling rank's host. 0 selects the
  // library default (5e9).
  double copy_bandwidth = 0.0;
  // The machine's hierarchy, for topology-aware algorithms (lg): `clusters:N1,N2,...` (by
  // rank of MPI_COMM_WORLD), `flat:N`, or the path of a topology file (docs/topology.md).
  // Empty: the TOPOCOLL_TOPOLOGY environment variable, or when unset only the node level
  // (ranks sharing memory, from MPI_Comm_split_type). A sub-communicator sees the groups of
  // its members.
  std::string topology;
  // lg: cap on the library's scratch memory per rank, in bytes (0: no cap); larger exchanges
  // are pipelined in pieces. segment_bytes sets the piece size directly (0: from the cap).
  std::size_t max_scratch_bytes = 0;
  std::size_t segment_bytes = 0;
  // overlap: each block across the outermost level goes as this many messages at once (parallel
  // streams take a larger share of a node's link where sharing favours short round trips, as
  // TCP's does). 0: one message per block, except under auto, which picks 1, 2, 4 or 8 from the
  // cost model.
  int stripes = 0;
  // auto: the calibration file of the machine (made by topocoll-calibrate). Empty: the
  // TOPOCOLL_CALIBRATION environment variable; auto without either is an error.
  std::string calibration;
  // When not null, receives the name of the algorithm that ran (what auto chose), on success.
  std::string* chosen_algorithm = nullptr;
};

// MPI_Alltoall semantics (MPI_IN_PLACE accepted as sendbuf). Returns MPI_SUCCESS or an MPI
// error code after invoking the communicator's error handler.
int alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
             const AlltoallOptions& options = {});

// MPI_Alltoallv semantics (MPI_IN_PLACE accepted as sendbuf), with the same options; `bruck`
// does not apply (forwarding ranks would need sizes they do not have), nor does lg's
// scratch cap. Schedules are built per call, as the sizes change from call to call.
int alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
              void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
              const AlltoallOptions& options = {});

}  // namespace topocoll
