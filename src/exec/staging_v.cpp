#include "exec/staging_v.hpp"

#include "exec/copy_cost.hpp"
#include "exec/packing.hpp"

namespace topocoll::exec {

namespace {

// Packs every block of one side (counts[q] elements at displs[q] * extent) one after another.
MaybeFailure pack_blocks(const void* buffer, const int* counts, const int* displs, MPI_Datatype type,
                         const DatatypeLayout& layout, const SideLayout& side, std::byte* out, MPI_Comm comm) {
  for (std::size_t q = 0; q < side.offset.size(); ++q) {
    const char* from = static_cast<const char*>(buffer) + static_cast<MPI_Aint>(displs[q]) * layout.extent;
    if (auto failure = pack(from, static_cast<std::size_t>(counts[q]), type, layout, out + side.offset[q], comm)) {
      return failure;
    }
  }
  return std::nullopt;
}

}  // namespace

MaybeFailure StagedBlocks::stage_in(const AlltoallvArguments& a, const CheckedAlltoallv& call,
                                    std::size_t scratch_bytes, MPI_Comm comm) {
  const CheckedAlltoall& c = call.common;
  if (c.in_place || call.send.staged) {
    send_copy_ = allocate_uninitialised(call.send.total);
    const bool in_place = c.in_place;
    if (auto failure = pack_blocks(in_place ? a.recvbuf : a.sendbuf, in_place ? a.recvcounts : a.sendcounts,
                                   in_place ? a.rdispls : a.sdispls, in_place ? a.recvtype : a.sendtype,
                                   in_place ? c.recv_layout : c.send_layout, call.send, send_copy_.get(), comm)) {
      return failure;
    }
    charge_local_copy(call.send.total, c.settings.copy_bandwidth);
    bytes_.send = send_copy_.get();
  } else {
    bytes_.send = static_cast<const std::byte*>(a.sendbuf);
  }
  if (call.recv.staged) {
    recv_staging_ = allocate_uninitialised(call.recv.total);
    bytes_.recv = recv_staging_.get();
  } else {
    bytes_.recv = static_cast<std::byte*>(a.recvbuf);
  }
  scratch_ = allocate_uninitialised(scratch_bytes);
  bytes_.scratch = scratch_.get();
  return std::nullopt;
}

MaybeFailure StagedBlocks::stage_out(const AlltoallvArguments& a, const CheckedAlltoallv& call, MPI_Comm comm) {
  if (!call.recv.staged) return std::nullopt;
  const CheckedAlltoall& c = call.common;
  for (std::size_t q = 0; q < call.recv.offset.size(); ++q) {
    char* to = static_cast<char*>(a.recvbuf) + static_cast<MPI_Aint>(a.rdispls[q]) * c.recv_layout.extent;
    if (auto failure = unpack(recv_staging_.get() + call.recv.offset[q], static_cast<std::size_t>(a.recvcounts[q]),
                              a.recvtype, c.recv_layout, to, comm)) {
      return failure;
    }
  }
  charge_local_copy(call.recv.total, c.settings.copy_bandwidth);
  return std::nullopt;
}

}  // namespace topocoll::exec
