// A busy network for topocoll-bench (--background-ranks N --background-bytes B): the last N
// ranks of the world are another job that, while the measured ranks run the benchmark, exchanges
// B bytes with every one of its ranks in another group of the topology's outermost level (for
// the switch tree: the other switch), exchange after exchange, each a pairwise exchange as MPI
// libraries run large all-to-alls; nothing goes to ranks of its own group. This is the background job of Kandalla
// et al.'s busy-network experiments (topology-aware-scatter-gather-infiniband.txt, Sec. 5:
// 96 processes, inter-switch exchanges only, 4 MB buffers). The measured ranks tell the
// background to stop when they are done; it finishes the call it is in and stops.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>

namespace topocoll::bench {

struct BackgroundJob {
  int ranks = 0;                  // the last `ranks` of the world; 0: no background
  std::size_t bytes = 4u << 20;   // bytes per pair of ranks in different groups, per call
  std::string topology;           // the spec that names the groups (the benchmark's --topology)
};

// This rank's part of the world: the measured job's communicator, or the background's.
struct WorldPart {
  MPI_Comm comm = MPI_COMM_NULL;
  bool background = false;
};

// Splits `world` (collective over it): the first ranks are measured, the last job.ranks the
// background. Fails (2, the reason printed by world rank 0) when no measured rank would be left
// or the background would have a single rank.
int split_world(MPI_Comm world, const BackgroundJob& job, WorldPart& part, bool print);

// The background job (collective over the world): its ranks learn their groups from the
// topology and exchange until world rank 0 calls stop_background; the measured ranks only learn
// whether it started (the return value, on every rank of the world: 0, or 2 when it cannot run,
// for example when all of its ranks are in one group, with the reason printed once). A
// background rank returns when the background has stopped.
int start_background(MPI_Comm world, const WorldPart& part, const BackgroundJob& job);

// World rank 0, once the measured ranks are done: tells the background to stop.
void stop_background(MPI_Comm world, const BackgroundJob& job);

}  // namespace topocoll::bench
