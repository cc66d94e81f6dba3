// The argument checks of a collective call, in the order a reader would ask: communicator and
// root, algorithm and options, MPI_IN_PLACE, counts, datatypes, buffers, the byte layout of
// each side, matching block sizes, applicability.
#include "exec/call_checks.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "exec/copy_cost.hpp"
#include "exec/side_layout.hpp"
#include "exec/side_types.hpp"

namespace topocoll::exec {

namespace {

MaybeFailure check_communicator(MPI_Comm comm, int& size, int& rank) {
  if (comm == MPI_COMM_NULL) return Failure{MPI_ERR_COMM, "the communicator is MPI_COMM_NULL"};
  int is_inter = 0;
  if (MPI_Comm_test_inter(comm, &is_inter) != MPI_SUCCESS) {
    return Failure{MPI_ERR_COMM, "the communicator is not valid"};
  }
  if (is_inter) return Failure{MPI_ERR_COMM, "intercommunicators are not supported", true};
  if (MPI_Comm_size(comm, &size) != MPI_SUCCESS || MPI_Comm_rank(comm, &rank) != MPI_SUCCESS) {
    return Failure{MPI_ERR_COMM, "the communicator is not valid"};
  }
  return std::nullopt;
}

MaybeFailure check_algorithm_and_options(Operation op, const CollectiveOptions& options, CheckedCall& checked) {
  const std::string name = options.algorithm.empty() ? std::string(default_algorithm(op)) : options.algorithm;
  checked.auto_select = name == "auto";
  checked.algorithm = checked.auto_select ? nullptr : find_algorithm(op, name);
  if (checked.algorithm == nullptr && !checked.auto_select) {
    return Failure{MPI_ERR_ARG,
                   "unknown algorithm '" + excerpt_of(name) + "'; valid names: " + algorithm_names(op) + ", auto"};
  }
  checked.native = checked.algorithm != nullptr && !checked.algorithm->has_schedule();
  if (checked.native && checked.algorithm->name != "native") {
    return Failure{MPI_ERR_ARG, "algorithm '" + excerpt_of(name) + "' has no schedule the executor can run"};
  }
  if (options.overlap.stripes < 0) {
    return Failure{MPI_ERR_ARG, "stripes must be 0 (overlap: one message per block; auto: chosen by the model) or "
                                "positive, got " + std::to_string(options.overlap.stripes)};
  }
  if (options.max_requests < 0) {
    return Failure{MPI_ERR_ARG, "max_requests must be 0 (no bound) or positive, got " +
                                    std::to_string(options.max_requests)};
  }
  if (!(options.copy_bandwidth >= 0.0) || std::isinf(options.copy_bandwidth)) {
    return Failure{MPI_ERR_ARG, "copy_bandwidth must be 0 (default) or a positive number of bytes per second"};
  }
  checked.settings.max_requests = options.max_requests;
  checked.settings.copy_bandwidth = options.copy_bandwidth > 0.0 ? options.copy_bandwidth : kDefaultCopyBandwidth;
  return std::nullopt;
}

// Where MPI allows MPI_IN_PLACE: as the send buffer of alltoall(v) on any rank; at the root
// only, as the receive buffer of scatter(v) and the send buffer of gather(v).
MaybeFailure check_in_place(const CallArguments& a, int rank, CheckedCall& checked) {
  const Operation op = a.operation;
  const bool send_in_place = a.send.buffer == MPI_IN_PLACE, recv_in_place = a.recv.buffer == MPI_IN_PLACE;
  if (!is_rooted(op)) {
    if (recv_in_place) return Failure{MPI_ERR_BUFFER, "MPI_IN_PLACE is only valid as the send buffer"};
    checked.in_place = send_in_place;
    return std::nullopt;
  }
  const bool at_root = rank == a.root;
  const bool allowed = flows_from_root(op) ? recv_in_place : send_in_place;
  const bool forbidden = flows_from_root(op) ? send_in_place : recv_in_place;
  const char* where = flows_from_root(op) ? "the root's receive buffer" : "the root's send buffer";
  if (forbidden || (allowed && !at_root)) {
    return Failure{MPI_ERR_BUFFER, std::string("MPI_IN_PLACE is only valid as ") + where};
  }
  checked.in_place = allowed;
  return std::nullopt;
}

// The blocks this rank holds on each side.
SideShape send_shape(const CallArguments& a, const CheckedCall& c) {
  if (!is_rooted(a.operation)) return SideShape::every_peer;
  if (flows_from_root(a.operation)) return c.rank == a.root ? SideShape::every_peer : SideShape::unused;
  return c.in_place ? SideShape::unused : SideShape::root_only;
}

SideShape recv_shape(const CallArguments& a, const CheckedCall& c) {
  if (!is_rooted(a.operation)) return SideShape::every_peer;
  if (!flows_from_root(a.operation)) return c.rank == a.root ? SideShape::every_peer : SideShape::unused;
  return c.in_place ? SideShape::unused : SideShape::root_only;
}

MaybeFailure check_counts(const SideArguments& side, SideShape shape, int size, const char* name) {
  if (shape == SideShape::unused) return std::nullopt;
  if (shape == SideShape::root_only || !side.per_peer_counts()) {
    if (side.count < 0) {
      return Failure{MPI_ERR_COUNT, "the " + std::string(name) + " count is negative (" + std::to_string(side.count) + ")"};
    }
    return std::nullopt;
  }
  for (int q = 0; q < size; ++q) {
    if (side.count_at(q) < 0) {
      return Failure{MPI_ERR_COUNT, std::string(name) + " count " + std::to_string(q) + " is negative (" +
                                        std::to_string(side.count_at(q)) + ")"};
    }
  }
  return std::nullopt;
}

// The v forms' arrays (and alltoallw's datatypes), on the ranks that read them.
MaybeFailure check_arrays(const SideArguments& side, SideShape shape, bool variable, bool per_peer_types,
                          const char* name) {
  if (shape != SideShape::every_peer || !variable) return std::nullopt;
  if (!side.per_peer_counts() || !side.per_peer_displs() || (per_peer_types && side.types == nullptr)) {
    const char* arrays = per_peer_types ? " counts, displacements or datatypes" : " counts or displacements";
    return Failure{MPI_ERR_ARG, std::string("the ") + name + arrays + " array is null"};
  }
  return std::nullopt;
}

// alltoallw: each block's datatype, checked as the one datatype of the other forms is. A block
// of no elements reads none (MPI_DATATYPE_NULL is common there): it stands as plain bytes.
MaybeFailure describe_per_peer_types(const SideArguments& side, int size, const char* role,
                                     std::vector<DatatypeLayout>& layouts) {
  layouts.assign(static_cast<std::size_t>(size), DatatypeLayout{});
  for (int q = 0; q < size; ++q) {
    DatatypeLayout& layout = layouts[static_cast<std::size_t>(q)];
    if (side.count_at(q) == 0) {
      layout.plain_bytes = true;
      continue;
    }
    // Programs repeat one datatype for many peers: each is inspected once where it repeats.
    if (q > 0 && side.count_at(q - 1) > 0 && side.types[q] == side.types[q - 1]) {
      layout = layouts[static_cast<std::size_t>(q) - 1];
      continue;
    }
    const std::string name = std::string(role) + " " + std::to_string(q);
    if (auto failure = describe_datatype(side.types[q], name.c_str(), layout)) return failure;
  }
  return std::nullopt;
}

// The datatype of a side the call uses: one, or (alltoallw) one per peer.
MaybeFailure describe_side_types(const CallArguments& a, const SideArguments& side, SideShape shape, int size,
                                 const char* role, DatatypeLayout& one, std::vector<DatatypeLayout>& per_peer) {
  if (shape == SideShape::unused) return std::nullopt;
  if (a.per_peer_types) return describe_per_peer_types(side, size, role, per_peer);
  return describe_datatype(side.type, role, one);
}

// A null buffer is an error unless the datatype places its data at absolute addresses
// (a buffer of MPI_BOTTOM, which is null in Open MPI and MPICH).
MaybeFailure check_buffer(const void* buffer, const SideLayout& layout, const SideTypes& types, const char* role) {
  if (buffer != nullptr) return std::nullopt;
  std::size_t most = 0;  // the largest count of a block with data relative to the buffer
  for (std::size_t q = 0; q < layout.elements.size(); ++q) {
    if (layout.elements[q] == 0) continue;
    const DatatypeLayout& type = types.layout_of(static_cast<int>(q));
    if (type.size > 0 && type.true_lb == 0) most = std::max(most, layout.elements[q]);
  }
  if (most > 0) {
    return Failure{MPI_ERR_BUFFER, std::string("the ") + role + " is null but its count is " + std::to_string(most)};
  }
  return std::nullopt;
}

// The element slots (displacement .. displacement + count, in extents) each receive block covers:
// for a packed receive type whose elements do not reach past their extent, two blocks write a
// common byte exactly when their slots meet.
SideLayout element_slots(const SideLayout& recv) {
  SideLayout slots;
  const std::ptrdiff_t lowest = recv.displs.empty() ? 0 : *std::min_element(recv.displs.begin(), recv.displs.end());
  for (const std::ptrdiff_t displ : recv.displs) slots.offset.push_back(static_cast<std::size_t>(displ - lowest));
  slots.bytes = recv.elements;
  return slots;
}

MaybeFailure check_no_overlap(const SideLayout& recv) {
  std::vector<int> order(recv.offset.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return recv.offset[a] < recv.offset[b]; });
  std::size_t end = 0;
  int last = -1;
  for (int q : order) {
    if (recv.bytes[q] == 0) continue;
    if (last >= 0 && recv.offset[q] < end) {
      return Failure{MPI_ERR_ARG, "the receive blocks from ranks " + std::to_string(last) + " and " +
                                      std::to_string(q) + " overlap in the receive buffer"};
    }
    end = recv.offset[q] + recv.bytes[q];
    last = q;
  }
  return std::nullopt;
}

// The v forms let the user place receive blocks anywhere: two must never write one byte.
// (Packed blocks of alltoallw's different datatypes have no common slots to compare: MPI's
// rule against overlapping receives is left to the program there.)
MaybeFailure check_receive_blocks_apart(const CheckedCall& c, bool per_peer_types) {
  if (!is_variable(c.operation)) return std::nullopt;
  if (!c.recv.staged) return check_no_overlap(c.recv);
  if (per_peer_types) return std::nullopt;
  const DatatypeLayout& t = c.recv_type;
  if (t.size > 0 && t.true_lb >= 0 && t.true_lb + t.true_extent <= t.extent) {
    return check_no_overlap(element_slots(c.recv));
  }
  return std::nullopt;
}

// The block a rank sends itself must fit the room it makes for it, by MPI's matching type
// signatures (the one pair of sides a rank can compare without communicating).
// `both_sides`: the rank holds both sides of that block (everywhere in alltoall(v), at the root
// of scatter and gather unless in place).
MaybeFailure check_self_block(const CheckedCall& c, bool both_sides) {
  if (!both_sides) return std::nullopt;
  const auto self = static_cast<std::size_t>(c.rank);
  const std::size_t sent = c.send.bytes[self], room = c.recv.bytes[self];
  if (sent == room) return std::nullopt;
  const int code = sent > room ? MPI_ERR_TRUNCATE : MPI_ERR_TYPE;
  if (is_variable(c.operation)) {
    return Failure{code, "the block this rank sends itself has " + std::to_string(sent) +
                             " bytes but the receive count makes room for " + std::to_string(room) +
                             " (send and receive type signatures differ)"};
  }
  const std::string detail = " (sendcount * size(sendtype) = " + std::to_string(sent) +
                             " bytes, recvcount * size(recvtype) = " + std::to_string(room) + " bytes)";
  return Failure{code, sent > room ? "each block sent is larger than the block received" + detail
                                   : "the send and receive type signatures differ" + detail};
}

// Uniform operations: the bytes of every block, which every rank can tell from its own
// arguments (MPI requires them to agree).
std::size_t uniform_block_bytes(const CheckedCall& c) {
  for (const SideLayout* side : {&c.recv, &c.send}) {
    for (std::size_t bytes : side->bytes) {
      if (bytes > 0) return bytes;
    }
  }
  return 0;
}

// MPI_IN_PLACE at the root of scatter or gather: its own block does not move.
void leave_roots_block_in_place(CheckedCall& c) {
  const auto self = static_cast<std::size_t>(c.rank);
  for (SideLayout* side : {&c.send, &c.recv}) {
    if (side->bytes.empty()) continue;
    side->bytes[self] = 0;
    side->elements[self] = 0;
  }
}

}  // namespace

