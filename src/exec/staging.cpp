// The byte buffers of an alltoall: the user's own, or packed and unpacked copies (staging.hpp).
#include "exec/staging.hpp"

#include <cstring>

#include "exec/copy_cost.hpp"
#include "exec/packing.hpp"

namespace topocoll::exec {

MaybeFailure StagedBuffers::stage_in(const AlltoallArguments& a, const CheckedAlltoall& call,
                                     std::size_t scratch_bytes, MPI_Comm comm) {
  const std::size_t p = static_cast<std::size_t>(call.problem.size);
  const std::size_t buffer_bytes = p * call.block_bytes;
  const double bandwidth = call.settings.copy_bandwidth;

  if (call.in_place) {
    send_copy_ = allocate_uninitialised(buffer_bytes);
    if (call.recv_layout.plain_bytes) {
      std::memcpy(send_copy_.get(), a.recvbuf, buffer_bytes);
    } else if (auto failure = pack(a.recvbuf, p * static_cast<std::size_t>(a.recvcount), a.recvtype,
                                   call.recv_layout, send_copy_.get(), comm)) {
      return failure;
    }
    charge_local_copy(buffer_bytes, bandwidth);
    bytes_.send = send_copy_.get();
  } else if (call.send_layout.plain_bytes) {
    bytes_.send = static_cast<const std::byte*>(a.sendbuf);
  } else {
    send_copy_ = allocate_uninitialised(buffer_bytes);
    if (auto failure = pack(a.sendbuf, p * static_cast<std::size_t>(a.sendcount), a.sendtype, call.send_layout,
                            send_copy_.get(), comm)) {
      return failure;
    }
    charge_local_copy(buffer_bytes, bandwidth);
    bytes_.send = send_copy_.get();
  }

  if (call.recv_layout.plain_bytes) {
    bytes_.recv = static_cast<std::byte*>(a.recvbuf);
  } else {
    recv_staging_ = allocate_uninitialised(buffer_bytes);
    bytes_.recv = recv_staging_.get();
  }
  scratch_ = allocate_uninitialised(scratch_bytes);
  bytes_.scratch = scratch_.get();
  return std::nullopt;
}

MaybeFailure StagedBuffers::stage_out(const AlltoallArguments& a, const CheckedAlltoall& call, MPI_Comm comm) {
  if (recv_staging_ == nullptr) return std::nullopt;
  const std::size_t p = static_cast<std::size_t>(call.problem.size);
  if (auto failure = unpack(recv_staging_.get(), p * static_cast<std::size_t>(a.recvcount), a.recvtype,
                            call.recv_layout, a.recvbuf, comm)) {
    return failure;
  }
  charge_local_copy(p * call.block_bytes, call.settings.copy_bandwidth);
  return std::nullopt;
}

}  // namespace topocoll::exec
