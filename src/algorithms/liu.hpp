// Liu, Wang and Prasanna's four-stage irregular all-to-all (alltoallv), as read in
// papers/NOTES.md: the ranks form a grid; stages 1 and 2 spread each rank's outgoing data
// evenly over all ranks (a row exchange, then a column exchange), stages 3 and 4 carry every
// piece to its destination (row, then column). Each stage is an all-to-all inside groups of
// about sqrt(p) ranks, so a rank starts about 2(r-1) + 2(c-1) messages instead of p-1, and no
// rank sends much more than the average in the first two stages.
//
// Sizes travel with the data: every message starts with a header listing the pieces it
// carries, so no rank needs the p x p matrix of counts. The routing below is the one
// description of the algorithm: the executor (exec/liu_exchange) runs it on one rank with real
// headers, and plan_liu (liu_plan.cpp) runs it for all ranks at once into a schedule for the
// verifier, the statistics and the cost model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "algorithms/problem.hpp"
#include "algorithms/round_plan.hpp"

namespace topocoll {

// Rows of `columns` ranks, rank q at row q / columns and column q % columns. With s =
// ceil(sqrt(p)): the columns are the smallest divisor c >= s of p when c + p/c <= 2s + 1 (an
// exact r x c grid, no more start-ups than the square one plus one); otherwise c = s and the
// last row is short (see corner()).
struct LiuGrid {
  int size = 1, rows = 1, columns = 1;

  explicit LiuGrid(int p);
  int row(int q) const { return q / columns; }
  int column(int q) const { return q % columns; }
  bool exists(int row, int column) const { return row >= 0 && column >= 0 && column < columns && row * columns + column < size; }
  // Ranks in the last row when it is short, else 0.
  int short_row_length() const { return size % columns; }
  // The first hop from `holder` toward `target`: holder's row, target's column; where the
  // short last row has no such place, target's row and holder's column (which always exists).
  int corner(int holder, int target) const;
  // Stages 0..3. Whom `rank` sends one message to in `stage` (every one of them, empty or
  // not), and whom it receives one from; neither includes the rank itself.
  std::vector<int> send_peers(int stage, int rank) const;
  std::vector<int> recv_peers(int stage, int rank) const;
};

inline constexpr int kLiuStages = 4;

// A piece of block src -> dst: `length` bytes from byte `offset` of the block, routed through
// rank `via` (its share of the spreading).
struct LiuPiece {
  std::int32_t src = 0, dst = 0, via = 0;
  std::uint64_t offset = 0, length = 0;
  friend bool operator==(const LiuPiece&, const LiuPiece&) = default;
};

// Rank `rank`'s outgoing data (its blocks to the other ranks, in destination order; the block
// to itself is a local copy) cut into p parts of equal size, part k through rank k, as pieces:
// a block longer than two parts is cut at the parts' boundaries, a shorter one goes whole with
// the part where it starts (so a part carries at most three times its share). `send_bytes[d]` is the
// size of the rank's block to d.
std::vector<LiuPiece> liu_spread(const LiuGrid& grid, int rank, std::span<const std::size_t> send_bytes);

// Where `holder` sends `piece` in `stage` (itself: the piece stays).
int liu_next_hop(const LiuGrid& grid, int stage, int holder, const LiuPiece& piece);

// A message is a header, then the payloads of its pieces in header order. The header: the
// message's length in bytes and its number of pieces (u64 each), then per piece src, dst, via
// (u32 each), an unused u32, offset and length (u64 each): 32 bytes a piece, little or big
// endian as the machine's (every rank of a job runs the same library).
std::size_t liu_header_bytes(std::size_t pieces);
void liu_write_header(std::span<const LiuPiece> pieces, std::size_t message_bytes, std::byte* out);
// The message length a header announces (its first 8 bytes).
std::uint64_t liu_message_bytes(const std::byte* header);
// Reads the pieces of a whole message of `bytes` bytes; false (with `why`) when the header
// does not describe such a message.
bool liu_read_header(const std::byte* message, std::size_t bytes, int size, std::vector<LiuPiece>& pieces,
                     std::string& why);

// A message's first part carries at most this many bytes, received into a buffer of that
// size posted in advance; a longer message sends the rest as a second message, which the
// receiver posts once the header has told it the length. Small messages, where start-ups
// matter, thus cost one start-up each, without probing.
inline constexpr std::size_t kLiuFirstPartBytes = 16384;

// Every rank's schedule at once: needs every block's size (the verifier's, the model's
// uniform stand-in), never a single rank's LocalBlocks.
std::unique_ptr<RoundPlan> plan_liu(const Problem& problem);

}  // namespace topocoll