std::size_t block_bytes_despite_failure(const CallArguments& a, int rank) {
  if (is_variable(a.operation)) return 0;
  CheckedCall c;
  c.rank = rank;
  (void)check_in_place(a, rank, c);  // sets in_place where MPI allows it; the sides skip MPI_IN_PLACE anyway
  const std::pair<const SideArguments*, SideShape> sides[] = {{&a.recv, recv_shape(a, c)}, {&a.send, send_shape(a, c)}};
  for (const auto& [side, shape] : sides) {
    if (shape == SideShape::unused || side->buffer == MPI_IN_PLACE || side->count <= 0) continue;
    DatatypeLayout type;
    std::size_t bytes = 0;
    if (describe_datatype(side->type, "datatype", type) ||
        checked_bytes(static_cast<std::size_t>(side->count), type.size, "count", bytes)) {
      continue;
    }
    if (bytes > 0) return bytes;
  }
  return 0;
}

AlgorithmKnobs knobs_of(const CollectiveOptions& options) {
  AlgorithmKnobs knobs;
  knobs.group_width = options.group_shuffle.group_width;
  knobs.max_scratch_bytes = options.lg.max_scratch_bytes;
  knobs.segment_bytes = options.lg.segment_bytes;
  knobs.stripes = options.overlap.stripes;
  knobs.topo_linear_phases = options.topo.linear_phases;
  knobs.topo_skipped_levels = options.topo.skipped_levels;
  knobs.group_level = options.group_level;
  return knobs;
}

