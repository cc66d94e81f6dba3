// Builders and cost formulas of the flat (topology-oblivious) alltoall algorithms, one file
// each; the registry (registry.cpp) lists them by name.
#pragma once

#include "algorithms/problem.hpp"
#include "algorithms/tam_wang_params.hpp"
#include "schedule/schedule.hpp"

namespace topocoll {

RankSchedule build_direct(const Problem& problem, int rank);
double predict_direct_us(const Problem& problem, const TamWangParams& model);

RankSchedule build_shift(const Problem& problem, int rank);
double predict_shift_us(const Problem& problem, const TamWangParams& model);

RankSchedule build_pairwise(const Problem& problem, int rank);
double predict_pairwise_us(const Problem& problem, const TamWangParams& model);

RankSchedule build_group_shuffle(const Problem& problem, int rank);
double predict_group_shuffle_us(const Problem& problem, const TamWangParams& model);
Applicability supports_group_shuffle(const Problem& problem);

Applicability supports_bruck(const Problem& problem);
RankSchedule build_bruck(const Problem& problem, int rank);
double predict_bruck_us(const Problem& problem, const TamWangParams& model);

}  // namespace topocoll
