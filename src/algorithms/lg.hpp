// The LG two-cluster total exchange (see lg.cpp).
#pragma once

#include "algorithms/problem.hpp"
#include "model/tam_wang.hpp"
#include "schedule/schedule.hpp"

namespace topocoll {

Applicability supports_lg(const AlltoallProblem& problem);
RankSchedule build_lg(const AlltoallProblem& problem, int rank);
double predict_lg_us(const AlltoallProblem& problem, const TamWangParams& model);

}  // namespace topocoll
