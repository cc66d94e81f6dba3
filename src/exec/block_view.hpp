// The byte layout of one side (send or receive) of a call, one block per peer, and what one
// rank knows of the operation's blocks (a BlockMap for the algorithms' plans).
//  - Plain-byte datatypes: block q is the user's bytes at displs[q] * extent, no copies (the
//    byte buffer starts at the lowest block, which a negative displacement puts before the
//    buffer argument).
//  - Other datatypes: blocks are packed one after another into a staging buffer.
#pragma once

#include <cstddef>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "schedule/block_map.hpp"

namespace topocoll::exec {

struct SideLayout {
  std::vector<std::size_t> offset;  // byte offset of block q in the byte buffer
  std::vector<std::size_t> bytes;   // its size
  std::size_t total = 0;            // bytes the byte buffer must hold
  bool staged = false;              // packed copy rather than the user's buffer
  // Unstaged: where the byte buffer starts, in bytes from the user's buffer argument (0, or
  // negative when a block lies before it: MPI allows negative displacements).
  std::ptrdiff_t base = 0;
  // Where block q lies in the user's buffer: `elements[q]` elements of the side's datatype at
  // `displs[q]` extents from its start (what packing and unpacking walk; may be negative).
  std::vector<std::size_t> elements;
  std::vector<std::ptrdiff_t> displs;

  // Empty, keeping the vectors' memory for the next layout.
  void clear() {
    offset.clear();
    bytes.clear();
    total = 0;
    staged = false;
    base = 0;
    elements.clear();
    displs.clear();
  }
};

// Rank `rank`'s blocks, the sizes it was told (block src -> dst, from src), and for the
// others the sizes every rank knows alike (`others`: scatter's and gather's uniform layout),
// when there is such a map.
class LocalBlocks final : public BlockMap {
 public:
  LocalBlocks(int rank, const SideLayout& send, const SideLayout& recv, const BlockMap* others = nullptr)
      : rank_(rank), send_(send), recv_(recv), others_(others) {}
  void tell(int src, int dst, std::size_t bytes) { told_[{src, dst}] = bytes; }

  std::size_t bytes(int src, int dst) const override {
    if (src == rank_) return send_.bytes.at(static_cast<std::size_t>(dst));
    if (dst == rank_) return recv_.bytes.at(static_cast<std::size_t>(src));
    auto it = told_.find({src, dst});
    if (it == told_.end() && others_ != nullptr) return others_->bytes(src, dst);
    if (it == told_.end()) {
      throw std::logic_error("the schedule asked for the size of block " + std::to_string(src) + "->" +
                             std::to_string(dst) + ", which this rank was not told");
    }
    return it->second;
  }
  std::size_t send_offset(int, int dst) const override { return send_.offset.at(static_cast<std::size_t>(dst)); }
  std::size_t recv_offset(int, int src) const override { return recv_.offset.at(static_cast<std::size_t>(src)); }

 private:
  int rank_;
  const SideLayout& send_;
  const SideLayout& recv_;
  const BlockMap* others_;
  std::map<std::pair<int, int>, std::size_t> told_;
};

}  // namespace topocoll::exec
