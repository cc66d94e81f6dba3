// The executor proper: copies, posting order and the per-call datatypes of transfers that
// mix buffers (hindexed of MPI_BYTE with absolute addresses, sent from MPI_BOTTOM), and
// transfers kept in flight across rounds.
#include "exec/executor.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "algorithms/edge_colouring.hpp"
#include "exec/byte_datatype.hpp"
#include "exec/copy_cost.hpp"
#include "exec/mpi_handles.hpp"
#include "exec/request_window.hpp"
#include "exec/reused.hpp"

namespace topocoll::exec {

namespace {

std::byte* base_of(const ByteBuffers& buffers, BufferKind kind) {
  switch (kind) {
    case BufferKind::send: return const_cast<std::byte*>(buffers.send);  // only ever read
    case BufferKind::recv: return buffers.recv;
    case BufferKind::scratch: return buffers.scratch;
  }
  return nullptr;
}

// The round's copies before its posts, or (after_posts) those after.
void run_local_copies(const PlannedRound& round, const ByteBuffers& buffers, const ExecutionSettings& settings,
                      bool after_posts) {
  if (settings.hollow) return;
  const double copy_bandwidth = settings.copy_bandwidth;
  for (const LocalCopy& copy : round.copies) {
    if (copy.after_posts != after_posts) continue;
    if (copy.from.length == 0) continue;  // empty blocks of null buffers are valid MPI input
    std::memmove(base_of(buffers, copy.to.buffer) + copy.to.offset,
                 base_of(buffers, copy.from.buffer) + copy.from.offset, copy.from.length);
  }
  charge_local_copy(after_posts ? round.copy_bytes_after_posts : round.copy_bytes, copy_bandwidth);
}

MaybeFailure make_absolute_hindexed(const std::vector<Segment>& pieces, const ByteBuffers& buffers,
                                    OwnedDatatype& type) {
  std::vector<int> lengths;
  std::vector<MPI_Aint> addresses;
  lengths.reserve(pieces.size());
  addresses.reserve(pieces.size());
  for (const Segment& piece : pieces) {
    MPI_Aint address = 0;
    const int rc = MPI_Get_address(base_of(buffers, piece.buffer) + piece.offset, &address);
    if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Get_address", rc);
    lengths.push_back(static_cast<int>(piece.length));
    addresses.push_back(address);
  }
  return make_byte_hindexed(lengths, addresses, type);
}

// A staged transfer's pieces into the staging area (`into_staging`: before a send), or out of
// it into their places (after a receive); charged as local copies under SMPI.
void copy_staged(const TransferDescription& transfer, const ByteBuffers& buffers, std::byte* staging,
                 bool into_staging, double copy_bandwidth) {
  std::byte* at = staging + transfer.staging_offset;
  for (const Segment& piece : transfer.pieces) {
    std::byte* place = base_of(buffers, piece.buffer) + piece.offset;
    if (into_staging) {
      std::memcpy(at, place, piece.length);
    } else {
      std::memcpy(place, at, piece.length);
    }
    at += piece.length;
  }
  charge_local_copy(transfer.bytes, copy_bandwidth);
}

// The point-to-point call for a transfer that mixes buffers: staged (a send copied into
// `staging` here; a receive lands there, for the caller to copy out once it has completed) or
// by a per-call datatype, kept in `call_types` until the round has completed.
MaybeFailure to_mixed_point_to_point(const TransferDescription& transfer, PointToPoint::Direction direction,
                                     const ByteBuffers& buffers, std::byte* staging, double copy_bandwidth,
                                     std::vector<OwnedDatatype>& call_types, PointToPoint& operation) {
  if (transfer.staged) {
    if (direction == PointToPoint::Direction::send) copy_staged(transfer, buffers, staging, true, copy_bandwidth);
    operation.buffer = staging + transfer.staging_offset;
    operation.count = static_cast<int>(transfer.bytes);
    operation.type = MPI_BYTE;
    return std::nullopt;
  }
  OwnedDatatype& type = call_types.emplace_back();
  if (auto failure = make_absolute_hindexed(transfer.pieces, buffers, type)) return failure;
  operation.buffer = MPI_BOTTOM;
  operation.count = 1;
  operation.type = type.get();
  return std::nullopt;
}

// The point-to-point call for one transfer. `empty`: the message goes without data
// (ExecutionSettings::hollow, or a send after a failure). The common cases (no data, or one
// buffer) are written here, inline, since a walk makes one call per message.
inline MaybeFailure to_point_to_point(const TransferDescription& transfer, PointToPoint::Direction direction,
                                      const ByteBuffers& buffers, std::byte* staging, double copy_bandwidth,
                                      bool empty, std::vector<OwnedDatatype>& call_types, PointToPoint& operation) {
  operation.direction = direction;
  operation.peer = transfer.peer;
  if (empty) {
    operation.buffer = nullptr;
    operation.count = 0;
    operation.type = MPI_BYTE;
    operation.bytes = 0;
    return std::nullopt;
  }
  operation.bytes = transfer.bytes;
  if (!transfer.mixes_buffers) {
    operation.buffer = base_of(buffers, transfer.buffer) + transfer.offset;
    operation.count = transfer.count;
    operation.type = transfer.type;
    return std::nullopt;
  }
  return to_mixed_point_to_point(transfer, direction, buffers, staging, copy_bandwidth, call_types, operation);
}

using Posting = std::pair<const TransferDescription*, PointToPoint::Direction>;

// Schedule order for posting: receives then sends when unbounded. In a bounded window, the
// round's messages go peer by peer, peers in the order of the colour in which this rank meets
// them in a 1-factorisation of all pairs (edge_colouring.hpp), and with each peer receive i
// then send i: every rank orders its pairs by one global order, so the first pair not yet
// done has both of its sides posted at the front of their windows (of 2 or more) and
// completes; no bounded round can deadlock, whatever its peers. The order of the messages
// between two ranks, which MPI matching follows, is the schedule's.
// `order` is the caller's, reused from round to round.
void posting_order(const PlannedRound& round, bool bounded, int rank, int size, std::vector<Posting>& order) {
  using Direction = PointToPoint::Direction;
  order.clear();
  order.reserve(round.recvs.size() + round.sends.size());
  if (!bounded) {
    for (const TransferDescription& t : round.recvs) order.emplace_back(&t, Direction::receive);
    for (const TransferDescription& t : round.sends) order.emplace_back(&t, Direction::send);
    return;
  }
  const std::size_t pairs = std::max(round.recvs.size(), round.sends.size());
  for (std::size_t i = 0; i < pairs; ++i) {
    if (i < round.recvs.size()) order.emplace_back(&round.recvs[i], Direction::receive);
    if (i < round.sends.size()) order.emplace_back(&round.sends[i], Direction::send);
  }
  const auto colour = [&](const Posting& posting) {
    const int peer = posting.first->peer;
    return peer == rank ? -1 : edge_colour_of(rank, peer, size);  // a rank's own messages first
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](const Posting& a, const Posting& b) { return colour(a) < colour(b); });
}

// A round in which the rank only sends one message, kept in no later round and overlapping no
// copy: it goes out as a blocking MPI_Send, as MPI libraries' own trees send up or down. The
// same as MPI_Isend and a wait in MPI's semantics, without a request; SMPI (3.32) charges its
// per-message overhead smpi/ois to every MPI_Isend but smpi/os to a blocking send only below
// the eager limit, so this is also what keeps a simulated tree priced as the native one.
bool is_lone_send(const PlannedRound& round) {
  return round.sends.size() == 1 && round.recvs.empty() && round.sends.front().overlap_rounds == 0 &&
         std::none_of(round.copies.begin(), round.copies.end(), [](const LocalCopy& c) { return c.after_posts; });
}

}  // namespace

