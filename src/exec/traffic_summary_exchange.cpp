#include "exec/traffic_summary_exchange.hpp"

namespace topocoll::exec {

namespace {

// MPI_User_function over whole summaries (the datatype holds one summary, so MPI never splits
// one between calls).
void combine_summaries(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* from = static_cast<std::uint64_t*>(in);
  auto* into = static_cast<std::uint64_t*>(inout);
  for (int i = 0; i < *len; ++i, from += TrafficSummary::kWords, into += TrafficSummary::kWords) {
    const std::array<std::uint64_t, TrafficSummary::kWords> both =
        combine(TrafficSummary::from_words(into), TrafficSummary::from_words(from)).words();
    for (int w = 0; w < TrafficSummary::kWords; ++w) into[w] = both[w];
  }
}

}  // namespace

TrafficSummaries::~TrafficSummaries() {
  // MPI_Comm_free of the user's communicator: every rank completes it. Inside MPI_Finalize it is
  // left to MPI (SMPI aborts on a wait there: the other ranks may be gone).
  if (request_ != MPI_REQUEST_NULL && mpi_is_active()) MPI_Wait(&request_, MPI_STATUS_IGNORE);
  if (!may_free_handles()) return;
  if (op_ != MPI_OP_NULL) MPI_Op_free(&op_);
}

MaybeFailure TrafficSummaries::make_handles() {
  if (op_ != MPI_OP_NULL) return std::nullopt;
  MPI_Datatype summary_type = MPI_DATATYPE_NULL;
  int rc = MPI_Type_contiguous(TrafficSummary::kWords, MPI_UINT64_T, &summary_type);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Type_contiguous", rc);
  rc = MPI_Type_commit(&summary_type);
  type_ = OwnedDatatype(summary_type);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Type_commit", rc);
  if ((rc = MPI_Op_create(combine_summaries, 1, &op_)) != MPI_SUCCESS) return mpi_call_failure("MPI_Op_create", rc);
  return std::nullopt;
}

MaybeFailure TrafficSummaries::complete_pending() {
  if (request_ == MPI_REQUEST_NULL) return std::nullopt;
  const int rc = MPI_Wait(&request_, MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Wait (the previous call's traffic summary)", rc);
  known_ = TrafficSummary::from_words(out_.data());
  return std::nullopt;
}

MaybeFailure TrafficSummaries::for_call(const TrafficSummary& mine, MPI_Comm comm, TrafficSummary& out) {
  if (auto failure = make_handles()) return failure;
  if (auto failure = complete_pending()) return failure;
  in_ = mine.words();
  if (!known_) {
    const int rc = MPI_Allreduce(in_.data(), out_.data(), 1, type_.get(), op_, comm);
    if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Allreduce (the traffic summary)", rc);
    known_ = TrafficSummary::from_words(out_.data());
    out = *known_;
    return std::nullopt;
  }
  out = *known_;
  const int rc = MPI_Iallreduce(in_.data(), out_.data(), 1, type_.get(), op_, comm, &request_);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Iallreduce (the traffic summary)", rc);
  return std::nullopt;
}

}  // namespace topocoll::exec
