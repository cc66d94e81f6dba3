// Heap or SMPI-shared message buffers and the validation data pattern (see bench_buffers.hpp).
#include "bench_buffers.hpp"

#include <cstdint>
#include <new>
#include <stdexcept>

#ifdef TOPOCOLL_SMPI
#include <smpi/smpi.h>
#endif

namespace topocoll::bench {

MessageBuffer::MessageBuffer(std::size_t bytes, bool smpi_shared) : smpi_shared_(smpi_shared) {
  const std::size_t allocated = bytes == 0 ? 1 : bytes;
#ifdef TOPOCOLL_SMPI
  if (smpi_shared_) {
    data_ = static_cast<std::byte*>(SMPI_SHARED_MALLOC(allocated));
    if (data_ == nullptr) throw std::bad_alloc();
    return;
  }
#else
  if (smpi_shared_) throw std::logic_error("SMPI shared buffers need the SMPI build");
#endif
  data_ = new std::byte[allocated];
}

MessageBuffer::~MessageBuffer() {
#ifdef TOPOCOLL_SMPI
  if (smpi_shared_) {
    SMPI_SHARED_FREE(data_);
    return;
  }
#endif
  delete[] data_;
}

namespace {

std::byte pattern_byte(int source, int destination, std::size_t offset) {
  // A unique key for p < 65536 and blocks below 4 GiB, mixed by splitmix64's finaliser so that
  // neighbouring keys give unrelated bytes.
  std::uint64_t x = (static_cast<std::uint64_t>(source) << 48) | (static_cast<std::uint64_t>(destination) << 32) |
                    static_cast<std::uint64_t>(offset);
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return static_cast<std::byte>(x ^ (x >> 31));
}

}  // namespace

void fill_send_pattern(std::span<std::byte> send, int rank, std::span<const int> counts) {
  std::byte* block = send.data();
  for (std::size_t destination = 0; destination < counts.size(); ++destination) {
    const auto bytes = static_cast<std::size_t>(counts[destination]);
    for (std::size_t i = 0; i < bytes; ++i) block[i] = pattern_byte(rank, static_cast<int>(destination), i);
    block += bytes;
  }
}

void fill_complement(std::span<std::byte> target, std::span<const std::byte> reference) {
  for (std::size_t i = 0; i < target.size(); ++i) target[i] = ~reference[i];
}

}  // namespace topocoll::bench
