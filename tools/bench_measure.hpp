// One point of topocoll-bench: an algorithm at one block size, timed the way the OSU
// micro-benchmarks time a collective, and validated byte-exactly against MPI_Alltoall.
#pragma once

#include <mpi.h>

#include <cstddef>

#include "bench_buffers.hpp"
#include "topocoll/topocoll.hpp"

namespace topocoll::bench {

// Statistics over ranks of each rank's average time per call, in microseconds (valid on rank 0).
struct Latency {
  double avg_us = 0.0;
  double min_us = 0.0;
  double max_us = 0.0;
};

enum class Validity { yes, no, skipped };

// What one call exchanges: p blocks of block_bytes from `send` into `recv`.
struct ExchangePoint {
  MessageBuffer& send;
  MessageBuffer& recv;
  std::size_t block_bytes;
  const CollectiveOptions& options;
  MPI_Comm comm;
};

// How the ranks start a timed call.
struct StartSync {
  // false: after MPI_Barrier, each rank times from its own exit (OSU). true: rank 0 names a
  // start time `window` seconds ahead, every rank sleeps until it and times from it, so that
  // the barrier's exit skew (tens of ms across a WAN) stays out of the times; needs a global
  // clock (SMPI's simulated time). A rank that learns the start too late doubles the window
  // and the call is repeated.
  bool window = false;
  double window_seconds = 0.05;
};

// Makes the library's one-time set-up (the private communicator, the topology) happen in an
// untimed call with 1-byte blocks, so that neither a timed call nor the first call at a large
// size pays for it (under SMPI that first large call is also slow to simulate). For `auto` the
// call uses the point's own block size: it sets up the choice that will be timed, and at 1 byte
// auto may pick another algorithm, e.g. `direct` at 256 ranks, whose 65280 flows at once took
// SimGrid many minutes (the point's algorithm, overlap, 2 minutes).
void set_up_alltoall(const ExchangePoint& point);

// `warmup` untimed calls, then `iterations` timed calls, each after a barrier (and, with
// sync.window, a synchronised start) that stays outside the timed region.
Latency time_alltoall(const ExchangePoint& point, int warmup, int iterations, StartSync& sync);

// Runs MPI_Alltoall into `reference` and the algorithm under test into point.recv (first set
// to the complement of the reference) on the same patterned data; yes when every byte of
// every rank matches. Each call starts as `sync` says (a simultaneous start is also much
// faster to simulate than the skew a barrier leaves across a WAN).
Validity validate_alltoall(const ExchangePoint& point, MessageBuffer& reference, const StartSync& sync);

}  // namespace topocoll::bench
