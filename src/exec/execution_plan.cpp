// Turning a RankSchedule into an ExecutionPlan: bounds checks, segment coalescing and the
// cached datatypes of single-buffer transfers.
#include "exec/execution_plan.hpp"

#include <algorithm>
#include <string>

#include "exec/byte_datatype.hpp"

namespace topocoll::exec {

namespace {

std::string describe(const Segment& s) {
  return std::string(to_string(s.buffer)) + "[" + std::to_string(s.offset) + ", +" +
         std::to_string(s.length) + ")";
}

class SegmentBounds {
 public:
  SegmentBounds(std::size_t send_bytes, std::size_t recv_bytes, std::size_t scratch_bytes)
      : send_bytes_(send_bytes), recv_bytes_(recv_bytes), scratch_bytes_(scratch_bytes) {}

  MaybeFailure check(const Segment& s) const {
    const std::size_t limit = s.buffer == BufferKind::scratch ? scratch_bytes_
                              : s.buffer == BufferKind::send  ? send_bytes_
                                                              : recv_bytes_;
    if (s.offset > limit || s.length > limit - s.offset) {
      return Failure{MPI_ERR_INTERN, "schedule segment " + describe(s) + " lies outside its " +
                                         std::to_string(limit) + "-byte buffer"};
    }
    return std::nullopt;
  }

 private:
  std::size_t send_bytes_;
  std::size_t recv_bytes_;
  std::size_t scratch_bytes_;
};

// Merges segments that continue each other in the same buffer, drops empty ones, and cuts
// what remains into pieces MPI can count with an int.
std::vector<Segment> coalesce_into_pieces(const std::vector<Segment>& segments) {
  std::vector<Segment> merged;
  for (const Segment& s : segments) {
    if (s.length == 0) continue;
    if (!merged.empty() && merged.back().buffer == s.buffer &&
        merged.back().offset + merged.back().length == s.offset) {
      merged.back().length += s.length;
    } else {
      merged.push_back(s);
    }
  }
  std::vector<Segment> pieces;
  for (const Segment& s : merged) {
    for (std::size_t done = 0; done < s.length; done += kMaxPieceBytes) {
      const std::size_t length = std::min(kMaxPieceBytes, s.length - done);
      pieces.push_back({s.buffer, s.offset + done, length});
    }
  }
  return pieces;
}

MaybeFailure make_relative_hindexed(const std::vector<Segment>& pieces, OwnedDatatype& type) {
  std::vector<int> lengths;
  std::vector<MPI_Aint> displacements;
  const auto first = static_cast<MPI_Aint>(pieces.front().offset);
  for (const Segment& piece : pieces) {
    lengths.push_back(static_cast<int>(piece.length));
    displacements.push_back(static_cast<MPI_Aint>(piece.offset) - first);
  }
  return make_byte_hindexed(lengths, displacements, type);
}

MaybeFailure describe_transfer(const Transfer& transfer, const SegmentBounds& bounds, bool is_receive,
                               std::size_t rounds_left, TransferDescription& out) {
  if (transfer.overlap_rounds >= rounds_left) {
    return Failure{MPI_ERR_INTERN, "schedule keeps a transfer with rank " + std::to_string(transfer.peer) +
                                       " in flight past its last round"};
  }
  out.overlap_rounds = transfer.overlap_rounds;
  for (const Segment& s : transfer.segments) {
    if (auto failure = bounds.check(s)) return failure;
    if (is_receive && s.buffer == BufferKind::send) {
      return Failure{MPI_ERR_INTERN, "schedule receives into the send buffer " + describe(s)};
    }
  }
  out.peer = transfer.peer;
  out.bytes = transfer.bytes();
  std::vector<Segment> pieces = coalesce_into_pieces(transfer.segments);
  if (pieces.empty()) {  // an empty message still has to meet its partner
    out.count = 0;
    return std::nullopt;
  }
  for (const Segment& piece : pieces) {
    if (piece.buffer != pieces.front().buffer) out.mixes_buffers = true;
  }
  if (out.mixes_buffers) {
    out.pieces = std::move(pieces);
    return std::nullopt;
  }
  out.buffer = pieces.front().buffer;
  out.offset = pieces.front().offset;
  if (pieces.size() == 1) {
    out.count = static_cast<int>(pieces.front().length);
    out.type = MPI_BYTE;
    return std::nullopt;
  }
  if (auto failure = make_relative_hindexed(pieces, out.cached_type)) return failure;
  out.count = 1;
  out.type = out.cached_type.get();
  return std::nullopt;
}

// A small transfer that mixes buffers gets a place of its own in the staging area, while the
// plan's staging stays within its bound (kMostStagingBytes).
void stage_if_small(TransferDescription& transfer, ExecutionPlan& plan) {
  if (!is_staged(transfer.bytes, transfer.mixes_buffers, plan.staging_bytes)) return;
  transfer.staged = true;
  transfer.staging_offset = plan.staging_bytes;
  plan.staging_bytes += transfer.bytes;
}

}  // namespace

MaybeFailure build_execution_plan(const RankSchedule& schedule, std::size_t send_bytes, std::size_t recv_bytes,
                                  ExecutionPlan& plan) {
  const SegmentBounds bounds(send_bytes, recv_bytes, schedule.scratch_bytes);
  plan.scratch_bytes = schedule.scratch_bytes;
  plan.staging_bytes = 0;
  plan.rounds.clear();
  plan.rounds.reserve(schedule.rounds.size());
  for (const Round& round : schedule.rounds) {
    const std::size_t rounds_left = schedule.rounds.size() - plan.rounds.size();
    PlannedRound& planned = plan.rounds.emplace_back();
    for (const LocalCopy& copy : round.copies) {
      if (auto failure = bounds.check(copy.from)) return failure;
      if (auto failure = bounds.check(copy.to)) return failure;
      if (copy.from.length != copy.to.length || copy.to.buffer == BufferKind::send) {
        return Failure{MPI_ERR_INTERN, "schedule copy " + describe(copy.from) + " -> " +
                                           describe(copy.to) + " is malformed"};
      }
      planned.copies.push_back(copy);
      (copy.after_posts ? planned.copy_bytes_after_posts : planned.copy_bytes) += copy.from.length;
    }
    for (const Transfer& send : round.sends) {
      if (auto failure = describe_transfer(send, bounds, false, rounds_left, planned.sends.emplace_back())) {
        return failure;
      }
      stage_if_small(planned.sends.back(), plan);
    }
    for (const Transfer& recv : round.recvs) {
      if (auto failure = describe_transfer(recv, bounds, true, rounds_left, planned.recvs.emplace_back())) {
        return failure;
      }
      stage_if_small(planned.recvs.back(), plan);
    }
  }
  return std::nullopt;
}

}  // namespace topocoll::exec
