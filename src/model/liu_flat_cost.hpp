// Liu, Wang and Prasanna's flat cost model of a complete exchange (irregular-all-to-all-
// abstract.txt): a start-up T_s per message, t_d per byte transferred, t_c per byte copied to
// the network interface (composing a message), t_m per byte of other local memory access, and
// L_max, the largest traffic at a node. Read round by round off any schedule, every node of a
// round working at once and the round lasting as long as its busiest node:
//
//   T = sum over rounds t of  max over ranks i of
//         ( m_i,t T_s + L_i,t t_d + c_i,t t_c + a_i,t t_m )
//
// m: messages the rank starts (sends), L: the larger of the bytes it sends and receives, c:
// bytes it copies into scratch (a message being composed), a: bytes it copies anywhere else
// (into the receive buffer). L_max is the largest sum over rounds of L_i,t. The model knows no
// topology and no contention beyond a node's own traffic: it is the paper's, shown beside the
// hierarchical model auto uses (topocoll-plan --calibration) for liu and the flat algorithms.
// From a calibrated machine: T_s = send overhead + the outermost level's latency, t_d = 1 / the
// smaller of that level's bandwidth and a rank's injection, t_c = t_m = 1 / the copy bandwidth.
#pragma once

#include <cstddef>
#include <vector>

#include "model/machine_cost.hpp"
#include "schedule/schedule.hpp"

namespace topocoll {

struct LiuFlatParams {
  double startup_us = 0.0;          // T_s
  double us_per_byte = 0.0;         // t_d
  double us_per_copied_byte = 0.0;  // t_c
  double us_per_memory_byte = 0.0;  // t_m
  static LiuFlatParams of(const MachineCost& machine);
};

struct LiuFlatCost {
  double predicted_us = 0.0;
  std::size_t startups = 0;      // sum over rounds of the most messages a rank starts
  std::size_t max_traffic = 0;   // L_max, bytes
};

// The model told one rank's schedule at a time (the round's busiest rank and its most messages
// kept per round): what liu_flat_cost computes, without every rank's schedule at once.
class LiuFlatAccumulator {
 public:
  explicit LiuFlatAccumulator(const LiuFlatParams& params) : params_(params) {}
  void add(const RankSchedule& rank);
  LiuFlatCost result() const;

 private:
  LiuFlatParams params_;
  std::vector<double> slowest_us_;          // per round: the busiest rank's time
  std::vector<std::size_t> most_messages_;  // per round: the most messages a rank starts
  std::size_t max_traffic_ = 0;
};

LiuFlatCost liu_flat_cost(const Schedule& schedule, const LiuFlatParams& params);

}  // namespace topocoll
