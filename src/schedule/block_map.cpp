#include "schedule/block_map.hpp"

namespace topocoll {

KnownBlocks::KnownBlocks(std::vector<std::vector<std::size_t>> bytes, std::size_t gap) : bytes_(std::move(bytes)) {
  const std::size_t p = bytes_.size();
  send_offsets_.assign(p, std::vector<std::size_t>(p, 0));
  recv_offsets_.assign(p, std::vector<std::size_t>(p, 0));
  for (std::size_t r = 0; r < p; ++r) {
    std::size_t sent = 0, received = 0;
    for (std::size_t q = 0; q < p; ++q) {
      send_offsets_[r][q] = sent;
      sent += bytes_[r][q] + gap;
      recv_offsets_[r][q] = received;
      received += bytes_[q][r] + gap;
    }
  }
}

}  // namespace topocoll
