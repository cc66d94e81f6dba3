// Packing and unpacking in pieces that MPI's int counts can describe.
#include "exec/staging.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>

#include "exec/copy_cost.hpp"

namespace topocoll::exec {

namespace {

std::unique_ptr<std::byte[]> allocate_uninitialised(std::size_t bytes) {
  return bytes == 0 ? nullptr : std::unique_ptr<std::byte[]>(new std::byte[bytes]);
}

// Elements per MPI_Pack/MPI_Unpack call, so that both the count and the bytes fit an int.
std::size_t elements_per_call(const DatatypeLayout& layout) {
  const std::size_t by_bytes = layout.size == 0 ? INT_MAX : INT_MAX / layout.size;
  return std::max<std::size_t>(1, std::min<std::size_t>(INT_MAX, by_bytes));
}

Failure unexpected_packed_size(const char* call, int position, std::size_t expected) {
  return Failure{MPI_ERR_INTERN, std::string(call) + " produced " + std::to_string(position) +
                                     " bytes where the raw data is " + std::to_string(expected) + " bytes"};
}

MaybeFailure pack(const void* elements, std::size_t count, MPI_Datatype type, const DatatypeLayout& layout,
                  std::byte* out, MPI_Comm comm) {
  const std::size_t chunk = elements_per_call(layout);
  for (std::size_t done = 0; done < count; done += chunk) {
    const std::size_t n = std::min(chunk, count - done);
    const std::size_t bytes = n * layout.size;
    const auto* from = static_cast<const char*>(elements) + static_cast<MPI_Aint>(done) * layout.extent;
    int position = 0;
    const int rc = MPI_Pack(from, static_cast<int>(n), type, out + done * layout.size, static_cast<int>(bytes),
                            &position, comm);
    if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Pack", rc);
    if (static_cast<std::size_t>(position) != bytes) return unexpected_packed_size("MPI_Pack", position, bytes);
  }
  return std::nullopt;
}

MaybeFailure unpack(const std::byte* in, std::size_t count, MPI_Datatype type, const DatatypeLayout& layout,
                    void* elements, MPI_Comm comm) {
  const std::size_t chunk = elements_per_call(layout);
  for (std::size_t done = 0; done < count; done += chunk) {
    const std::size_t n = std::min(chunk, count - done);
    const std::size_t bytes = n * layout.size;
    auto* to = static_cast<char*>(elements) + static_cast<MPI_Aint>(done) * layout.extent;
    int position = 0;
    const int rc = MPI_Unpack(in + done * layout.size, static_cast<int>(bytes), &position, to, static_cast<int>(n),
                              type, comm);
    if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Unpack", rc);
    if (static_cast<std::size_t>(position) != bytes) return unexpected_packed_size("MPI_Unpack", position, bytes);
  }
  return std::nullopt;
}

}  // namespace

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
