// The LG two-cluster total exchange (see lg.cpp).
#pragma once

#include <utility>
#include <vector>

#include "algorithms/problem.hpp"
#include "model/tam_wang.hpp"
#include "schedule/schedule.hpp"

namespace topocoll {

Applicability supports_lg(const AlltoallProblem& problem);
RankSchedule build_lg(const AlltoallProblem& problem, int rank);
// The blocks (peer -> dst) whose sizes `rank` collects from `peer` in phase 1 (alltoallv).
std::vector<std::pair<int, int>> lg_sizes_from(const AlltoallProblem& problem, int rank, int peer);
double predict_lg_us(const AlltoallProblem& problem, const TamWangParams& model);

}  // namespace topocoll
