// Walks one rank's ExecutionPlan on the private communicator. Each round: its local copies
// (memcpy, charged under SMPI), then all its receives and sends posted with MPI_Irecv and
// MPI_Isend under the call's own tag (MPI's non-overtaking order matches several messages
// between two ranks in one round in order, and a round ends only when all its requests have
// completed),
// then wait for all of them, except those the schedule keeps in flight across rounds
// (overlap_rounds), which are waited for at the end of their completion round (unless
// requests are bounded: see ExecutionSettings).
#pragma once

#include <mpi.h>

#include <cstddef>

#include "exec/execution_plan.hpp"
#include "exec/failure.hpp"

namespace topocoll::exec {

// The contiguous byte buffers a schedule addresses: send and recv hold p blocks each.
struct ByteBuffers {
  const std::byte* send = nullptr;
  std::byte* recv = nullptr;
  std::byte* scratch = nullptr;
};

struct ExecutionSettings {
  // 0: post a whole round at once, receives first. n > 0: at most max(n, 2) requests in
  // flight, every request counted, those the schedule keeps in flight across rounds too (they
  // then complete within their own round); a round is posted peer by peer in one global order
  // of the pairs of ranks, which no bounded window can deadlock (executor.cpp). Two is the
  // floor because with one request every rank could sit on a receive (or a rendezvous send)
  // whose partner never gets to post its side.
  int max_requests = 0;
  double copy_bandwidth = 0.0;  // bytes per second, charged under SMPI
  // A rank whose own arguments failed their checks still walks the plan its peers walk, with
  // no buffers: every message it sends is empty, every receive takes 0 bytes (what arrives is
  // discarded), no copy is made. Its peers then see the empty messages as a failure of their
  // own, the tags stay in step and no peer waits.
  bool hollow = false;
};

// Walks every round even after a failure (a failed post, a message of the wrong size) and
// returns the first failure once all its requests have completed: a call whose ranks disagree
// ends on every rank that takes part, instead of leaving peers waiting. After a failure the
// rank's later rounds send empty messages: what it would forward may hold what it failed to
// receive, and an empty message makes every rank downstream fail too, where forwarded
// garbage would let one return MPI_SUCCESS with wrong data. `tag` is the call's
// own (CommState::next_call_tags), so a message of one call is never matched by another.
MaybeFailure execute_plan(const ExecutionPlan& plan, const ByteBuffers& buffers, MPI_Comm comm, int tag,
                          const ExecutionSettings& settings);

}  // namespace topocoll::exec
