#include "exec/traffic_summary_exchange.hpp"

#include "exec/mpi_handles.hpp"

namespace topocoll::exec {

TrafficSummaries::~TrafficSummaries() {
  // MPI_Comm_free of the user's communicator: every rank completes it. Inside MPI_Finalize it is
  // left to MPI (SMPI aborts on a wait there: the other ranks may be gone).
  if (requests_[0] != MPI_REQUEST_NULL && mpi_is_active()) MPI_Waitall(2, requests_.data(), MPI_STATUSES_IGNORE);
}

MaybeFailure TrafficSummaries::start(MPI_Comm comm) {
  int rc = MPI_Iallreduce(sums_in_.data(), sums_out_.data(), 2, MPI_UINT64_T, MPI_SUM, comm, &requests_[0]);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Iallreduce (the traffic summary's sums)", rc);
  rc = MPI_Iallreduce(maxima_in_.data(), maxima_out_.data(), 2, MPI_UINT64_T, MPI_MAX, comm, &requests_[1]);
  if (rc != MPI_SUCCESS) {
    MPI_Wait(&requests_[0], MPI_STATUS_IGNORE);
    return mpi_call_failure("MPI_Iallreduce (the traffic summary's maxima)", rc);
  }
  return std::nullopt;
}

MaybeFailure TrafficSummaries::complete_pending() {
  if (requests_[0] == MPI_REQUEST_NULL) return std::nullopt;
  const int rc = MPI_Waitall(2, requests_.data(), MPI_STATUSES_IGNORE);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Waitall (the traffic summary)", rc);
  known_ = TrafficSummary::from_reduced(sums_out_, maxima_out_);
  return std::nullopt;
}

MaybeFailure TrafficSummaries::for_call(const TrafficSummary& mine, MPI_Comm comm, TrafficSummary& out) {
  if (auto failure = complete_pending()) return failure;
  sums_in_ = mine.sums();
  maxima_in_ = mine.maxima();
  const bool first = !known_;
  if (auto failure = start(comm)) return failure;
  if (first) {  // nothing earlier to choose by: wait for this call's own
    if (auto failure = complete_pending()) return failure;
  }
  out = *known_;
  return std::nullopt;
}

}  // namespace topocoll::exec
