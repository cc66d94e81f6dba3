// `auto` selection (see auto_select.hpp).
#include "select/auto_select.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <vector>

#include "model/plan_cost.hpp"
#include "model/routed_capacities.hpp"
#include "select/size_exchange_plan.hpp"
#include "select/validation_check.hpp"

namespace topocoll {

namespace {

// The gain over the simplest of an algorithm's knob settings that justifies a less simple one.
constexpr double kKnobGain = 0.005;
// Predictions closer than this (relative) are equal.
constexpr double kRounding = 1e-9;

AlgorithmPrediction predict_one(const Algorithm& algorithm, const Problem& problem, const MachinePricing& pricing,
                                double give_up_above_us) {
  AlgorithmPrediction prediction{std::string(algorithm.name), std::nullopt, {}, false, {}};
  if (!algorithm.has_schedule()) {
    prediction.note = "not modelled (no schedule)";
    return prediction;
  }
  if (const Applicability fits = algorithm.supports(problem); !fits.ok) {
    prediction.note = "not applicable: " + fits.reason;
    return prediction;
  }
  prediction.knobs = problem.knobs;
  std::unique_ptr<RoundPlan> plan = algorithm.plan(problem);
  // A v form's size questions are a round of their own before the algorithm's.
  const bool asks_sizes = is_variable(problem.operation) && algorithm.size_questions != nullptr;
  if (asks_sizes) plan = std::make_unique<SizeExchangeFirst>(algorithm, problem, std::move(plan));
  const double us = predict_plan_us(*plan, problem.size, pricing, give_up_above_us);
  prediction.predicted_us = us;
  prediction.at_least = us > give_up_above_us;
  prediction.note = prediction.at_least ? "from its rounds, stopped above the best" : "from its rounds";
  if (asks_sizes) prediction.note += " and its size exchange";
  return prediction;
}

// An algorithm whose knobs auto chooses: the simplest setting within kKnobGain of the best.
AlgorithmPrediction predict_tuned(const Algorithm& algorithm, const std::vector<AlgorithmKnobs>& settings,
                                  const Problem& problem, const MachinePricing& pricing, double give_up_above_us) {
  std::vector<AlgorithmPrediction> tried;
  std::optional<AlgorithmPrediction> not_applicable;
  for (const AlgorithmKnobs& knobs : settings) {
    Problem tuned = problem;
    tuned.knobs = knobs;
    AlgorithmPrediction prediction = predict_one(algorithm, tuned, pricing, give_up_above_us);
    // Not applicable with these knobs (lg at a level of one group) is no candidate; when no
    // setting applies, the first one's reason is the answer.
    if (prediction.predicted_us) {
      tried.push_back(std::move(prediction));
    } else if (!not_applicable) {
      not_applicable = std::move(prediction);
    }
  }
  if (tried.empty()) return *not_applicable;
  // The best setting priced in full; a setting stopped above the bound is slower than it.
  std::optional<double> best_us;
  for (const AlgorithmPrediction& t : tried)
    if (!t.at_least) best_us = std::min(best_us.value_or(*t.predicted_us), *t.predicted_us);
  if (!best_us) return tried.front();  // every setting stopped above the best algorithm so far
  const double within_us = *best_us * (1.0 + kKnobGain);
  for (AlgorithmPrediction& t : tried) {
    // A setting stopped above the bound only bounds its time from below: where that is still
    // within kKnobGain of the best, its full price decides (as if nothing had been stopped), so
    // that stopping early never changes the choice.
    if (t.at_least && *t.predicted_us <= within_us) {
      Problem tuned = problem;
      tuned.knobs = t.knobs;
      t = predict_one(algorithm, tuned, pricing, within_us);
    }
    if (!t.at_least && *t.predicted_us <= within_us) {
      const std::string knobs = algorithm.describe_knobs != nullptr ? algorithm.describe_knobs(t.knobs) : "";
      if (!knobs.empty()) t.note += ", " + knobs;
      return t;
    }
  }
  return tried.front();
}

}  // namespace

std::string describe_run(const std::string& algorithm, const AlgorithmKnobs& knobs, Operation operation) {
  const Algorithm* entry = find_algorithm(operation, algorithm);
  if (entry == nullptr || entry->describe_knobs == nullptr || entry->auto_knobs == nullptr) return algorithm;
  // The knobs auto tunes are told when they differ from the simplest setting.
  Problem any;
  any.operation = operation;
  const std::vector<AlgorithmKnobs> settings = entry->auto_knobs(any);
  const std::string told = entry->describe_knobs(knobs);
  if (settings.empty() || told.empty() || told == entry->describe_knobs(settings.front())) return algorithm;
  return algorithm + " with " + told;
}

AutoChoice select_algorithm(const Problem& problem, const MachineCost& machine, Predictions predictions,
                            std::span<const Algorithm> candidates) {
  if (candidates.empty()) candidates = algorithms_for(problem.operation);
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
  MachinePricing pricing(machine, problem.topology, problem.size);
  const std::optional<RoutedCapacities> links = routed_capacities(problem);
  if (links) pricing.see_links(&*links);
  double best_us = 0.0;
  for (const Algorithm& algorithm : candidates) {
    if (algorithm.name == "auto") continue;
    if (algorithm.reads_routes && pricing.links() == nullptr) {
      choice.predictions.push_back({std::string(algorithm.name), std::nullopt,
                                    "not considered without a network's routes up to " +
                                        std::to_string(kRoutedUpToRanks) +
                                        " ranks (only there does the cost model see the link loads it lowers)",
                                    false, {}});
      continue;
    }
    if (!algorithm.not_for_auto.empty()) {
      choice.predictions.push_back({std::string(algorithm.name), std::nullopt,
                                    "not considered: " + std::string(algorithm.not_for_auto), false, {}});
      continue;
    }
    if (algorithm.auto_up_to_ranks > 0 && problem.size > algorithm.auto_up_to_ranks) {
      choice.predictions.push_back({std::string(algorithm.name), std::nullopt,
                                    "not considered above " + std::to_string(algorithm.auto_up_to_ranks) +
                                        " ranks (its plan holds every piece: memory grows as p^2)",
                                    false, {}});
      continue;
    }
    const bool bounded = predictions == Predictions::enough_to_choose && !choice.algorithm.empty();
    const double give_up_above_us = bounded ? best_us : std::numeric_limits<double>::infinity();
    const std::vector<AlgorithmKnobs> settings =
        algorithm.auto_knobs != nullptr ? algorithm.auto_knobs(problem) : std::vector<AlgorithmKnobs>{};
    AlgorithmPrediction prediction = settings.empty()
                                         ? predict_one(algorithm, problem, pricing, give_up_above_us)
                                         : predict_tuned(algorithm, settings, problem, pricing, give_up_above_us);
    // Ties (to rounding: a floor and a sum of rounds that agree) go to the earlier algorithm.
    const bool faster =
        prediction.predicted_us && (choice.algorithm.empty() || *prediction.predicted_us < best_us * (1.0 - kRounding));
    if (faster) {
      choice.algorithm = prediction.algorithm;
      choice.knobs = prediction.knobs;
      best_us = *prediction.predicted_us;
    }
    choice.predictions.push_back(std::move(prediction));
  }
  return choice;
}

AutoChoice select_algorithm(const Problem& problem, const Calibration& calibration, Predictions predictions) {
  return select_algorithm(problem, calibration.machine(), predictions);
}

AutoRun choose_algorithm(const Problem& problem, const MachineCost& machine,
                        std::span<const Algorithm> candidates) {
  const AutoChoice choice = select_algorithm(problem, machine, Predictions::enough_to_choose, candidates);
  if (choice.algorithm.empty()) return {std::string(default_algorithm(problem.operation)), problem.knobs, "the default"};
  return {choice.algorithm, choice.knobs, "the cost model"};
}

AutoRun choose_algorithm(const Problem& problem, const Calibration& calibration) {
  return choose_algorithm(problem, calibration.machine(), algorithms_for(problem.operation));
}

std::size_t average_block_class(std::size_t average_bytes) {
  constexpr int kLeadingBits = 6;
  int bits = 0;
  for (std::size_t rest = average_bytes; rest != 0; rest >>= 1) ++bits;
  const int dropped = std::max(0, bits - kLeadingBits);
  return (average_bytes >> dropped) << dropped;
}

namespace {

// The run a validation point names (describe_run's text: "lg with groups of level 1"), among
// the candidates and the settings auto tries on `problem`.
std::optional<AutoRun> run_named(const std::string& label, Operation operation, const Problem& problem,
                                 std::span<const Algorithm> candidates) {
  if (label == "native") return AutoRun{label, problem.knobs, {}};
  for (const Algorithm& algorithm : candidates) {
    const std::string name(algorithm.name);
    if (label != name && label.rfind(name + " with ", 0) != 0) continue;
    if (algorithm.auto_knobs == nullptr) {
      if (label == name) return AutoRun{name, problem.knobs, {}};
      continue;
    }
    for (const AlgorithmKnobs& knobs : algorithm.auto_knobs(problem)) {
      if (describe_run(name, knobs, operation) == label) return AutoRun{name, knobs, {}};
    }
  }
  return std::nullopt;
}

// auto without a table: the model's pick, unless the calibration's validation measured it slower.
// The validation names each run with its knobs (calibrate's points), and so is the pick looked up.
AutoRun model_or_validation(Operation operation, std::size_t block_bytes, const Problem& problem,
                            const Calibration& calibration, std::span<const Algorithm> candidates) {
  AutoRun run = choose_algorithm(problem, calibration.machine(), candidates);
  const std::string pick = describe_run(run.algorithm, run.knobs, operation);
  if (auto validated = overrule_by_validation(operation, block_bytes, problem.size, pick, calibration, candidates)) {
    if (auto named = run_named(validated->algorithm, operation, problem, candidates)) {
      named->chosen_by = validated->chosen_by;
      return *named;
    }
  }
  return run;
}

}  // namespace

AutoRun choose_for_call(Operation operation, std::size_t block_bytes, const Problem& problem,
                        const Calibration& calibration, std::span<const Algorithm> candidates) {
  if (!calibration.decisions.empty() && problem.topology != nullptr) {
    const Decision* decision = find_decision(calibration.decisions, operation, problem.size,
                                             topology_shape(*problem.topology), block_bytes);
    if (decision != nullptr && decision->algorithm == kModelDecision) {
      // What topocoll-tune timed as auto: the same choice, the validation's word included.
      AutoRun run = model_or_validation(operation, block_bytes, problem, calibration, candidates);
      run.chosen_by += ", as " + describe_decision(*decision) + " says";
      return run;
    }
    const bool runnable = decision != nullptr &&
                          (decision->algorithm == "native" ||
                           std::any_of(candidates.begin(), candidates.end(),
                                       [&](const Algorithm& a) { return a.name == decision->algorithm; }));
    if (runnable) return {decision->algorithm, problem.knobs, describe_decision(*decision)};
  }
  return model_or_validation(operation, block_bytes, problem, calibration, candidates);
}

}  // namespace topocoll
