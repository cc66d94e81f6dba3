// RequestWindow: slots of MPI_Request reused as requests complete; every completion settled.
#include "exec/request_window.hpp"

#include <climits>
#include <string>
#include <utility>

#include "exec/completed_elsewhere.hpp"
#include "exec/mpi_handles.hpp"

namespace topocoll::exec {

namespace {

bool is_error_in_status(int rc) {
  int error_class = MPI_SUCCESS;
  return MPI_Error_class(rc, &error_class) == MPI_SUCCESS && error_class == MPI_ERR_IN_STATUS;
}

}  // namespace

MaybeFailure send_now(const PointToPoint& operation, MPI_Comm comm, int tag) {
  const int rc = MPI_Send(operation.buffer, operation.count, operation.type, operation.peer, tag, comm);
  // Named like a window's failed completion ("a send to rank N"): MPI_Send posts and completes.
  if (rc != MPI_SUCCESS) return mpi_call_failure(("MPI_Send to rank " + std::to_string(operation.peer)).c_str(), rc);
  return std::nullopt;
}

RequestWindow::RequestWindow(MPI_Comm comm, int tag, std::size_t capacity) { reopen(comm, tag, capacity); }

void RequestWindow::reopen(MPI_Comm comm, int tag, std::size_t capacity) {
  cancel_in_flight();
  in_flight_ = 0;  // (after MPI_Finalize nothing can be freed: the slots are only forgotten)
  clear_when_empty();
  failure_.reset();
  comm_ = comm;
  tag_ = tag;
  capacity_ = capacity;
  if (capacity_ > 0) {
    requests_.reserve(capacity_);
    posted_.reserve(capacity_);
    completed_.resize(capacity_);
    statuses_.resize(capacity_);
  }
}

RequestWindow::~RequestWindow() { cancel_in_flight(); }

void RequestWindow::reserve(std::size_t requests) {
  requests_.reserve(requests);
  posted_.reserve(requests);
  statuses_.reserve(requests);
}

void RequestWindow::cancel_in_flight() {
  if (in_flight_ == 0 || !may_free_handles()) return;
  for (MPI_Request& request : requests_) {
    if (request == MPI_REQUEST_NULL) continue;
    MPI_Cancel(&request);
    MPI_Request_free(&request);
  }
  in_flight_ = 0;
  requests_.clear();
  posted_.clear();
  free_slots_.clear();
}

void RequestWindow::record(MaybeFailure failure) {
  if (failure && !failure_) failure_ = std::move(failure);
}

void RequestWindow::post(const PointToPoint& operation) {
  if (capacity_ > 0 && in_flight_ >= capacity_) wait_some();
  if (capacity_ > 0 && in_flight_ >= capacity_) return;  // MPI failed to complete any: recorded
  const bool is_send = operation.direction == PointToPoint::Direction::send;
  // A free slot, or a new one at the end (written here, not in a function of its own: a walk
  // posts every message through it).
  const Posted entry{!is_send, operation.peer, operation.bytes, true};
  std::size_t slot = requests_.size();
  if (free_slots_.empty()) {
    requests_.push_back(MPI_REQUEST_NULL);
    posted_.push_back(entry);
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
    posted_[slot] = entry;
  }
  const int rc = is_send ? MPI_Isend(operation.buffer, operation.count, operation.type, operation.peer,
                                     tag_, comm_, &requests_[slot])
                         : MPI_Irecv(operation.buffer, operation.count, operation.type, operation.peer,
                                     tag_, comm_, &requests_[slot]);
  if (rc != MPI_SUCCESS) {
    requests_[slot] = MPI_REQUEST_NULL;
    posted_[slot].active = false;
    free_slots_.push_back(slot);
    record(mpi_call_failure(is_send ? "MPI_Isend" : "MPI_Irecv", rc));
    return;
  }
  ++in_flight_;
}

void RequestWindow::settle(std::size_t slot, const MPI_Status& status, bool error_field_valid) {
  const int error = error_field_valid ? status.MPI_ERROR : MPI_SUCCESS;
  if (error == MPI_SUCCESS) {
    settle_success(slot, status);
    return;
  }
  const Posted& posted = retire(slot);
  int error_class = MPI_SUCCESS;
  MPI_Error_class(error, &error_class);
  if (posted.receive && error_class == MPI_ERR_TRUNCATE) {
    record(longer_message_failure(error, posted.peer, posted.bytes));
  } else {
    const std::string call = std::string(posted.receive ? "a receive from rank " : "a send to rank ") +
                             std::to_string(posted.peer);
    record(mpi_call_failure(call.c_str(), error));
  }
}

void RequestWindow::check_received_bytes(const Posted& posted, const MPI_Status& status) {
  int received = 0;
  if (MPI_Get_count(&status, MPI_BYTE, &received) != MPI_SUCCESS) return;
  if (received == MPI_UNDEFINED || static_cast<std::size_t>(received) != posted.bytes) {
    record(shorter_message_failure(posted.peer, static_cast<std::size_t>(received), posted.bytes));
  }
}

void RequestWindow::wait_some() { complete_some(true); }

void RequestWindow::requests_in_flight(std::vector<MPI_Request*>& slots) {
  for (std::size_t slot = 0; slot < posted_.size(); ++slot) {
    if (posted_[slot].active && requests_[slot] != MPI_REQUEST_NULL) slots.push_back(&requests_[slot]);
  }
}

void RequestWindow::settle_completed_elsewhere() {
  if (in_flight_ == 0 || !completions_handed_over()) return;
  MPI_Status status;
  for (std::size_t slot = 0; slot < posted_.size(); ++slot) {
    if (!posted_[slot].active || requests_[slot] != MPI_REQUEST_NULL) continue;
    if (!take_completion(&requests_[slot], status)) continue;
    settle(slot, status, true);
    free_slots_.push_back(slot);
  }
}

bool RequestWindow::complete_some(bool wait) {
  settle_completed_elsewhere();
#ifdef TOPOCOLL_SMPI
  // SMPI charges every test of a request still on its way (smpi/test, growing with each miss):
  // a nonblocking walk's requests complete there only through the completion calls that block
  // on them (outstanding.hpp).
  if (!wait) return true;
#endif
  if (wait && in_flight_ == 0) return true;
  const int n = static_cast<int>(requests_.size());
  completed_.resize(requests_.size());
  statuses_.resize(requests_.size());
  int completed = 0;
  const int rc = wait ? MPI_Waitsome(n, requests_.data(), &completed, completed_.data(), statuses_.data())
                      : MPI_Testsome(n, requests_.data(), &completed, completed_.data(), statuses_.data());
  if (rc != MPI_SUCCESS && !is_error_in_status(rc)) {
    record(mpi_call_failure(wait ? "MPI_Waitsome" : "MPI_Testsome", rc));
    return false;
  }
  if (completed == MPI_UNDEFINED) completed = 0;
  for (int i = 0; i < completed; ++i) {
    const auto slot = static_cast<std::size_t>(completed_[i]);
    settle(slot, statuses_[static_cast<std::size_t>(i)], rc != MPI_SUCCESS);
    free_slots_.push_back(slot);
  }
  return true;
}

bool RequestWindow::has_room() {
  if (capacity_ == 0 || in_flight_ < capacity_) return true;
  complete_some(false);
  return in_flight_ < capacity_;
}

bool RequestWindow::test_all(MaybeFailure& failure) {
  // A failed MPI_Testsome says nothing of its requests: they are cancelled, as after a failed
  // MPI_Waitall.
  if (in_flight_ > 0 && complete_some(false) && in_flight_ > 0) return false;
  cancel_in_flight();
  clear_when_empty();
  failure = std::exchange(failure_, std::nullopt);
  return true;
}

void RequestWindow::clear_when_empty() {
  if (in_flight_ != 0) return;
  requests_.clear();
  posted_.clear();
  free_slots_.clear();
}

MaybeFailure RequestWindow::wait_all() {
  settle_completed_elsewhere();
  while (in_flight_ > 0) {
    statuses_.resize(requests_.size());
    const int rc = MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), statuses_.data());
    if (rc != MPI_SUCCESS && !is_error_in_status(rc)) {
      record(mpi_call_failure("MPI_Waitall", rc));
      break;  // MPI says nothing of its requests: the destructor cancels what is left
    }
    const std::size_t before = in_flight_;
    for (std::size_t slot = 0; slot < posted_.size(); ++slot) {
      if (!posted_[slot].active) continue;
      // After MPI_ERR_IN_STATUS, MPI_ERR_PENDING marks a request neither failed nor complete.
      if (rc == MPI_SUCCESS) {
        settle_success(slot, statuses_[slot]);
        continue;
      }
      if (statuses_[slot].MPI_ERROR == MPI_ERR_PENDING) continue;
      settle(slot, statuses_[slot], true);
    }
    if (in_flight_ == before) {
      record(Failure{MPI_ERR_INTERN, "MPI_Waitall reported MPI_ERR_IN_STATUS but completed no request"});
      break;
    }
  }
  clear_when_empty();
  return std::exchange(failure_, std::nullopt);
}

}  // namespace topocoll::exec