MaybeFailure execute_plan(const ExecutionPlan& plan, const ByteBuffers& buffers, MPI_Comm comm, int tag,
                          const ExecutionSettings& settings) {
  Reused<PlanWalk> walk;
  walk->reopen(plan, buffers, comm, tag, settings, true);
  walk->advance();
  return walk->take_failure();
}

PlanWalk::PlanWalk(const ExecutionPlan& plan, const ByteBuffers& buffers, MPI_Comm comm, int tag,
                   const ExecutionSettings& settings, bool blocking) {
  reopen(plan, buffers, comm, tag, settings, blocking);
}

void PlanWalk::reopen(const ExecutionPlan& plan, const ByteBuffers& buffers, MPI_Comm comm, int tag,
                      const ExecutionSettings& settings, bool blocking) {
  clear_for_reuse();
  plan_ = &plan;
  buffers_ = buffers;
  comm_ = comm;
  tag_ = tag;
  settings_ = settings;
  blocking_ = blocking;
  bounded_ = settings.max_requests > 0;
  rank_ = 0;
  size_ = 1;
  window_.reopen(comm, tag, bounded_ ? static_cast<std::size_t>(std::max(settings.max_requests, 2)) : 0);
  staging_.resize(plan.staging_bytes);  // (never resized while messages are in flight)
  if (bounded_) {
    if (const int rc = MPI_Comm_rank(comm, &rank_); rc != MPI_SUCCESS) keep(mpi_call_failure("MPI_Comm_rank", rc));
    if (const int rc = MPI_Comm_size(comm, &size_); rc != MPI_SUCCESS) keep(mpi_call_failure("MPI_Comm_size", rc));
    return;
  }
  std::size_t most = 0;
  for (const PlannedRound& round : plan.rounds) most = std::max(most, round.sends.size() + round.recvs.size());
  window_.reserve(most);
  order_.reserve(most);
}

