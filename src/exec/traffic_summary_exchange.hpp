// auto's view of an irregular call (select/traffic_summary.hpp): each rank's summary of its own
// row and column, combined over the communicator by an all-reduce of six words (sums and maxima
// at once, through a reduction of the library's own), so that no rank ever holds the p x p
// counts: O(log p) messages of 48 bytes.
//
// That all-reduce is not paid inside the call, after the first one. A blocking all-reduce costs
// log p latencies before the exchange can start: on two clusters 5 ms apart it tripled an
// alltoallv of small blocks. So each call chooses by the summary of the previous call of the
// same operation on the communicator (known alike to every rank), and starts its own summary
// on its way (MPI_Iallreduce) for the next call, which completes it: iterative codes repeat
// their traffic, and a change of traffic is seen one call late. The first call has no earlier
// summary and waits for its own.
#pragma once

#include <mpi.h>

#include <array>
#include <cstdint>
#include <optional>

#include "exec/failure.hpp"
#include "exec/mpi_handles.hpp"
#include "select/traffic_summary.hpp"

namespace topocoll::exec {

// The summaries of one operation on one communicator. Not movable: MPI writes into it while an
// all-reduce is on its way.
class TrafficSummaries {
 public:
  TrafficSummaries() = default;
  TrafficSummaries(const TrafficSummaries&) = delete;
  TrafficSummaries& operator=(const TrafficSummaries&) = delete;
  // Completes a summary still on its way when the user frees the communicator; inside
  // MPI_Finalize the request is left to MPI.
  ~TrafficSummaries();

  // The summary this call chooses by (`out`, the same on every rank of `comm`): the previous
  // call's, or at the first call this call's own (`mine` combined, waited for). Then, from the
  // second call on, starts this call's on its way. Collective over `comm`.
  MaybeFailure for_call(const TrafficSummary& mine, MPI_Comm comm, TrafficSummary& out);

 private:
  MaybeFailure make_handles();
  MaybeFailure complete_pending();

  std::optional<TrafficSummary> known_;  // the latest complete summary
  std::array<std::uint64_t, TrafficSummary::kWords> in_{}, out_{};
  MPI_Request request_ = MPI_REQUEST_NULL;
  OwnedDatatype type_;
  MPI_Op op_ = MPI_OP_NULL;
};

}  // namespace topocoll::exec
