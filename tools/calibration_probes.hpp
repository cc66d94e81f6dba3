// The measurements of topocoll-calibrate, each a small MPI pattern timed with MPI_Wtime (on
// SMPI: simulated time). Collective over `comm`: every rank calls every probe with the same
// arguments; the result is valid on every rank (broadcast from where it was measured).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "select/calibration.hpp"

namespace topocoll::calibrate {

using Flow = std::pair<int, int>;  // (sending rank, receiving rank)

struct ProbeSettings {
  int repetitions = 5;  // timed runs per point (after one warm-up); the median is kept
  bool smpi_shared_buffers = false;
};

// CPU time to post one MPI_Isend of 8 bytes from a to b: the median time of posting 32 of them.
double measure_send_overhead_us(MPI_Comm comm, int a, int b, const ProbeSettings& settings);

// CPU time to complete one received message (o_r), at `receiver`: up to 16 other ranks send it
// one empty message each, then four each; it waits `settle_us` for all of them to arrive
// (under SMPI a simulated wait), then completes them, timed. The difference of the two times
// over the extra messages; 0 where noise makes it negative.
double measure_recv_overhead_us(MPI_Comm comm, int receiver, double settle_us, const ProbeSettings& settings);

// Half the round trip of a ping-pong (MPI_Isend + MPI_Wait, MPI_Recv) between a and b, per size.
std::vector<OneWaySample> measure_one_way(MPI_Comm comm, int a, int b, const std::vector<std::size_t>& sizes,
                                          const ProbeSettings& settings);

// The time (us) of `flows` all running at once, each carrying `messages` messages of `bytes`
// posted together, between two barriers of the ranks that take part: the median of the
// repetitions, after a warm-up.
double measure_flows_us(MPI_Comm comm, const std::vector<Flow>& flows, std::size_t bytes, int messages,
                        const ProbeSettings& settings);

// Bytes per second that `flows`, all running at once, move together: each flow carries M bytes,
// for M = small and large; the time of the whole pattern at each size (between two barriers of
// the ranks that take part), and flows * (large - small) / (T(large) - T(small)), so that
// latencies and barriers cancel.
double measure_aggregate_bytes_per_s(MPI_Comm comm, const std::vector<Flow>& flows, std::size_t small,
                                     std::size_t large, const ProbeSettings& settings);

// The ranks of `ranks`, all busy: topocoll's `direct` among them (on a communicator of their
// own) with blocks of `bytes`, 100 calls back to back; the slowest rank's time per call (us),
// the median of the repetitions (BusyMessagesCalibration with kBusyMessageBytes,
// EagerMessagesCalibration). `copy_bandwidth`: what the library charges for its copies under
// SMPI (0: its default).
inline constexpr std::size_t kBusyMessageBytes = 8;
double measure_busy_exchange_us(MPI_Comm comm, const std::vector<int>& ranks, std::size_t bytes, double copy_bandwidth,
                                const ProbeSettings& settings);

// Bytes per second that one flow from `sender` to `near` gets while `sender` also sends to every
// rank of `far` at once (all flows of M bytes, the near one posted first): from the near
// flow's completion time at M = small and large, so that latencies cancel.
double measure_near_flow_bytes_per_s(MPI_Comm comm, int sender, int near, const std::vector<int>& far,
                                     std::size_t small, std::size_t large, const ProbeSettings& settings);

// memcpy bandwidth of this process (no MPI), bytes per second.
double measure_memcpy_bytes_per_s(std::size_t bytes, int repetitions);

}  // namespace topocoll::calibrate
