// The synchronised start of a timed call (see start_sync.hpp).
#include "start_sync.hpp"

#include <cstdio>
#include <cstdlib>

#ifdef TOPOCOLL_SMPI
#include <simgrid/actor.h>
#endif

namespace topocoll::bench {

namespace {

// Sleeps until the global clock reads `time` (only SMPI's simulated clock is global).
void sleep_until([[maybe_unused]] double time) {
#ifdef TOPOCOLL_SMPI
  sg_actor_sleep_until(time);
#else
  std::fprintf(stderr, "topocoll: a synchronised start needs a global clock (the SMPI build)\n");
  std::abort();
#endif
}

}  // namespace

double start_call(MPI_Comm comm, const StartSync& sync, bool& late) {
  MPI_Barrier(comm);
  double start = MPI_Wtime();
  late = false;
  if (sync.window) {
    start += sync.window_seconds;
    MPI_Bcast(&start, 1, MPI_DOUBLE, 0, comm);
    late = MPI_Wtime() > start;
    if (!late) sleep_until(start);
  }
  return start;
}

bool calls_late(MPI_Comm comm, StartSync& sync, bool late) {
  if (!sync.window) return false;
  int any_late = late ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &any_late, 1, MPI_INT, MPI_LOR, comm);
  if (any_late == 0) return false;
  sync.window_seconds *= 2;
  return true;
}

}  // namespace topocoll::bench
