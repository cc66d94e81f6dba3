#include "exec/packing.hpp"

#include <algorithm>
#include <climits>
#include <string>

namespace topocoll::exec {

namespace {

// Elements per MPI_Pack/MPI_Unpack call, so that both the count and the bytes fit an int.
std::size_t elements_per_call(const DatatypeLayout& layout) {
  const std::size_t by_bytes = layout.size == 0 ? INT_MAX : INT_MAX / layout.size;
  return std::max<std::size_t>(1, std::min<std::size_t>(INT_MAX, by_bytes));
}

Failure unexpected_packed_size(const char* call, int position, std::size_t expected) {
  return Failure{MPI_ERR_INTERN, std::string(call) + " produced " + std::to_string(position) +
                                     " bytes where the raw data is " + std::to_string(expected) + " bytes"};
}

}  // namespace

std::unique_ptr<std::byte[]> allocate_uninitialised(std::size_t bytes) {
  return bytes == 0 ? nullptr : std::unique_ptr<std::byte[]>(new std::byte[bytes]);
}

MaybeFailure pack(const void* elements, std::size_t count, MPI_Datatype type, const DatatypeLayout& layout,
                  std::byte* out, MPI_Comm comm) {
  if (layout.size == 0) return std::nullopt;  // a zero-size type: nothing to move (MPI_Pack rejects a null buffer)
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
  if (layout.size == 0) return std::nullopt;  // a zero-size type: nothing to move (MPI_Unpack rejects a null buffer)
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

}  // namespace topocoll::exec
