// Counts, through the MPI profiling interface, the point-to-point requests the library has
// in flight, its blocking sends, its MPI_Pack/MPI_Unpack calls and the hindexed datatypes it
// makes, while a test enables counting. The test program defines MPI_Isend, MPI_Irecv,
// MPI_Send, the MPI_Wait* calls, MPI_Pack, MPI_Unpack and MPI_Type_create_hindexed, and
// forwards them to PMPI_*; the statically linked library resolves to these definitions.
#pragma once

namespace topocoll::testing {

struct CallCounts {
  long posted = 0;         // MPI_Isend + MPI_Irecv
  long in_flight = 0;      // posted and not yet completed by an MPI_Wait* call
  long max_in_flight = 0;
  long blocking_sends = 0;  // MPI_Send calls
  long packs = 0;          // MPI_Pack calls
  long unpacks = 0;        // MPI_Unpack calls
  long hindexed_types = 0;  // MPI_Type_create_hindexed calls
};

// Resets the counts and counts until the object is destroyed.
class CountingScope {
 public:
  CountingScope();
  ~CountingScope();
  CountingScope(const CountingScope&) = delete;
  CountingScope& operator=(const CountingScope&) = delete;
  const CallCounts& counts() const;
};

}  // namespace topocoll::testing
