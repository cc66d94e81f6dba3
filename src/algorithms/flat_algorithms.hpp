// Plans and cost formulas of the flat (topology-oblivious) alltoall algorithms, one file
// each; the registry (registry.cpp) lists them by name.
#pragma once

#include <memory>

#include "algorithms/problem.hpp"
#include "algorithms/round_plan.hpp"
#include "algorithms/tam_wang_params.hpp"
#include "schedule/schedule.hpp"

namespace topocoll {

std::unique_ptr<RoundPlan> plan_direct(const Problem& problem);
double predict_direct_us(const Problem& problem, const TamWangParams& model);

std::unique_ptr<RoundPlan> plan_shift(const Problem& problem);
// Shift's step i: rank's block to rank + i, and rank - i's block from it (direct runs them all
// in one round).
void exchange_at_distance(const Problem& problem, int rank, int i, RoundSink& sink);
double predict_shift_us(const Problem& problem, const TamWangParams& model);

std::unique_ptr<RoundPlan> plan_pairwise(const Problem& problem);
double predict_pairwise_us(const Problem& problem, const TamWangParams& model);

std::unique_ptr<RoundPlan> plan_group_shuffle(const Problem& problem);
double predict_group_shuffle_us(const Problem& problem, const TamWangParams& model);
Applicability supports_group_shuffle(const Problem& problem);

Applicability supports_bruck(const Problem& problem);
std::unique_ptr<RoundPlan> plan_bruck(const Problem& problem);
double predict_bruck_us(const Problem& problem, const TamWangParams& model);

}  // namespace topocoll
