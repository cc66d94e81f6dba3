// RequestWindow: slots of MPI_Request reused as requests complete.
#include "exec/request_window.hpp"

#include "exec/mpi_handles.hpp"

namespace topocoll::exec {

RequestWindow::RequestWindow(MPI_Comm comm, int tag, std::size_t capacity)
    : comm_(comm), tag_(tag), capacity_(capacity) {
  if (capacity_ > 0) {
    requests_.reserve(capacity_);
    completed_.resize(capacity_);
  }
}

RequestWindow::~RequestWindow() {
  if (in_flight_ == 0 || !may_free_handles()) return;
  for (MPI_Request& request : requests_) {
    if (request == MPI_REQUEST_NULL) continue;
    MPI_Cancel(&request);
    MPI_Request_free(&request);
  }
}

MPI_Request* RequestWindow::free_slot() {
  if (!free_slots_.empty()) {
    const std::size_t slot = free_slots_.back();
    free_slots_.pop_back();
    return &requests_[slot];
  }
  requests_.push_back(MPI_REQUEST_NULL);
  return &requests_.back();
}

MaybeFailure RequestWindow::post(const PointToPoint& operation) {
  if (capacity_ > 0 && in_flight_ >= capacity_) {
    if (auto failure = wait_some()) return failure;
  }
  MPI_Request* slot = free_slot();
  const bool is_send = operation.direction == PointToPoint::Direction::send;
  const int rc = is_send ? MPI_Isend(operation.buffer, operation.count, operation.type, operation.peer,
                                     tag_, comm_, slot)
                         : MPI_Irecv(operation.buffer, operation.count, operation.type, operation.peer,
                                     tag_, comm_, slot);
  if (rc != MPI_SUCCESS) return mpi_call_failure(is_send ? "MPI_Isend" : "MPI_Irecv", rc);
  ++in_flight_;
  return std::nullopt;
}

MaybeFailure RequestWindow::wait_some() {
  int completed = 0;
  completed_.resize(requests_.size());
  const int rc = MPI_Waitsome(static_cast<int>(requests_.size()), requests_.data(), &completed,
                              completed_.data(), MPI_STATUSES_IGNORE);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Waitsome", rc);
  if (completed == MPI_UNDEFINED) completed = 0;
  for (int i = 0; i < completed; ++i) free_slots_.push_back(static_cast<std::size_t>(completed_[i]));
  in_flight_ -= static_cast<std::size_t>(completed);
  return std::nullopt;
}

MaybeFailure RequestWindow::wait_all() {
  if (requests_.empty()) return std::nullopt;
  const int rc = MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Waitall", rc);
  requests_.clear();
  free_slots_.clear();
  in_flight_ = 0;
  return std::nullopt;
}

}  // namespace topocoll::exec
