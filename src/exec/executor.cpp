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

// The point-to-point call for one transfer; per-call datatypes are kept in `call_types`
// until the round has completed.
// `empty`: the message goes without data (ExecutionSettings::hollow, or a send after a failure).
MaybeFailure to_point_to_point(const TransferDescription& transfer, PointToPoint::Direction direction,
                               const ByteBuffers& buffers, bool empty, std::vector<OwnedDatatype>& call_types,
                               PointToPoint& operation) {
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
  OwnedDatatype& type = call_types.emplace_back();
  if (auto failure = make_absolute_hindexed(transfer.pieces, buffers, type)) return failure;
  operation.buffer = MPI_BOTTOM;
  operation.count = 1;
  operation.type = type.get();
  return std::nullopt;
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
  const bool bounded = settings.max_requests > 0;
  const std::size_t capacity = bounded ? static_cast<std::size_t>(std::max(settings.max_requests, 2)) : 0;
  // A failure does not stop the walk: every round is still posted and completed, so that no
  // peer waits forever for this rank's messages and none is left for a later call.
  MaybeFailure first_failure;
  const auto keep = [&first_failure](MaybeFailure failure) {
    if (failure && !first_failure) first_failure = std::move(failure);
  };
  int rank = 0, size = 1;
  if (bounded) {
    if (const int rc = MPI_Comm_rank(comm, &rank); rc != MPI_SUCCESS) return mpi_call_failure("MPI_Comm_rank", rc);
    if (const int rc = MPI_Comm_size(comm, &size); rc != MPI_SUCCESS) return mpi_call_failure("MPI_Comm_size", rc);
  }
  // Transfers kept in flight across rounds (overlap_rounds > 0), by the round whose end they
  // complete by; their datatypes live as long as the call. Under a request bound they count
  // against it: they complete within the round that posts them (earlier than the schedule
  // allows, which is always correct).
  std::vector<OwnedDatatype> lasting_types;
  std::vector<std::unique_ptr<RequestWindow>> due;  // sized at the first such transfer
  const auto wait_for_due = [&](std::size_t t) {
    if (t < due.size() && due[t]) keep(due[t]->wait_all());
  };
  // One window and one posting order for every round: their memory is taken once per call.
  RequestWindow window(comm, tag, capacity);
  std::vector<Posting> order;
  if (!bounded) {
    std::size_t most = 0;
    for (const PlannedRound& round : plan.rounds) most = std::max(most, round.sends.size() + round.recvs.size());
    window.reserve(most);
    order.reserve(most);
  }
  for (std::size_t t = 0; t < plan.rounds.size(); ++t) {
    const PlannedRound& round = plan.rounds[t];
    run_local_copies(round, buffers, settings, false);
    std::vector<OwnedDatatype> call_types;  // freed after the round's wait
    const bool empty_sends = settings.hollow || first_failure.has_value();
    if (is_lone_send(round)) {
      PointToPoint operation;
      if (auto failure = to_point_to_point(round.sends.front(), PointToPoint::Direction::send, buffers, empty_sends,
                                           call_types, operation)) {
        keep(std::move(failure));
      } else {
        keep(send_now(operation, comm, tag));
      }
      wait_for_due(t);
      continue;
    }
    posting_order(round, bounded, rank, size, order);
    for (const auto& [transfer, direction] : order) {
      const bool lasting = !bounded && transfer->overlap_rounds > 0;
      const bool empty = direction == PointToPoint::Direction::send ? empty_sends : settings.hollow;
      PointToPoint operation;
      if (auto failure = to_point_to_point(*transfer, direction, buffers, empty,
                                           lasting ? lasting_types : call_types, operation)) {
        keep(std::move(failure));
        continue;
      }
      RequestWindow* target = &window;
      if (lasting) {  // build_execution_plan checked that t + overlap_rounds is a round
        if (due.empty()) due.resize(plan.rounds.size());
        auto& slot = due[t + transfer->overlap_rounds];
        if (!slot) slot = std::make_unique<RequestWindow>(comm, tag, 0);
        target = slot.get();
      }
      target->post(operation);
    }
    run_local_copies(round, buffers, settings, true);
    keep(window.wait_all());  // empties the window for the next round, keeping its memory
    window.cancel_in_flight();  // (what a failed wait left: as the window of a round alone did)
    wait_for_due(t);
  }
  return first_failure;
}

}  // namespace topocoll::exec
