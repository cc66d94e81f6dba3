// The parameters of the Tam-Wang cost model (complete-exchange-on-clusters.txt, Section 2): a
// message of k packets costs T_ptp = O_s + (k-1)g + L + O_r + U_r = k*g + T_w, with
// T_w = O_s + L - g + O_r + U_r. The flat algorithms' closed forms (the paper's equations) read
// them; the model layer reads any schedule with them (model/tam_wang.hpp).
#pragma once

#include <cstddef>

namespace topocoll {

struct TamWangParams {
  double send_overhead_us = 12.5;   // O_s
  double gap_us = 123.0;            // g = max(g_s, g_r), per packet
  double recv_overhead_us = 20.0;   // O_r
  double user_recv_us = 7.0;        // U_r
  double latency_us = 149.0;        // L (Table 1: 0.3387p + 149 on the 8275-326)
  std::size_t packet_bytes = 1492;  // b
  double copy_bytes_per_us = 0.0;   // local copy bandwidth; 0 means copies are not modelled

  // Table 1 of the paper for the input-buffered 8275-326 switch at p processes.
  static TamWangParams table1(int p) {
    TamWangParams params;
    params.latency_us = 0.3387 * p + 149.0;
    return params;
  }
  double t_w() const { return send_overhead_us + latency_us - gap_us + recv_overhead_us + user_recv_us; }
  std::size_t packets(std::size_t bytes) const { return (bytes + packet_bytes - 1) / packet_bytes; }
};

}  // namespace topocoll
