// The byte buffers of a call: the user's own, or packed and unpacked copies (staging.hpp).
#include "exec/staging.hpp"

#include <cstring>

#include "exec/copy_cost.hpp"
#include "exec/packing.hpp"
#include "exec/side_types.hpp"

namespace topocoll::exec {

namespace {

// Consecutive blocks of a side that are adjacent both in the user's buffer and in the byte
// buffer: one memcpy, MPI_Pack or MPI_Unpack moves them all (alltoall's whole buffer at once).
// alltoallw's blocks, each of its own datatype, move one by one.
struct Run {
  int first = 0;             // its first block: whose datatype it has
  std::ptrdiff_t displ = 0;  // in displacement units (extents; alltoallw: bytes), in the user's buffer
  std::size_t offset = 0;    // in the byte buffer
  std::size_t elements = 0;
  std::size_t bytes = 0;
};

template <typename MoveRun>
MaybeFailure for_each_run(const SideLayout& side, bool per_peer_types, MoveRun&& move) {
  Run run;
  for (std::size_t q = 0; q < side.elements.size(); ++q) {
    // Nothing there: no elements (or a root's block left in place), or a type of size zero.
    if (side.elements[q] == 0 || side.bytes[q] == 0) continue;
    const bool extends = run.elements > 0 && !per_peer_types &&
                         side.displs[q] == run.displ + static_cast<std::ptrdiff_t>(run.elements) &&
                         side.offset[q] == run.offset + run.bytes;
    if (!extends) {
      if (run.elements > 0) {
        if (auto failure = move(run)) return failure;
      }
      run = Run{static_cast<int>(q), side.displs[q], side.offset[q], 0, 0};
    }
    run.elements += side.elements[q];
    run.bytes += side.bytes[q];
  }
  if (run.elements > 0) return move(run);
  return std::nullopt;
}

// The blocks of `side` in the user's `buffer` -> one after another in `out`.
MaybeFailure pack_side(const void* buffer, const SideTypes& types, const SideLayout& side, std::byte* out,
                       MPI_Comm comm) {
  return for_each_run(side, types.per_peer(), [&](const Run& run) -> MaybeFailure {
    const DatatypeLayout& layout = types.layout_of(run.first);
    const char* from =
        static_cast<const char*>(buffer) + static_cast<MPI_Aint>(run.displ) * types.displacement_unit(run.first);
    if (layout.plain_bytes) {
      std::memcpy(out + run.offset, from, run.bytes);
      return std::nullopt;
    }
    return pack(from, run.elements, types.handle_of(run.first), layout, out + run.offset, comm);
  });
}

MaybeFailure unpack_side(const std::byte* in, const SideTypes& types, const SideLayout& side, void* buffer,
                         MPI_Comm comm) {
  return for_each_run(side, types.per_peer(), [&](const Run& run) -> MaybeFailure {
    char* to = static_cast<char*>(buffer) + static_cast<MPI_Aint>(run.displ) * types.displacement_unit(run.first);
    return unpack(in + run.offset, run.elements, types.handle_of(run.first), types.layout_of(run.first), to, comm);
  });
}

}  // namespace

MaybeFailure StagedBuffers::stage_in(const CallArguments& a, const CheckedCall& call, std::size_t scratch_bytes,
                                     MPI_Comm comm) {
  const double bandwidth = call.settings.copy_bandwidth;
  if (call.send.staged) {
    // alltoall(v) in place sends the receive buffer's blocks, copied out before any arrive.
    const bool mirror = call.in_place && !is_rooted(call.operation);
    const SideArguments& source = mirror ? a.recv : a.send;
    const SideTypes types = side_types(source, a.per_peer_types, call.send_type, call.send_types);
    send_copy_ = allocate_uninitialised(call.send.total);
    if (auto failure = pack_side(source.buffer, types, call.send, send_copy_.get(), comm)) {
      return failure;
    }
    charge_local_copy(call.send.total, bandwidth);
    bytes_.send = send_copy_.get();
  } else if (call.send.total > 0) {
    bytes_.send = static_cast<const std::byte*>(a.send.buffer) + call.send.base;
  }

  if (call.recv.staged) {
    recv_staging_ = allocate_uninitialised(call.recv.total);
    bytes_.recv = recv_staging_.get();
  } else if (call.recv.total > 0) {
    bytes_.recv = static_cast<std::byte*>(const_cast<void*>(a.recv.buffer)) + call.recv.base;
  }
  scratch_ = allocate_uninitialised(scratch_bytes);
  bytes_.scratch = scratch_.get();
  return std::nullopt;
}

MaybeFailure StagedBuffers::stage_out(const CallArguments& a, const CheckedCall& call, MPI_Comm comm) {
  if (recv_staging_ == nullptr) return std::nullopt;
  void* recvbuf = const_cast<void*>(a.recv.buffer);
  const SideTypes types = side_types(a.recv, a.per_peer_types, call.recv_type, call.recv_types);
  if (auto failure = unpack_side(recv_staging_.get(), types, call.recv, recvbuf, comm)) {
    return failure;
  }
  charge_local_copy(call.recv.total, call.settings.copy_bandwidth);
  return std::nullopt;
}

}  // namespace topocoll::exec
