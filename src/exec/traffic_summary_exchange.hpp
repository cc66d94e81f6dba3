// auto's view of an irregular call (select/traffic_summary.hpp): each rank's summary of its own
// row and column, combined over the communicator in two stages of point-to-point messages over
// a grid of the ranks (summary_routes: about 2 sqrt(p) messages of 48 bytes a rank), so that no
// rank ever holds the p x p counts.
//
// Not paid inside the call, after the first one. A blocking all-reduce costs log p latencies
// before the exchange can start (on two clusters 5 ms apart it tripled an alltoallv of small
// blocks), and MPI_Iallreduce, which would hide them, is linear in SMPI (2(p-1) messages a
// rank, each with its CPU overhead). So each call chooses by the summary of the previous call
// of the same operation on the communicator (known alike to every rank): it posts its own
// row stage at its start, to travel with its exchange, and the column stage at its end, to
// travel between the calls; the next call completes it. Iterative codes repeat their
// traffic, and a change of traffic is seen one call late. The first call waits for its own.
// The messages go on a communicator of their own (a duplicate made at the first call).
#pragma once

#include <mpi.h>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "exec/failure.hpp"
#include "exec/mpi_handles.hpp"
#include "select/traffic_summary.hpp"

namespace topocoll::exec {

// The summaries of one operation on one communicator. Not movable: MPI reads and writes its
// buffers while messages are on their way.
class TrafficSummaries {
 public:
  TrafficSummaries() = default;
  TrafficSummaries(const TrafficSummaries&) = delete;
  TrafficSummaries& operator=(const TrafficSummaries&) = delete;
  // Completes a summary still on its way when the user frees the communicator; inside
  // MPI_Finalize its messages are left to MPI.
  ~TrafficSummaries();

  // The summary this call chooses by (`out`, the same on every rank of `comm`): the previous
  // call's, or at the first call this call's own (`mine` combined, waited for); this call's
  // own then starts on its way. Collective over `comm`.
  MaybeFailure for_call(const TrafficSummary& mine, MPI_Comm comm, TrafficSummary& out);
  // At the end of the call: once the row stage is through, the column stage goes on its way.
  MaybeFailure after_call();

  // For a nonblocking call whose start may wait for peers (the API's): every stage on its way
  // completed, and at the first call this call's own summary exchanged and waited for; nothing
  // left on its way. Collective over `comm`.
  MaybeFailure settled(const TrafficSummary& mine, MPI_Comm comm, TrafficSummary& out);
  // For a nonblocking start that never waits (the drop-in's): the latest complete summary, the
  // same on every rank (it changes only inside the calls above, which every rank makes in the
  // same order); none before the first of them.
  const std::optional<TrafficSummary>& latest() const { return known_; }

 private:
  using Words = std::array<std::uint64_t, TrafficSummary::kWords>;
  enum class Stage { idle, rows, columns };
  MaybeFailure post(const std::vector<int>& sources, std::vector<Words>& into, const std::vector<int>& destinations,
                    const Words& sent, int tag);
  MaybeFailure complete(const std::vector<Words>& received, Words& combined);
  MaybeFailure advance_to_columns();
  MaybeFailure finish();  // through both stages: known_ is the summary
  MaybeFailure attach(MPI_Comm comm);  // the duplicate and routes, at the first call
  MaybeFailure post_rows(const TrafficSummary& mine);  // this call's own summary on its way

  OwnedComm comm_;
  SummaryRoutes routes_;
  Stage stage_ = Stage::idle;
  Words mine_{}, row_{};
  std::vector<Words> from_row_, from_columns_;
  std::vector<MPI_Request> requests_;
  std::optional<TrafficSummary> known_;  // the latest complete summary
};

}  // namespace topocoll::exec
