// Which transfers the executor stages: a transfer whose pieces lie in more than one buffer
// (bruck's send and scratch blocks, lg's own block beside those it collected) and is small goes
// through a staging area, its pieces copied there before the send or out of it once the receive
// has completed, instead of through a datatype with absolute addresses made on every call
// (exec/execution_plan.hpp says why). The fluid model (model/fluid_schedule.hpp) charges those
// copies as the executor does, so the rule lives here, below both.
#pragma once

#include <cstddef>
#include <span>

#include "schedule/schedule.hpp"

namespace topocoll {

// The largest transfer that is staged, and the most a rank's plan stages in all (transfers
// beyond go by datatype).
inline constexpr std::size_t kMostPackedBytes = 2048;
inline constexpr std::size_t kMostStagingBytes = std::size_t{256} << 10;

// Whether the non-empty segments lie in more than one buffer.
inline bool mixes_buffers(std::span<const Segment> segments) {
  const Segment* first = nullptr;
  for (const Segment& s : segments) {
    if (s.length == 0) continue;
    if (first == nullptr) {
      first = &s;
    } else if (s.buffer != first->buffer) {
      return true;
    }
  }
  return false;
}

// Whether a transfer of `bytes` is staged, when `staged_so_far` bytes of the rank's earlier
// transfers are (the plan's order: round by round, each round's sends, then its receives).
inline bool is_staged(std::size_t bytes, bool mixes, std::size_t staged_so_far) {
  return mixes && bytes <= kMostPackedBytes && staged_so_far + bytes <= kMostStagingBytes;
}

}  // namespace topocoll