void PlanWalk::clear_for_reuse() {
  window_.cancel_in_flight();
  due_.clear();  // (each window cancels what it still holds)
  lasting_types_.clear();
  round_types_.clear();
  order_.clear();
  staged_receives_.clear();
  first_failure_.reset();
  next_round_ = 0;
  round_begun_ = false;
  lone_send_ = false;
  next_post_ = 0;
  posts_done_ = false;
  window_done_ = false;
}

// A walk left before its end (an exception, or MPI_Finalize with a collective outstanding):
// the windows cancel and free what is still in flight.
PlanWalk::~PlanWalk() = default;

void PlanWalk::keep(MaybeFailure failure) {
  if (failure && !first_failure_) first_failure_ = std::move(failure);
}

// The round's copies before its posts, and the order of its posts.
void PlanWalk::begin_round() {
  const PlannedRound& round = plan_->rounds[next_round_];
  run_local_copies(round, buffers_, settings_, false);
  round_begun_ = true;
  next_post_ = 0;
  posts_done_ = false;
  window_done_ = false;
  lone_send_ = blocking_ && is_lone_send(round);
  if (lone_send_) {
    order_.clear();
    return;
  }
  posting_order(round, bounded_, rank_, size_, order_);
}

bool PlanWalk::post_round() {
  const PlannedRound& round = plan_->rounds[next_round_];
  // A failure does not stop the walk: every round is still posted and completed, so that no
  // peer waits forever for this rank's messages and none is left for a later call.
  const bool empty_sends = settings_.hollow || first_failure_.has_value();
  if (lone_send_) {
    PointToPoint operation;
    if (auto failure = to_point_to_point(round.sends.front(), PointToPoint::Direction::send, buffers_,
                                         staging_.data(), settings_.copy_bandwidth, empty_sends, round_types_,
                                         operation)) {
      keep(std::move(failure));
    } else {
      keep(send_now(operation, comm_, tag_));
    }
    return true;
  }
  for (; next_post_ < order_.size(); ++next_post_) {
    const auto& [transfer, direction] = order_[next_post_];
    const bool lasting = !bounded_ && transfer->overlap_rounds > 0;
    // A blocking window waits for a slot inside post().
    if (!blocking_ && !lasting && !window_.has_room()) return false;
    const bool empty = direction == PointToPoint::Direction::send ? empty_sends : settings_.hollow;
    PointToPoint operation;
    if (auto failure = to_point_to_point(*transfer, direction, buffers_, staging_.data(), settings_.copy_bandwidth,
                                         empty, lasting ? lasting_types_ : round_types_, operation)) {
      keep(std::move(failure));
      continue;
    }
    if (transfer->staged && direction == PointToPoint::Direction::receive && !empty) {
      staged_receives_.emplace_back(transfer, next_round_ + (lasting ? transfer->overlap_rounds : 0));
    }
    RequestWindow* target = &window_;
    if (lasting) {  // build_execution_plan checked that the round t + overlap_rounds exists
      if (due_.empty()) due_.resize(plan_->rounds.size());
      auto& slot = due_[next_round_ + transfer->overlap_rounds];
      if (!slot) slot = std::make_unique<RequestWindow>(comm_, tag_, 0);
      target = slot.get();
    }
    target->post(operation);
  }
  run_local_copies(round, buffers_, settings_, true);
  return true;
}

bool PlanWalk::complete(RequestWindow& window) {
  MaybeFailure failure;
  if (blocking_) {
    failure = window.wait_all();
    window.cancel_in_flight();  // (what a failed wait left)
  } else if (!window.test_all(failure)) {
    return false;
  }
  keep(std::move(failure));
  return true;
}

void PlanWalk::requests_in_flight(std::vector<MPI_Request*>& slots) {
  window_.requests_in_flight(slots);
  for (const auto& due : due_) {
    if (due) due->requests_in_flight(slots);
  }
}

bool PlanWalk::complete_due() {
  if (next_round_ >= due_.size() || !due_[next_round_]) return true;
  return complete(*due_[next_round_]);
}

// The staged receives that had to complete by the end of this round (all of them have, the
// round's window and the transfers due now having completed) copied to their places.
void PlanWalk::copy_out_staged_receives() {
  std::size_t kept = 0;
  for (const auto& [transfer, due_round] : staged_receives_) {
    if (due_round == next_round_) {
      copy_staged(*transfer, buffers_, staging_.data(), false, settings_.copy_bandwidth);
    } else {
      staged_receives_[kept++] = {transfer, due_round};
    }
  }
  staged_receives_.resize(kept);
}

bool PlanWalk::advance() {
  while (!done()) {
    if (!round_begun_) begin_round();
    if (!posts_done_) {
      if (!post_round()) return false;
      posts_done_ = true;
    }
    if (!window_done_) {
      if (!complete(window_)) return false;
      window_done_ = true;
    }
    if (!complete_due()) return false;
    copy_out_staged_receives();
    round_types_.clear();
    round_begun_ = false;
    ++next_round_;
  }
  return true;
}

}  // namespace topocoll::exec
