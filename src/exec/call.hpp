// One collective call as the executor sees it, whatever the operation: the user's arguments
// (CallArguments) and what the checks learn from them (CheckedCall). Every entry point of the
// API fills a CallArguments and hands it to run_collective (collective.hpp).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/problem.hpp"
#include "algorithms/registry.hpp"
#include "exec/block_view.hpp"
#include "exec/datatype_layout.hpp"
#include "exec/executor.hpp"
#include "schedule/operation.hpp"

namespace topocoll::exec {

// One buffer argument of an MPI collective: a buffer, its datatype, and either one count for
// every block (count) or a count and a displacement per peer (the v forms' arrays).
struct SideArguments {
  // MPI_IN_PLACE where the operation allows it. Const for both sides: the receive side's
  // buffer (a void* in the API) is written only by staging's unpack and the executor.
  const void* buffer = nullptr;
  int count = 0;
  const int* counts = nullptr;  // v forms: elements per peer
  const int* displs = nullptr;  // v forms: displacement per peer, in extents of `type` (alltoallw: bytes)
  MPI_Datatype type = MPI_DATATYPE_NULL;
  const MPI_Datatype* types = nullptr;  // alltoallw: a datatype per peer, in place of `type`
};

struct CallArguments {
  Operation operation = Operation::alltoall;
  SideArguments send;
  SideArguments recv;
  int root = 0;  // scatter, gather and their v forms
  MPI_Comm comm = MPI_COMM_NULL;
  // MPI_Alltoallw: Operation::alltoallv (its schedule is an alltoallv's, bytes per pair) whose
  // blocks each have their own datatype (the sides' `types`), at displacements in bytes.
  bool per_peer_types = false;
};

// "alltoallw" for MPI_Alltoallw's arguments, else the operation's name (messages, verbose lines).
inline std::string_view operation_name(const CallArguments& call) {
  return call.per_peer_types ? std::string_view("alltoallw") : to_string(call.operation);
}

// How many blocks of one side this rank holds: one per peer (alltoall, the root's side of
// scatter and gather), one (to or from the root), or none (the root's arguments on the others).
enum class SideShape : unsigned char { every_peer, root_only, unused };

struct CheckedCall {
  Operation operation = Operation::alltoall;
  const Algorithm* algorithm = nullptr;  // null while `auto` has not chosen
  bool auto_select = false;   // `auto`: the algorithm is chosen once the topology is known
  bool native = false;        // the MPI library's own implementation of the operation
  std::string auto_chosen_by;  // auto: "the cost model", or the decision table's entry
  std::string calibration_path;  // auto: options.calibration, or TOPOCOLL_CALIBRATION
  std::string topology_spec;     // options.topology, or TOPOCOLL_TOPOLOGY when that is empty
  std::string network_path;      // options.network, or TOPOCOLL_NETWORK when that is empty
  int rank = 0;
  // The communicator, root, algorithm and options passed their checks: the rank can take part
  // in the exchange even when its own buffers, counts or datatypes then fail theirs.
  bool can_take_part = false;
  bool in_place = false;  // MPI_IN_PLACE where the operation allows it
  DatatypeLayout send_type, recv_type;  // unset for a side the call does not use
  std::vector<DatatypeLayout> send_types, recv_types;  // alltoallw: one per peer, in place of the above
  SideLayout send, recv;  // the byte buffers' blocks, one entry per peer
  // Uniform operations: bytes of every block (the same on every rank, by MPI's rules).
  std::size_t block_bytes = 0;
  Problem problem;  // its blocks and topology are attached later
  ExecutionSettings settings;
};

}  // namespace topocoll::exec
