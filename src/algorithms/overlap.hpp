// overlap: the exchange across the outermost level kept in flight while each group exchanges
// inside (see overlap.cpp).
#pragma once

#include "algorithms/problem.hpp"
#include "model/tam_wang.hpp"
#include "schedule/schedule.hpp"

namespace topocoll {

Applicability supports_overlap(const AlltoallProblem& problem);
RankSchedule build_overlap(const AlltoallProblem& problem, int rank);
double predict_overlap_us(const AlltoallProblem& problem, const TamWangParams& model);

}  // namespace topocoll
