// `auto` selection for alltoall (see auto_select.hpp).
#include "select/auto_select.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "algorithms/overlap.hpp"

#include "model/alltoall_traffic.hpp"
#include "model/hierarchical_cost.hpp"

namespace topocoll {

namespace {

// overlap's stripes tried when the caller leaves them to auto, and the gain that justifies more.
constexpr int kStripeChoices[] = {1, 2, 4, kMaxOverlapStripes};
constexpr double kStripeGain = 0.005;

AlgorithmPrediction predict_one(const Algorithm& algorithm, const Problem& problem,
                                const MachineCost& machine, const MachinePricing& pricing, double give_up_above_us) {
  AlgorithmPrediction prediction{std::string(algorithm.name), std::nullopt, {}, false, {}};
  if (!algorithm.build) {
    prediction.note = "not modelled (no schedule)";
    return prediction;
  }
  if (const Applicability fits = algorithm.supports(problem); !fits.ok) {
    prediction.note = "not applicable: " + fits.reason;
    return prediction;
  }
  prediction.knobs = problem.knobs;
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

// overlap with its stripes left to auto: the fewest stripes within kStripeGain of the best.
AlgorithmPrediction predict_overlap(const Algorithm& algorithm, const Problem& problem,
                                    const MachineCost& machine, const MachinePricing& pricing,
                                    double give_up_above_us) {
  std::vector<AlgorithmPrediction> tried;
  for (int stripes : kStripeChoices) {
    Problem striped = problem;
    striped.knobs.stripes = stripes;
    tried.push_back(predict_one(algorithm, striped, machine, pricing, give_up_above_us));
    if (!tried.back().predicted_us) return tried.back();  // not applicable: the same for any count
  }
  double best_us = *tried.front().predicted_us;
  for (const AlgorithmPrediction& t : tried) best_us = std::min(best_us, *t.predicted_us);
  for (AlgorithmPrediction& t : tried) {
    // A form stopped above the best so far only bounds its time from below: not a candidate.
    if (!t.at_least && *t.predicted_us <= best_us * (1.0 + kStripeGain)) {
      t.note += ", " + std::to_string(t.knobs.stripes) + (t.knobs.stripes == 1 ? " stripe" : " stripes");
      return t;
    }
  }
  return tried.front();
}

}  // namespace

std::string describe_run(const std::string& algorithm, const AlgorithmKnobs& knobs) {
  if (algorithm == "overlap" && knobs.stripes > 1) {
    return algorithm + " with " + std::to_string(knobs.stripes) + " stripes";
  }
  return algorithm;
}

AutoChoice select_alltoall(const Problem& problem, const MachineCost& machine, Predictions predictions,
                           std::span<const Algorithm> candidates) {
  AutoChoice choice;
  if (const auto unusable = check_machine(machine)) {
    for (const Algorithm& algorithm : candidates) {
      if (algorithm.name != "auto")
        choice.predictions.push_back({std::string(algorithm.name), std::nullopt, *unusable, false, {}});
    }
    return choice;
  }
  if (problem.topology && problem.topology->size() != problem.size) {
    const std::string why = "the topology describes " + std::to_string(problem.topology->size()) +
                            " ranks, the problem " + std::to_string(problem.size);
    for (const Algorithm& algorithm : candidates) {
      if (algorithm.name != "auto") choice.predictions.push_back({std::string(algorithm.name), std::nullopt, why, false, {}});
    }
    return choice;
  }
  const MachinePricing pricing(machine, problem.topology, problem.size);
  double best_us = 0.0;
  for (const Algorithm& algorithm : candidates) {
    if (algorithm.name == "auto") continue;
    const bool bounded = predictions == Predictions::enough_to_choose && !choice.algorithm.empty();
    const double give_up_above_us = bounded ? best_us : std::numeric_limits<double>::infinity();
    const bool stripes_to_choose = algorithm.name == "overlap" && problem.knobs.stripes == 0;
    AlgorithmPrediction prediction = stripes_to_choose
                                         ? predict_overlap(algorithm, problem, machine, pricing, give_up_above_us)
                                         : predict_one(algorithm, problem, machine, pricing, give_up_above_us);
    if (prediction.predicted_us && (choice.algorithm.empty() || *prediction.predicted_us < best_us)) {
      choice.algorithm = prediction.algorithm;
      choice.knobs = prediction.knobs;
      best_us = *prediction.predicted_us;
    }
    choice.predictions.push_back(std::move(prediction));
  }
  return choice;
}

AutoChoice select_alltoall(const Problem& problem, const Calibration& calibration, Predictions predictions) {
  return select_alltoall(problem, calibration.machine(), predictions);
}

AutoRun choose_alltoall(const Problem& problem, const MachineCost& machine,
                        std::span<const Algorithm> candidates) {
  const AutoChoice choice = select_alltoall(problem, machine, Predictions::enough_to_choose, candidates);
  if (choice.algorithm.empty()) return {kAutoFallback, problem.knobs};
  return {choice.algorithm, choice.knobs};
}

AutoRun choose_alltoall(const Problem& problem, const Calibration& calibration) {
  return choose_alltoall(problem, calibration.machine(), algorithms_for(Operation::alltoall));
}

}  // namespace topocoll
