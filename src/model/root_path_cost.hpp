// Kandalla et al.'s cost model of a gather or scatter (topology-aware-scatter-gather-infiniband.txt,
// Sec. 4.1, extending Thakur et al.'s single-level formulas): the root's messages priced one
// after another, each at the start-up t_s and per-byte t_w of the level that first separates
// its two ranks, the outermost level's scaled by a contention factor alpha:
//
//   T = sum over levels l of  alpha_l * (C_l * t_s,l + B_l * t_w,l)
//
// C_l: how many of the root's messages cross level l first (the paper's C3, C2, C1 for
// inter-switch, intra-switch and intra-node; C1 + C2 + C3 = log P for a binomial tree), B_l:
// their bytes (the paper's N*delta, N*beta, N*gamma). alpha is 1 for a quiet network and applies
// to the outermost level only (the paper assumes contention inside a switch is insignificant).
// t_s and t_w come from a calibrated machine (a level's latency and 1 / its bandwidth), with its
// per-message send overhead added to t_s. The model sees only the root: it fits trees whose
// root's messages are the critical path, and ignores that a linear root's messages overlap.
// auto prices schedules round by round instead (hierarchical_cost.hpp); this is the paper's
// model, shown beside it (topocoll-plan --calibration) and against simulated times.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "model/machine_cost.hpp"
#include "schedule/schedule.hpp"

namespace topocoll {

struct RootPathLevel {
  std::string level;       // the machine level's name ("leaf", "node", "same group")
  int messages = 0;        // C_l
  std::size_t bytes = 0;   // B_l
  double predicted_us = 0.0;
};

struct RootPathCost {
  std::vector<RootPathLevel> levels;  // the machine's levels, outermost first
  double predicted_us = 0.0;
};

// The root's messages of `schedule` (sends and receives) priced by `pricing`; `contention` is
// alpha for the outermost level.
RootPathCost root_path_cost(const Schedule& schedule, int root, const MachinePricing& pricing,
                            double contention = 1.0);

}  // namespace topocoll
