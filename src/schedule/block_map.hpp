// Where every block of a total exchange lies and how big it is. For MPI_Alltoall every block
// has the same size B and block d sits at d*B; for MPI_Alltoallv sizes and places vary per
// pair, and a rank knows only its own blocks plus whatever sizes it was told (the executor
// exchanges the ones an algorithm asks for, see AlltoallAlgorithm::sizes_from).
#pragma once

#include <cstddef>
#include <vector>

namespace topocoll {

class BlockMap {
 public:
  virtual ~BlockMap() = default;
  // Bytes of block src -> dst.
  virtual std::size_t bytes(int src, int dst) const = 0;
  // Byte offset of block rank -> dst in rank's send buffer.
  virtual std::size_t send_offset(int rank, int dst) const = 0;
  // Byte offset of block src -> rank in rank's receive buffer.
  virtual std::size_t recv_offset(int rank, int src) const = 0;
};

// Every size and place known: for the verifier, statistics and tests of alltoallv schedules.
// Blocks are laid out in destination (send) and source (receive) order, unless `gap` adds
// that many unused bytes after each block (to catch writes outside a block).
class KnownBlocks final : public BlockMap {
 public:
  // bytes[src][dst]
  explicit KnownBlocks(std::vector<std::vector<std::size_t>> bytes, std::size_t gap = 0);
  std::size_t bytes(int src, int dst) const override { return bytes_[src][dst]; }
  std::size_t send_offset(int rank, int dst) const override { return send_offsets_[rank][dst]; }
  std::size_t recv_offset(int rank, int src) const override { return recv_offsets_[rank][src]; }
  int size() const { return static_cast<int>(bytes_.size()); }

 private:
  std::vector<std::vector<std::size_t>> bytes_, send_offsets_, recv_offsets_;
};

}  // namespace topocoll
