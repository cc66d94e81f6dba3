// Non-blocking sends and receives posted in order with at most `capacity` requests in flight
// (0: no bound). When the window is full, MPI_Waitsome frees slots before the next post, so
// a round of p-1 exchanges never posts unbounded work by accident (UCC's num_posts).
//
// A window never abandons a request: a failed post or a failed completion is recorded (the
// first failure is kept) and the window goes on, so every request it posted has completed
// when wait_all returns, and no message of this call is left for a later call to match.
// Each receive is checked against the bytes the schedule expects: a longer message
// (MPI_ERR_TRUNCATE) or a shorter one means the ranks disagree on the data they exchange,
// and the failure names the peer and both sizes.
#pragma once

#include <mpi.h>

#include <climits>
#include <cstddef>
#include <vector>

#include "exec/failure.hpp"

namespace topocoll::exec {

struct PointToPoint {
  enum class Direction { send, receive };
  Direction direction = Direction::send;
  void* buffer = nullptr;  // only read for sends
  int count = 0;
  MPI_Datatype type = MPI_BYTE;
  int peer = 0;
  std::size_t bytes = 0;  // count * size of type: what a receive expects
};

// A send that blocks until its buffer may be reused (MPI_Send), outside any window.
MaybeFailure send_now(const PointToPoint& operation, MPI_Comm comm, int tag);

class RequestWindow {
 public:
  RequestWindow(MPI_Comm comm, int tag, std::size_t capacity);
  RequestWindow() = default;  // reopened before use
  RequestWindow(const RequestWindow&) = delete;
  RequestWindow& operator=(const RequestWindow&) = delete;
  // Requests are still in flight here only when an exception unwound the call (or MPI
  // itself failed in a wait): they are cancelled and freed.
  ~RequestWindow();

  // Posts the operation, waiting for a free slot first when the window is full. A failure
  // is recorded and returned by wait_all, never returned here: the caller goes on posting.
  void post(const PointToPoint& operation);
  // Completes every request in flight; returns the first failure since the last wait_all.
  MaybeFailure wait_all();
  // Without blocking (a nonblocking collective's progress): settles what has completed. True
  // once nothing is in flight, with `failure` the first since the last wait_all or test_all;
  // false (and `failure` untouched) while requests are still on their way.
  bool test_all(MaybeFailure& failure);
  // Whether post() can go without waiting for a slot; when the window is full, first settles
  // what has completed without blocking.
  bool has_room();
  // Room for `requests` in flight at once without reallocating (an unbounded window's largest round).
  void reserve(std::size_t requests);
  // Cancels and frees what a failed wait left in flight, leaving the window empty for reuse.
  void cancel_in_flight();
  // Empty (what is in flight cancelled), for another call's messages on `comm` under `tag`,
  // keeping the memory of its slots.
  void reopen(MPI_Comm comm, int tag, std::size_t capacity);
  std::size_t in_flight() const { return in_flight_; }
  // Its requests in flight (the handles' addresses), for a wait that blocks on them outside the
  // window; what such a wait completes is settled here at the next completion call
  // (completed_elsewhere.hpp).
  void requests_in_flight(std::vector<MPI_Request*>& slots);

 private:
  struct Posted {
    bool receive = false;
    int peer = 0;
    std::size_t bytes = 0;
    bool active = false;  // posted and not yet completed
  };

  void wait_some();
  // Settles the requests that a wait outside the window completed.
  void settle_completed_elsewhere();
  // MPI_Waitsome or MPI_Testsome over the slots, each completion settled; false when the MPI
  // call itself failed (recorded).
  bool complete_some(bool wait);
  void clear_when_empty();
  void record(MaybeFailure failure);
  // The outcome of the completed request in `slot`, whose status is `status` (error field
  // valid only when `error_field_valid`).
  void settle(std::size_t slot, const MPI_Status& status, bool error_field_valid);
  // settle() of a request that completed without error, inline: a walk settles every message.
  void settle_success(std::size_t slot, const MPI_Status& status) {
    const Posted& posted = retire(slot);
    if (posted.receive && posted.bytes <= static_cast<std::size_t>(INT_MAX)) check_received_bytes(posted, status);
  }
  // The completed request in `slot` no longer in flight; what it was.
  const Posted& retire(std::size_t slot) {
    Posted& posted = posted_[slot];
    posted.active = false;
    requests_[slot] = MPI_REQUEST_NULL;  // completed requests are freed by MPI
    --in_flight_;
    return posted;
  }
  // A completed receive's size against what the schedule expects (a shorter message: failure).
  void check_received_bytes(const Posted& posted, const MPI_Status& status);

  MPI_Comm comm_ = MPI_COMM_NULL;
  int tag_ = 0;
  std::size_t capacity_ = 0;
  std::size_t in_flight_ = 0;
  std::vector<MPI_Request> requests_;  // slots; MPI_REQUEST_NULL when free
  std::vector<Posted> posted_;         // what each slot holds
  std::vector<std::size_t> free_slots_;
  std::vector<int> completed_;
  std::vector<MPI_Status> statuses_;
  MaybeFailure failure_;
};

}  // namespace topocoll::exec
