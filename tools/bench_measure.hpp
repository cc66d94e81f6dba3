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
  const AlltoallOptions& options;
  MPI_Comm comm;
};

// `warmup` untimed calls, then `iterations` timed calls, each after a barrier that stays
// outside the timed region.
Latency time_alltoall(const ExchangePoint& point, int warmup, int iterations);

// Runs MPI_Alltoall into `reference` and the algorithm under test into point.recv (first set
// to the complement of the reference) on the same patterned data; yes when every byte of
// every rank matches.
Validity validate_alltoall(const ExchangePoint& point, MessageBuffer& reference);

}  // namespace topocoll::bench
