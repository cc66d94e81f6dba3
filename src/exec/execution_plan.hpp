// A rank's RankSchedule made ready for MPI, once per (algorithm, block size, knobs) and then
// cached: adjacent segments coalesced, bounds checked, and every transfer whose segments all
// live in one buffer described by a byte count or by a committed hindexed datatype relative to
// that buffer's base, so repeated calls only look things up. A transfer that mixes buffers
// (bruck's send and scratch blocks) keeps its pieces; the executor describes it per call with
// absolute addresses, since the buffers move between calls.
#pragma once

#include <cstddef>
#include <vector>

#include "exec/failure.hpp"
#include "exec/mpi_handles.hpp"
#include "schedule/schedule.hpp"
#include "schedule/staging_rule.hpp"

namespace topocoll::exec {

// Longest piece one hindexed block or one MPI count can describe.
inline constexpr std::size_t kMaxPieceBytes = 0x7fffffff;

// A transfer that mixes buffers and carries at most kMostPackedBytes goes through the walk's
// staging area instead of a per-call datatype (schedule/staging_rule.hpp): its pieces copied there
// before the send, or out of it once the receive has completed. A datatype with absolute
// addresses costs an MPI_Type_create_hindexed, a commit and a free on every call: measured with
// callgrind at 16 ranks, about 2600 instructions a message under Open MPI 4.1 (bruck's 8
// messages: about 3.5 us of a 17 us call on a 16-core node), where copying 64 bytes twice costs a
// few nanoseconds. Above it a copy of the data costs more than the datatype. A plan stages at most
// kMostStagingBytes in all (its transfers beyond go by datatype).

struct TransferDescription {
  int peer = 0;
  std::size_t bytes = 0;
  std::size_t overlap_rounds = 0;  // completes by the end of this many rounds later
  // Buffer base + offset, `count` elements of `type`; valid when !mixes_buffers.
  BufferKind buffer = BufferKind::send;
  std::size_t offset = 0;
  int count = 0;
  MPI_Datatype type = MPI_BYTE;  // MPI_BYTE, or cached_type.get()
  OwnedDatatype cached_type;
  // Valid when mixes_buffers: the coalesced pieces, each at most kMaxPieceBytes long.
  bool mixes_buffers = false;
  std::vector<Segment> pieces;
  // mixes_buffers and small: sent from (received into) the walk's staging area at this offset.
  bool staged = false;
  std::size_t staging_offset = 0;
};

struct PlannedRound {
  std::vector<LocalCopy> copies;
  std::size_t copy_bytes = 0;              // of the copies before the posts
  std::size_t copy_bytes_after_posts = 0;  // of those after (LocalCopy::after_posts)
  std::vector<TransferDescription> sends;
  std::vector<TransferDescription> recvs;
};

struct ExecutionPlan {
  std::vector<PlannedRound> rounds;
  std::size_t scratch_bytes = 0;
  std::size_t staging_bytes = 0;  // the staged transfers', each at an offset of its own
};

// `send_bytes` and `recv_bytes` are the sizes of the send and receive byte buffers (p * block
// bytes for alltoall). Fails with MPI_ERR_INTERN when the schedule reaches outside a buffer or
// writes the send buffer.
MaybeFailure build_execution_plan(const RankSchedule& schedule, std::size_t send_bytes, std::size_t recv_bytes,
                                  ExecutionPlan& plan);

}  // namespace topocoll::exec
