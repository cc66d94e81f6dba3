// Message buffers of topocoll-bench: ordinary heap memory, or (SMPI only) SMPI_SHARED_MALLOC
// memory that all simulated ranks share, for timing-only points whose data is garbage.
// Also the data pattern that makes a misplaced or missing byte visible to validation.
#pragma once

#include <cstddef>
#include <span>

namespace topocoll::bench {

class MessageBuffer {
 public:
  MessageBuffer(std::size_t bytes, bool smpi_shared);
  ~MessageBuffer();
  MessageBuffer(const MessageBuffer&) = delete;
  MessageBuffer& operator=(const MessageBuffer&) = delete;

  std::byte* data() { return data_; }
  std::span<std::byte> first(std::size_t bytes) { return {data_, bytes}; }

 private:
  std::byte* data_ = nullptr;
  bool smpi_shared_ = false;
};

// Fills `send` (blocks of counts[q] bytes for destination q, packed in order) so that every
// byte depends on the sending rank, the destination block and the offset in the block.
void fill_send_pattern(std::span<std::byte> send, int rank, std::span<const int> counts);

// Sets every byte of `target` to the complement of the byte at the same place in `reference`,
// so that a byte the operation under test leaves unwritten cannot pass as correct.
void fill_complement(std::span<std::byte> target, std::span<const std::byte> reference);

}  // namespace topocoll::bench
