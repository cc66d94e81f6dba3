// How the ranks start a timed call, shared by topocoll-bench and topocoll-calibrate's
// validation pass: after a barrier, each rank from its own exit (OSU), or from a start common to
// every rank, which needs a global clock (SMPI's simulated time).
#pragma once

#include <mpi.h>

namespace topocoll::bench {

struct StartSync {
  // false: after MPI_Barrier, each rank times from its own exit. true: rank 0 names a start
  // time `window` seconds ahead, every rank sleeps until it and times from it, so that the
  // barrier's exit skew (tens of ms across a WAN) stays out of the times. A rank that learns the
  // start too late doubles the window and the call is repeated (calls_late).
  bool window = false;
  double window_seconds = 0.05;
};

// A barrier, then with sync.window the common start: rank 0's clock plus the window, broadcast.
// Returns the time to measure from; `late` when this rank got it too late.
double start_call(MPI_Comm comm, const StartSync& sync, bool& late);

// After a call started by start_call: whether any rank was late (collective; with sync.window
// only, false otherwise), in which case the window is doubled and the call must be run again.
bool calls_late(MPI_Comm comm, StartSync& sync, bool late);

}  // namespace topocoll::bench
