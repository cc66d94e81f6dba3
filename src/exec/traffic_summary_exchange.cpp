#include "exec/traffic_summary_exchange.hpp"

namespace topocoll::exec {

namespace {

constexpr int kRowTag = 1, kColumnTag = 2;

}  // namespace

TrafficSummaries::~TrafficSummaries() {
  // MPI_Comm_free of the user's communicator: every rank completes it. Inside MPI_Finalize the
  // messages are left to MPI (SMPI aborts on a wait there: the other ranks may be gone).
  if (stage_ != Stage::idle && mpi_is_active()) finish();
}

MaybeFailure TrafficSummaries::post(const std::vector<int>& sources, std::vector<Words>& into,
                                    const std::vector<int>& destinations, const Words& sent, int tag) {
  into.assign(sources.size(), Words{});
  requests_.assign(sources.size() + destinations.size(), MPI_REQUEST_NULL);
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const int rc =
        MPI_Irecv(into[i].data(), TrafficSummary::kWords, MPI_UINT64_T, sources[i], tag, comm_.get(), &requests_[i]);
    if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Irecv (a traffic summary)", rc);
  }
  for (std::size_t i = 0; i < destinations.size(); ++i) {
    const int rc = MPI_Isend(sent.data(), TrafficSummary::kWords, MPI_UINT64_T, destinations[i], tag, comm_.get(),
                             &requests_[sources.size() + i]);
    if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Isend (a traffic summary)", rc);
  }
  return std::nullopt;
}

MaybeFailure TrafficSummaries::complete(const std::vector<Words>& received, Words& combined) {
  const int rc = MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Waitall (the traffic summaries)", rc);
  TrafficSummary all = TrafficSummary::from_words(combined.data());
  for (const Words& words : received) all = combine(all, TrafficSummary::from_words(words.data()));
  combined = all.words();
  return std::nullopt;
}

MaybeFailure TrafficSummaries::advance_to_columns() {
  row_ = mine_;
  if (auto failure = complete(from_row_, row_)) return failure;
  stage_ = Stage::columns;
  return post(routes_.row_sources, from_columns_, routes_.row_destinations, row_, kColumnTag);
}

MaybeFailure TrafficSummaries::finish() {
  if (stage_ == Stage::rows) {
    if (auto failure = advance_to_columns()) return failure;
  }
  if (stage_ == Stage::columns) {
    Words all = row_;
    if (auto failure = complete(from_columns_, all)) return failure;
    known_ = TrafficSummary::from_words(all.data());
    stage_ = Stage::idle;
  }
  return std::nullopt;
}

MaybeFailure TrafficSummaries::attach(MPI_Comm comm) {
  if (comm_.get() != MPI_COMM_NULL) return std::nullopt;
  if (auto failure = duplicate_returning_errors(comm, "MPI_Comm_dup (for the traffic summaries)", comm_)) {
    return failure;
  }
  int rank = 0, size = 1;
  MPI_Comm_rank(comm_.get(), &rank);
  MPI_Comm_size(comm_.get(), &size);
  routes_ = summary_routes(rank, size);
  return std::nullopt;
}

MaybeFailure TrafficSummaries::post_rows(const TrafficSummary& mine) {
  mine_ = mine.words();
  stage_ = Stage::rows;
  return post(routes_.row_peers, from_row_, routes_.row_peers, mine_, kRowTag);
}

MaybeFailure TrafficSummaries::for_call(const TrafficSummary& mine, MPI_Comm comm, TrafficSummary& out) {
  if (auto failure = attach(comm)) return failure;
  if (auto failure = finish()) return failure;  // the previous call's
  if (auto failure = post_rows(mine)) return failure;
  if (!known_) {  // nothing earlier to choose by: wait for this call's own
    if (auto failure = finish()) return failure;
  }
  out = *known_;
  return std::nullopt;
}

MaybeFailure TrafficSummaries::settled(const TrafficSummary& mine, MPI_Comm comm, TrafficSummary& out) {
  if (auto failure = attach(comm)) return failure;
  if (auto failure = finish()) return failure;  // an earlier blocking call's
  if (!known_) {
    if (auto failure = post_rows(mine)) return failure;
    if (auto failure = finish()) return failure;
  }
  out = *known_;
  return std::nullopt;
}

MaybeFailure TrafficSummaries::after_call() {
  if (stage_ != Stage::rows) return std::nullopt;
  return advance_to_columns();
}

}  // namespace topocoll::exec
