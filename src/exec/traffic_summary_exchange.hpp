// auto's view of an irregular call (select/traffic_summary.hpp): each rank's summary of its own
// row and column, combined over the communicator by one MPI_Allreduce of six words (sums and
// maxima at once, through a reduction of the library's own), so that no rank ever holds the
// p x p counts. O(log p) messages of 48 bytes.
#pragma once

#include <mpi.h>

#include "exec/failure.hpp"
#include "select/traffic_summary.hpp"

namespace topocoll::exec {

// `all` is the same on every rank of `comm` when it returns no failure.
MaybeFailure gather_traffic_summary(const TrafficSummary& mine, MPI_Comm comm, TrafficSummary& all);

}  // namespace topocoll::exec
