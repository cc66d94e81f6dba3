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
#include <memory>
#include <vector>

#include "exec/execution_plan.hpp"
#include "exec/failure.hpp"
#include "exec/mpi_handles.hpp"
#include "exec/request_window.hpp"

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

// The walk of execute_plan, resumable: the blocking call drives it to the end at once, a
// nonblocking one (pending_collective.hpp) a little at each progress, with one code path for
// both. The plan, buffers and communicator must outlive the walk.
class PlanWalk {
 public:
  // `blocking`: advance() may wait, and a round that only sends one message sends it with
  // MPI_Send (is_lone_send in executor.cpp); a nonblocking walk posts it as any other.
  PlanWalk(const ExecutionPlan& plan, const ByteBuffers& buffers, MPI_Comm comm, int tag,
           const ExecutionSettings& settings, bool blocking);
  PlanWalk() = default;  // reopened before use
  PlanWalk(const PlanWalk&) = delete;
  PlanWalk& operator=(const PlanWalk&) = delete;
  ~PlanWalk();
  // A new walk of `plan` (the constructor's arguments), in the memory of this one: a thread's
  // blocking calls take turns with one walk (reused.hpp).
  void reopen(const ExecutionPlan& plan, const ByteBuffers& buffers, MPI_Comm comm, int tag,
              const ExecutionSettings& settings, bool blocking);
  // Releases what the walk holds (requests still in flight are cancelled, datatypes freed),
  // keeping the memory of its window and posting order.
  void clear_for_reuse();

  // Goes as far as it can: a blocking walk to its end, a nonblocking one until a request it
  // needs is still on its way. True once every round is done; first_failure() is then final.
  bool advance();
  bool done() const { return plan_ == nullptr || next_round_ >= plan_->rounds.size(); }
  MaybeFailure take_failure() { return std::move(first_failure_); }
  // Its requests in flight, for a wait outside the walk (RequestWindow::requests_in_flight).
  void requests_in_flight(std::vector<MPI_Request*>& slots);

 private:
  using Posting = std::pair<const TransferDescription*, PointToPoint::Direction>;
  void keep(MaybeFailure failure);
  void begin_round();
  bool post_round();  // false: the bounded window is full and nothing completed yet
  bool complete(RequestWindow& window);
  bool complete_due();
  void copy_out_staged_receives();

  const ExecutionPlan* plan_ = nullptr;
  ByteBuffers buffers_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int tag_ = 0;
  ExecutionSettings settings_;
  bool blocking_ = true;
  bool bounded_ = false;
  int rank_ = 0, size_ = 1;
  MaybeFailure first_failure_;
  // Transfers kept in flight across rounds (overlap_rounds > 0), by the round whose end they
  // complete by; their datatypes live as long as the walk. Under a request bound they count
  // against it: they complete within the round that posts them (earlier than the schedule
  // allows, which is always correct).
  std::vector<OwnedDatatype> lasting_types_;
  std::vector<std::unique_ptr<RequestWindow>> due_;  // sized at the first such transfer
  // One window and one posting order for every round: their memory is taken once per call.
  RequestWindow window_;
  std::vector<Posting> order_;
  std::vector<OwnedDatatype> round_types_;  // freed after the round's completion
  // Small transfers that mix buffers go through here (TransferDescription::staged); each staged
  // receive waits with the round by whose end it completes.
  std::vector<std::byte> staging_;
  std::vector<std::pair<const TransferDescription*, std::size_t>> staged_receives_;
  std::size_t next_round_ = 0;
  // Where the current round stands.
  bool round_begun_ = false;
  bool lone_send_ = false;  // the round goes out as one MPI_Send (blocking walks: is_lone_send)
  std::size_t next_post_ = 0;
  bool posts_done_ = false;
  bool window_done_ = false;
};

}  // namespace topocoll::exec
