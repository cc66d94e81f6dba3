// Local copies, packing and unpacking take time. On a real machine they simply do; under
// SMPI with computation not simulated they would be free, so each one is charged explicitly:
// bytes / copy_bandwidth seconds of simulated computation on the rank's host.
// smpi_execute(seconds) is not used: it converts seconds with the smpi/host-speed setting
// (20 kflop/s unless configured), not with the platform's host speed, so a 4 ms copy would
// cost 80 ns on a 1 Gf host. Flops at the host's own speed take exactly the stated time.
#pragma once

#include <cstddef>

#ifdef TOPOCOLL_SMPI
#include <simgrid/host.h>
#include <smpi/smpi.h>
#endif

namespace topocoll::exec {

// Bytes per second of a simulated memory copy when CollectiveOptions::copy_bandwidth is 0.
inline constexpr double kDefaultCopyBandwidth = 5e9;

inline void charge_local_copy([[maybe_unused]] std::size_t bytes,
                              [[maybe_unused]] double bytes_per_second) {
#ifdef TOPOCOLL_SMPI
  if (bytes == 0) return;
  const double seconds = static_cast<double>(bytes) / bytes_per_second;
  smpi_execute_flops(seconds * sg_host_get_speed(sg_host_self()));
#endif
}

}  // namespace topocoll::exec
