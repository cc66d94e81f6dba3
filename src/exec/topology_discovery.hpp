// What topology a communicator sees: where its ranks run (world rank, host name), the groups a
// topology spec (or else Slurm) gives them, and the node level: the ranks of one host name.
// Collective over the communicator; the discovery can run without waiting (TopologyDiscovery).
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "exec/failure.hpp"
#include "topology/topology.hpp"
#include "topology/topology_file.hpp"

namespace topocoll::exec {

// World ranks and host names (MPI_Get_processor_name) of `comm`'s ranks, on every rank.
MaybeFailure discover_placement(MPI_Comm comm, RankPlacement& placement);

// The topology of `comm` under `spec` (a shorthand, a host-name pattern or a topology file path).
// An empty spec gives Slurm's switch tree when every rank has SLURM_TOPOLOGY_ADDR and
// SLURM_TOPOLOGY_ADDR_PATTERN (its switch levels and node), else the node level alone. A level
// named "node" is appended (the ranks that share a host name) unless the topology already has one.
// Errors (a malformed or inconsistent spec or Slurm address) carry MPI_ERR_ARG and name the entry
// at fault; every rank reaches the same verdict when it reads the same spec.
//
// Every rank tells the others one record, its host name and Slurm address, in two collectives
// (the records' lengths, then the records). A blocking call's set-up runs them at once with the
// MPI library's blocking MPI_Allgather and MPI_Allgatherv; a nonblocking collective's start,
// which may not wait, starts MPI_Iallgather and MPI_Iallgatherv and tests them step by step.
// The blocking ones are what scales: Open MPI's libnbc and SMPI run a nonblocking allgather
// linearly (p - 1 messages a rank, and SMPI rescans them all at each completion: a first call of
// 256 simulated ranks took 35 s of wall time in its set-up, 1024 ranks did not end in 15 min),
// where MPI_Allgather takes about log p rounds.
// Every rank's string, in rank order, on every rank: the lengths, then the characters, so that
// a rank holds the sum of the strings' lengths (host names: tens of bytes each), not p times
// the longest possible.
class StringGather {
 public:
  // Gathers at once (MPI_Allgather, MPI_Allgatherv); strings() then gives them. `comm` must
  // return errors, not abort; `what` names the strings in an error.
  MaybeFailure gather(MPI_Comm comm, std::string mine, const char* what);
  // Starts the first nonblocking collective on `comm`, for test() to go on with.
  MaybeFailure start(MPI_Comm comm, std::string mine, const char* what);
  // True once the gather has ended, with `failure` set if it failed. False while a collective
  // is on its way.
  bool test(MaybeFailure& failure);
  // Every rank's string, once ended.
  std::vector<std::string> strings() const;

 private:
  void begin(MPI_Comm comm, std::string mine, const char* what);
  // The lengths are in: each string's place, and room for all of them.
  MaybeFailure lay_out();
  // The collective on its way has completed: true at the end, else the next one is posted.
  bool completed(MaybeFailure& failure);

  MPI_Comm comm_ = MPI_COMM_NULL;
  const char* what_ = "";
  std::string mine_;
  int length_ = 0;
  std::vector<int> lengths_, offsets_;
  std::vector<char> chars_;
  MPI_Request request_ = MPI_REQUEST_NULL;
  bool gathering_chars_ = false;  // the second collective is on its way
};

class TopologyDiscovery {
 public:
  // Discovers at once, with blocking collectives; take() then gives the topology.
  MaybeFailure run(MPI_Comm comm, std::string spec);
  // Starts the first nonblocking collective on `comm` (which must return errors, not abort).
  MaybeFailure start(MPI_Comm comm, std::string spec);
  // True once the discovery has ended: then `failure` says why it failed, or take() gives the
  // topology. False while a collective is on its way.
  bool test(MaybeFailure& failure);
  Topology take() { return std::move(topology_); }

 private:
  static constexpr const char* kRecords = "host names and Slurm addresses";
  std::string record(MPI_Comm comm, std::string spec);
  // The records gathered: the topology they give.
  MaybeFailure finish();

  MPI_Comm comm_ = MPI_COMM_NULL;
  std::string spec_;
  StringGather records_;
  Topology topology_;
};

// Discovers it at once (TopologyDiscovery::run).
MaybeFailure discover_topology(MPI_Comm comm, const std::string& spec, Topology& topology);

}  // namespace topocoll::exec
