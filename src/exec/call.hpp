// One collective call as the executor sees it, whatever the operation: the user's arguments
// (CallArguments) and what the checks learn from them (CheckedCall). Every entry point of the
// API fills a CallArguments and hands it to run_collective (collective.hpp).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
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
  MPI_Count count = 0;  // an int, but for the large-count forms (MPI_Alltoall_c ...)
  const int* counts = nullptr;  // v forms: elements per peer
  const int* displs = nullptr;  // v forms: displacement per peer, in extents of `type` (alltoallw: bytes)
  MPI_Datatype type = MPI_DATATYPE_NULL;
  const MPI_Datatype* types = nullptr;  // alltoallw: a datatype per peer, in place of `type`
  // The v forms' large-count arrays (MPI_Alltoallv_c ...), in place of counts and displs.
  const MPI_Count* large_counts = nullptr;
  const MPI_Aint* large_displs = nullptr;

  // A count and a displacement per peer (either width), as the v forms give them.
  bool per_peer_counts() const { return counts != nullptr || large_counts != nullptr; }
  bool per_peer_displs() const { return displs != nullptr || large_displs != nullptr; }
  MPI_Count count_at(int q) const { return counts != nullptr ? counts[q] : large_counts[q]; }
  MPI_Aint displ_at(int q) const { return displs != nullptr ? displs[q] : large_displs[q]; }
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
  // The MPI-4 large-count form of the call (MPI_Alltoall_c ...): counts of MPI_Count, the v
  // forms' arrays in `large_counts` and `large_displs`.
  bool large_counts = false;
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

  // Back to a new call's state, keeping the memory of the per-peer vectors: a thread's blocking
  // calls take turns with one CheckedCall (reused.hpp).
  void clear_for_reuse() {
    SideLayout kept_send = std::move(send), kept_recv = std::move(recv);
    std::vector<DatatypeLayout> kept_send_types = std::move(send_types), kept_recv_types = std::move(recv_types);
    *this = CheckedCall{};
    send = std::move(kept_send);
    recv = std::move(kept_recv);
    send_types = std::move(kept_send_types);
    recv_types = std::move(kept_recv_types);
    send.clear();
    recv.clear();
    send_types.clear();
    recv_types.clear();
  }
};

}  // namespace topocoll::exec
