#include "schedule/block_map.hpp"

#include <utility>

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

DestinationBlocks::DestinationBlocks(std::vector<std::size_t> bytes_to)
    : bytes_to_(std::move(bytes_to)), send_offsets_(bytes_to_.size(), 0) {
  std::size_t sent = 0;
  for (std::size_t d = 0; d < bytes_to_.size(); ++d) {
    send_offsets_[d] = sent;
    sent += bytes_to_[d];
  }
}

RootedBlocks::RootedBlocks(Flow flow, int root, std::vector<std::size_t> bytes, std::vector<std::size_t> displacements)
    : flow_(flow), root_(root), bytes_(std::move(bytes)), displacements_(std::move(displacements)) {}

RootedBlocks RootedBlocks::uniform(Flow flow, int root, int size, std::size_t block_bytes) {
  std::vector<std::size_t> displacements(static_cast<std::size_t>(size));
  for (std::size_t d = 0; d < displacements.size(); ++d) displacements[d] = d * block_bytes;
  return RootedBlocks(flow, root, std::vector<std::size_t>(static_cast<std::size_t>(size), block_bytes),
                      std::move(displacements));
}

std::size_t RootedBlocks::bytes(int src, int dst) const {
  if (flow_ == Flow::from_root) return src == root_ ? bytes_[dst] : 0;
  return dst == root_ ? bytes_[src] : 0;
}

std::size_t RootedBlocks::send_offset(int rank, int dst) const {
  return flow_ == Flow::from_root && rank == root_ ? displacements_[dst] : 0;
}

std::size_t RootedBlocks::recv_offset(int rank, int src) const {
  return flow_ == Flow::to_root && rank == root_ ? displacements_[src] : 0;
}

}  // namespace topocoll
