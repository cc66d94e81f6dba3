// The schedule verifier: runs a Schedule symbolically for all ranks at once and proves that
//  - every segment lies inside its buffer, and nothing writes the caller's send buffer;
//  - every send meets, in the same round, a receive of the same size from the same peer (the
//    k-th send to a peer in a round meets that peer's k-th receive from the sender: MPI's
//    matching order), so no round can deadlock: by the round semantics of schedule.hpp, a
//    round whose messages all match completes on every rank;
//  - no receive overlaps another receive or a send of the same round (MPI forbids touching
//    a buffer in use), and no send reads bytes that nothing has written yet;
//  - a transfer kept in flight across rounds (overlap_rounds) completes within its rank's
//    rounds, no later copy or transfer touches the bytes its receive fills or writes the
//    bytes its send reads until it completes, and its data lands only then;
//  - at the end, every byte of block i->j sits at its place in rank j's receive buffer,
//    written there exactly once.
#pragma once

#include <string>
#include <vector>

#include "schedule/block_map.hpp"
#include "schedule/schedule.hpp"

namespace topocoll {

struct Verdict {
  bool ok = true;
  std::vector<std::string> errors;  // the first few problems found, each naming rank and round
  std::string summary() const;
};

// Blocks of schedule.block_bytes each, block d at d * block_bytes (MPI_Alltoall).
Verdict verify(const Schedule& schedule);
// Blocks of the sizes and places `blocks` gives (MPI_Alltoallv). Receive-buffer bytes outside
// every block must stay unwritten.
Verdict verify(const Schedule& schedule, const BlockMap& blocks);

}  // namespace topocoll
