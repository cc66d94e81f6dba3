// The Tam-Wang cost model (complete-exchange-on-clusters.txt, Section 2) read off a schedule;
// its parameters are in algorithms/tam_wang_params.hpp.
#pragma once

#include "algorithms/registry.hpp"
#include "algorithms/tam_wang_params.hpp"

namespace topocoll {

struct Schedule;

// The Tam-Wang time of a schedule, read off the schedule itself: each round costs, on its
// busiest rank, max(packets sent, packets received) * g + T_w (when the rank communicates at
// all), plus its local copies at copy_bytes_per_us; rounds run one after the other. For the
// flat algorithms this reproduces the closed-form formulas of the registry.
double predict_schedule_us(const Schedule& schedule, const TamWangParams& model);

// An algorithm's Tam-Wang time: its closed form where the registry has one, else read off its
// schedule. The algorithm has a schedule (not `native`) and supports the problem.
double predict_tam_wang_us(const Algorithm& algorithm, const Problem& problem,
                           const TamWangParams& model);

}  // namespace topocoll