MaybeFailure check_call(const CallArguments& a, const CollectiveOptions& options, CheckedCall& checked) {
  const Operation op = a.operation;
  checked.operation = op;
  int size = 0;
  if (auto failure = check_communicator(a.comm, size, checked.rank)) return failure;
  if (is_rooted(op) && (a.root < 0 || a.root >= size)) {
    return Failure{MPI_ERR_ROOT, "the root is " + std::to_string(a.root) + " but the communicator has " +
                                     std::to_string(size) + " ranks"};
  }
  if (auto failure = check_algorithm_and_options(op, options, checked)) return failure;
  checked.can_take_part = true;
  if (auto failure = check_in_place(a, checked.rank, checked)) return failure;

  const SideShape recv = recv_shape(a, checked);
  // alltoall(v) in place: the receive buffer's blocks are copied out first, then sent.
  const bool send_mirrors_recv = checked.in_place && !is_rooted(op);
  const SideShape send = send_mirrors_recv ? SideShape::unused : send_shape(a, checked);
  const bool variable = is_variable(op);
  const bool w = a.per_peer_types;
  if (auto failure = check_arrays(a.recv, recv, variable, w, "receive")) return failure;
  if (auto failure = check_arrays(a.send, send, variable, w, "send")) return failure;
  if (auto failure = check_counts(a.recv, recv, size, "receive")) return failure;
  if (auto failure = check_counts(a.send, send, size, "send")) return failure;
  if (auto failure = describe_side_types(a, a.recv, recv, size, "receive type", checked.recv_type, checked.recv_types)) {
    return failure;
  }
  if (auto failure = describe_side_types(a, a.send, send, size, "send type", checked.send_type, checked.send_types)) {
    return failure;
  }

  const SideTypes recv_types = side_types(a.recv, w, checked.recv_type, checked.recv_types);
  const SideTypes send_types = side_types(a.send, w, checked.send_type, checked.send_types);
  if (auto failure = layout_side(a.recv, recv, size, a.root, recv_types, false, "receive", checked.recv)) {
    return failure;
  }
  if (send_mirrors_recv) {
    checked.send_type = checked.recv_type;
    checked.send_types = checked.recv_types;
    if (auto failure = layout_side(a.recv, recv, size, a.root, recv_types, true, "receive", checked.send)) {
      return failure;
    }
  } else if (auto failure = layout_side(a.send, send, size, a.root, send_types, false, "send", checked.send)) {
    return failure;
  }
  if (recv != SideShape::unused) {
    if (auto failure = check_buffer(a.recv.buffer, checked.recv, recv_types, "receive buffer")) return failure;
  }
  if (send != SideShape::unused) {
    if (auto failure = check_buffer(a.send.buffer, checked.send, send_types, "send buffer")) return failure;
    if (recv != SideShape::unused && a.send.buffer == a.recv.buffer && a.send.buffer != nullptr &&
        checked.recv.total > 0) {
      return Failure{MPI_ERR_BUFFER, "the send and receive buffers are the same; pass MPI_IN_PLACE as the " +
                                         std::string(flows_from_root(op) ? "receive" : "send") +
                                         " buffer"};
    }
  }
  if (auto failure = check_receive_blocks_apart(checked, w)) return failure;
  const bool sends = send != SideShape::unused || send_mirrors_recv;
  if (auto failure = check_self_block(checked, sends && recv != SideShape::unused)) return failure;
  if (checked.in_place && is_rooted(op)) leave_roots_block_in_place(checked);

  checked.block_bytes = variable ? 0 : uniform_block_bytes(checked);
  checked.problem = Problem{size, is_rooted(op) ? 0 : checked.block_bytes, nullptr, knobs_of(options)};
  checked.problem.operation = op;
  checked.problem.root = is_rooted(op) ? a.root : 0;
  return std::nullopt;
}

}  // namespace topocoll::exec
