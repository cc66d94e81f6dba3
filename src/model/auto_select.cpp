// `auto` selection for alltoall (see auto_select.hpp).
#include "model/auto_select.hpp"

#include <limits>

#include "model/alltoall_traffic.hpp"
#include "model/hierarchical_cost.hpp"

namespace topocoll {

namespace {

AlgorithmPrediction predict_one(const AlltoallAlgorithm& algorithm, const AlltoallProblem& problem,
                                const MachineCost& machine, const MachinePricing& pricing, double give_up_above_us) {
  AlgorithmPrediction prediction{std::string(algorithm.name), std::nullopt, {}};
  if (!algorithm.build) {
    prediction.note = "not modelled (no schedule)";
    return prediction;
  }
  if (const Applicability fits = algorithm.supports(problem); !fits.ok) {
    prediction.note = "not applicable: " + fits.reason;
    return prediction;
  }
  if (const auto us = predict_from_traffic_us(algorithm.name, problem, pricing, give_up_above_us)) {
    prediction.predicted_us = *us;
    prediction.at_least = *us > give_up_above_us;
    prediction.note = prediction.at_least ? "traffic form, stopped above the best" : "traffic form";
    return prediction;
  }
  prediction.predicted_us = predict_hierarchical_us(build_full_schedule(algorithm, problem), machine, problem.topology);
  prediction.note = "schedule";
  return prediction;
}

}  // namespace

AutoChoice select_alltoall(const AlltoallProblem& problem, const MachineCost& machine, Predictions predictions,
                           std::span<const AlltoallAlgorithm> candidates) {
  AutoChoice choice;
  if (const auto unusable = check_machine(machine)) {
    for (const AlltoallAlgorithm& algorithm : candidates) {
      if (algorithm.name != "auto")
        choice.predictions.push_back({std::string(algorithm.name), std::nullopt, *unusable});
    }
    return choice;
  }
  if (problem.topology && problem.topology->size() != problem.size) {
    const std::string why = "the topology describes " + std::to_string(problem.topology->size()) +
                            " ranks, the problem " + std::to_string(problem.size);
    for (const AlltoallAlgorithm& algorithm : candidates) {
      if (algorithm.name != "auto") choice.predictions.push_back({std::string(algorithm.name), std::nullopt, why});
    }
    return choice;
  }
  const MachinePricing pricing(machine, problem.topology, problem.size);
  double best_us = 0.0;
  for (const AlltoallAlgorithm& algorithm : candidates) {
    if (algorithm.name == "auto") continue;
    const bool bounded = predictions == Predictions::enough_to_choose && !choice.algorithm.empty();
    const double give_up_above_us = bounded ? best_us : std::numeric_limits<double>::infinity();
    AlgorithmPrediction prediction = predict_one(algorithm, problem, machine, pricing, give_up_above_us);
    if (prediction.predicted_us && (choice.algorithm.empty() || *prediction.predicted_us < best_us)) {
      choice.algorithm = prediction.algorithm;
      best_us = *prediction.predicted_us;
    }
    choice.predictions.push_back(std::move(prediction));
  }
  return choice;
}

AutoChoice select_alltoall(const AlltoallProblem& problem, const Calibration& calibration, Predictions predictions) {
  return select_alltoall(problem, calibration.machine(), predictions);
}

std::string choose_alltoall(const AlltoallProblem& problem, const Calibration& calibration) {
  std::string name = select_alltoall(problem, calibration, Predictions::enough_to_choose).algorithm;
  return name.empty() ? kAutoFallback : name;
}

}  // namespace topocoll
