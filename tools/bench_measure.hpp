// One point of topocoll-bench: an algorithm at one block size, timed the way the OSU
// micro-benchmarks time a collective, and validated byte-exactly against the MPI library's own
// call of the operation.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "bench_buffers.hpp"
#include "bench_pattern.hpp"
#include "start_sync.hpp"
#include "schedule/operation.hpp"
#include "topocoll/topocoll.hpp"

namespace topocoll::bench {

// Statistics over ranks of each rank's average time per call, in microseconds (valid on rank 0).
struct Latency {
  double avg_us = 0.0;
  double min_us = 0.0;
  double max_us = 0.0;
};

enum class Validity { yes, no, skipped };

// What one call moves: blocks of block_bytes from `send` into `recv` (p of them on the side
// that has one per rank), as `operation` does from `root`. The v forms get the same blocks
// through their interface: counts of block_bytes, block q at q * block_bytes; except an
// alltoallv with a traffic pattern, whose blocks have the pattern's sizes, packed in order.
struct ExchangePoint {
  MessageBuffer& send;
  MessageBuffer& recv;
  std::size_t block_bytes;
  const CollectiveOptions& options;
  MPI_Comm comm;
  Operation operation = Operation::alltoall;
  int root = 0;
  // The v forms' arrays, and the bytes of this rank's send and receive blocks together (set
  // by the constructor below).
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs;
  std::size_t send_total = 0, recv_total = 0;
  const TrafficPattern* pattern = nullptr;

  ExchangePoint(MessageBuffer& send_buffer, MessageBuffer& recv_buffer, std::size_t bytes,
                const CollectiveOptions& call_options, MPI_Comm communicator, Operation op = Operation::alltoall,
                int root_rank = 0, const TrafficPattern* traffic = nullptr);
};


// Makes the library's one-time set-up (the private communicator, the topology) happen in an
// untimed call with 1-byte blocks (uniform, whatever the point's pattern), so that neither a
// timed call nor the first call at a large size pays for it (under SMPI that first large call is
// also slow to simulate). For `auto` the call uses the point's own block size and pattern: it
// sets up the choice that will be timed, and at 1 byte
// auto may pick another algorithm, e.g. `direct` at 256 ranks, whose 65280 flows at once took
// SimGrid many minutes (the point's algorithm, overlap, 2 minutes).
void set_up_call(const ExchangePoint& point);

// `warmup` untimed calls, then `iterations` timed calls, each after a barrier (and, with
// sync.window, a synchronised start) that stays outside the timed region.
Latency time_call(const ExchangePoint& point, int warmup, int iterations, StartSync& sync);

// Runs the MPI library's own call into `reference` and the algorithm under test into
// point.recv (first set to the complement of the reference) on the same patterned data; yes
// when every received byte of every rank matches. Each call starts as `sync` says (a simultaneous start is also much
// faster to simulate than the skew a barrier leaves across a WAN).
Validity validate_call(const ExchangePoint& point, MessageBuffer& reference, const StartSync& sync);

}  // namespace topocoll::bench
