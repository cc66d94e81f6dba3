// The hierarchical cost of the registered alltoall algorithms without building their
// schedules: each form enumerates, round by round, the bytes every rank sends to and receives
// from each peer (the algorithm's peer arithmetic, nothing else) and feeds the round meter of
// hierarchical_cost.hpp. No segments, no allocation per message: O(messages) time, O(p) memory,
// where building every rank's schedule costs far more (lg's builder is O(p^2) per rank).
// tests/schedule/traffic_forms_test.cpp proves every form equal to the time read off the
// algorithm's real schedule, so a change to an algorithm that the form misses fails there.
#pragma once

#include <limits>
#include <optional>
#include <string_view>

#include "algorithms/problem.hpp"
#include "model/machine_cost.hpp"

namespace topocoll {

// The predicted time of `algorithm` on `problem`, or nullopt when there is no form for it (an
// unknown name, or a kind of problem the form does not cover: then read the schedule).
// The caller has checked that the algorithm supports the problem. Once the rounds priced so far
// exceed `give_up_above_us`, the form stops and returns their time: a lower bound above it.
std::optional<double> predict_from_traffic_us(std::string_view algorithm, const Problem& problem,
                                              const MachinePricing& pricing,
                                              double give_up_above_us = std::numeric_limits<double>::infinity());

// overlap's form (overlap_traffic.cpp).
std::optional<double> predict_overlap_from_traffic_us(const Problem& problem, const MachinePricing& pricing);

// lg's form (lg_traffic.cpp): equal blocks only.
std::optional<double> predict_lg_from_traffic_us(const Problem& problem, const MachinePricing& pricing,
                                                 double give_up_above_us);

}  // namespace topocoll
