// The schedule: a plain value describing, for every rank, what it sends, receives and copies
// in each round. No MPI type appears here; the executor, the verifier, the statistics and the
// plan printer all consume this one representation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace topocoll {

// Which memory a segment lives in. `send` and `recv` are the caller's buffers seen as
// contiguous bytes (p blocks of block_bytes each); `scratch` is library-owned.
enum class BufferKind : std::uint8_t { send, recv, scratch };

std::string_view to_string(BufferKind kind);

// A byte range [offset, offset + length) in one buffer.
struct Segment {
  BufferKind buffer = BufferKind::send;
  std::size_t offset = 0;
  std::size_t length = 0;
  friend bool operator==(const Segment&, const Segment&) = default;
};

// One message: to (send) or from (receive) `peer`, gathering or scattering `segments` in
// order. Its size is the sum of the segment lengths. `overlap_rounds` = k > 0 keeps it in
// flight while the next k rounds run: posted in round t, it completes by the end of round
// t + k (see Round).
struct Transfer {
  int peer = 0;
  std::vector<Segment> segments;
  std::size_t overlap_rounds = 0;
  std::size_t bytes() const;
};

// A local copy of `from.length` bytes; from.length == to.length. `after_posts`: it runs once
// the round's transfers are posted, while they are in flight, so that its time hides behind
// theirs (a rooted root's own block); it may then touch no byte they read or fill.
struct LocalCopy {
  Segment from;
  Segment to;
  bool after_posts = false;
};

// Semantics of a round, on each rank: first the local copies run in order; then every send
// and receive of the round is posted; then the copies marked after_posts run, in order; the
// round ends when all of them have completed, except
// those with overlap_rounds = k > 0, which complete by the end of round t + k (t this round;
// t + k must be a round of the rank). A send reads the state left by earlier rounds and this
// round's copies, and its bytes must not change until it completes; a receive's data is
// visible from the round after it completes, and nothing may read or write its bytes before.
// A send and its receive are posted in the same round (their overlap_rounds may differ).
// Several messages between two ranks in one round match in list order: the k-th send to a
// peer meets the peer's k-th receive from the sender (the executor posts each list in order,
// and MPI does not let messages between two ranks overtake). Posting in round order on both
// sides keeps MPI's matching order, and no round can deadlock: the partner of every transfer
// due at the end of round t posted its side in a round <= t.
struct Round {
  std::vector<LocalCopy> copies;
  std::vector<Transfer> sends;
  std::vector<Transfer> recvs;
};

// What one rank does. `scratch_bytes` is the library scratch it needs. `metadata` lists scratch
// ranges the library fills itself before they are sent (liu's message headers, which tell the
// receiver what the rest of the message holds): they count as written from the start, and
// carry no block's data.
struct RankSchedule {
  std::vector<Round> rounds;
  std::size_t scratch_bytes = 0;
  std::vector<Segment> metadata;
};

// Every rank's part, for the verifier, statistics and printer. The executor builds only its
// own rank's RankSchedule.
struct Schedule {
  int size = 0;                  // number of ranks p
  std::size_t block_bytes = 0;   // bytes of each block i->j
  std::vector<RankSchedule> ranks;
};

// Convenience builders used by the algorithms.
inline Segment send_block(std::size_t block, std::size_t block_bytes) {
  return {BufferKind::send, block * block_bytes, block_bytes};
}
inline Segment recv_block(std::size_t block, std::size_t block_bytes) {
  return {BufferKind::recv, block * block_bytes, block_bytes};
}
inline Segment scratch_range(std::size_t offset, std::size_t length) {
  return {BufferKind::scratch, offset, length};
}

}  // namespace topocoll
