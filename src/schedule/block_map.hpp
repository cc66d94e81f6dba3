// Where every block of a total exchange lies and how big it is. For MPI_Alltoall every block
// has the same size B and block d sits at d*B; for MPI_Alltoallv sizes and places vary per
// pair, and a rank knows only its own blocks plus whatever sizes it was told (the executor
// exchanges the ones an algorithm asks for, see Algorithm::size_questions).
#pragma once

#include <cstddef>
#include <vector>

#include "schedule/operation.hpp"

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

// Every sender's block to rank d of bytes[d] bytes (traffic that depends on the destination
// alone: a hot spot, a Zipf law over the receivers), laid out as KnownBlocks lays them out, in
// O(p) memory where KnownBlocks takes O(p^2): what lets a tool read such an alltoallv at 16384 ranks.
class DestinationBlocks final : public BlockMap {
 public:
  explicit DestinationBlocks(std::vector<std::size_t> bytes_to);
  std::size_t bytes(int, int dst) const override { return bytes_to_[dst]; }
  std::size_t send_offset(int, int dst) const override { return send_offsets_[dst]; }
  std::size_t recv_offset(int rank, int src) const override { return static_cast<std::size_t>(src) * bytes_to_[rank]; }

 private:
  std::vector<std::size_t> bytes_to_, send_offsets_;
};

// Blocks of one size B, block d at d*B in both buffers: MPI_Alltoall's layout.
class UniformBlocks final : public BlockMap {
 public:
  explicit UniformBlocks(std::size_t block_bytes) : b_(block_bytes) {}
  std::size_t bytes(int, int) const override { return b_; }
  std::size_t send_offset(int, int dst) const override { return static_cast<std::size_t>(dst) * b_; }
  std::size_t recv_offset(int, int src) const override { return static_cast<std::size_t>(src) * b_; }

 private:
  std::size_t b_;
};

// Scatter's and gather's layout: the root's row (scatter: block root -> d) or column (gather:
// block d -> root) of the matrix, every other block empty. Block d has bytes[d] bytes at
// displacement[d] in the root's buffer (its send buffer for scatter, its receive buffer for
// gather) and at offset 0 in rank d's other buffer, as MPI_Scatterv and MPI_Gatherv place them.
class RootedBlocks final : public BlockMap {
 public:
  enum class Flow : bool { from_root, to_root };
  RootedBlocks(Flow flow, int root, std::vector<std::size_t> bytes, std::vector<std::size_t> displacements);
  // The way an operation's blocks flow: from the root for scatter and scatterv, to it otherwise.
  static Flow flow_of(Operation operation) { return flows_from_root(operation) ? Flow::from_root : Flow::to_root; }
  // MPI_Scatter's and MPI_Gather's layout: p blocks of B bytes, block d at d*B at the root.
  static RootedBlocks uniform(Flow flow, int root, int size, std::size_t block_bytes);

  std::size_t bytes(int src, int dst) const override;
  std::size_t send_offset(int rank, int dst) const override;
  std::size_t recv_offset(int rank, int src) const override;
  int root() const { return root_; }
  int size() const { return static_cast<int>(bytes_.size()); }

 private:
  Flow flow_;
  int root_;
  std::vector<std::size_t> bytes_, displacements_;
};

}  // namespace topocoll
