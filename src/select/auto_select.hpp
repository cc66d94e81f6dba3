// `auto`: predict every applicable algorithm of the problem's operation (alltoall, or scatter
// and gather and their v forms) with the hierarchical cost model (hierarchical_cost.hpp) on a
// calibrated machine, and pick the lowest. Pure C++, no
// MPI: every rank that passes the same problem and calibration gets the same answer (the same
// arithmetic in the same order). Ties go to the earlier algorithm of the registry.
// Cost: each algorithm is priced from its plan (model/plan_cost.hpp), O(messages), no schedule
// built. To choose, a prediction may stop as soon as its rounds exceed the best prediction so
// far (the choice is the same). An algorithm whose registry entry lists knob settings for auto
// (Algorithm::auto_knobs: overlap's stripes, when the caller leaves them at 0; topo's choice of
// a binomial tree or a star for each phase) is predicted with each, and the simplest within
// 0.5% of the best of them wins (for overlap, each stripe is one more message per block
// across, at a cost the model only sees as posting overhead).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "algorithms/problem.hpp"
#include "algorithms/registry.hpp"
#include "select/calibration.hpp"
#include "model/machine_cost.hpp"

namespace topocoll {

struct AlgorithmPrediction {
  std::string algorithm;
  std::optional<double> predicted_us;  // nullopt: not applicable, or not modelled
  std::string note;                    // how it was predicted ("from its rounds"), or why not
  bool at_least = false;               // stopped above the best: the time is at least predicted_us
  AlgorithmKnobs knobs;                // the knobs predicted (overlap: the stripes chosen)
};

// Every prediction in full (to show them), or only as far as needed to choose.
enum class Predictions { all, enough_to_choose };

struct AutoChoice {
  std::string algorithm;                         // empty only when nothing could be predicted
  AlgorithmKnobs knobs;                          // the knobs to run it with
  std::vector<AlgorithmPrediction> predictions;  // one per candidate, in registry order
};

// Predicts every candidate (`native`, which has no schedule, is listed as not modelled); the
// candidates default to the problem's operation's registry.
AutoChoice select_algorithm(const Problem& problem, const MachineCost& machine,
                            Predictions predictions = Predictions::all, std::span<const Algorithm> candidates = {});
AutoChoice select_algorithm(const Problem& problem, const Calibration& calibration,
                           Predictions predictions = Predictions::all);

// What the executor calls: the algorithm `auto` runs for this problem, and its knobs. Never
// empty: if no algorithm can be predicted (a calibration that does not describe a machine), the
// operation's default algorithm (default_algorithm: pairwise, linear), with the problem's knobs.
struct AutoRun {
  std::string algorithm;
  AlgorithmKnobs knobs;
  std::string chosen_by;  // "the cost model", or the decision table's entry (describe_decision)
};
AutoRun choose_algorithm(const Problem& problem, const Calibration& calibration);
// The same on a machine, among `candidates` (the executor's, for the v forms).
AutoRun choose_algorithm(const Problem& problem, const MachineCost& machine,
                        std::span<const Algorithm> candidates);

// The average block size the v forms' auto chooses by: the call's, rounded down to its six
// leading bits (within 1/32 of it). Averages that differ by a few bytes from call to call (a
// code whose totals drift) then share one choice instead of each running the model anew, and
// the choice depends on the size class alone, not on which call came first.
std::size_t average_block_class(std::size_t average_bytes);

// What auto runs for one call: the calibration's decision table where an entry covers the call
// (its `operation`, which for the v forms differs from the uniform stand-in `problem`; the
// communicator's size; the shape of problem.topology; `block_bytes`, the v forms' average block),
// with the problem's knobs; the table may name `native`. Where no entry covers it, or the entry
// names an algorithm outside `candidates`, the model's choice among them, unless the
// calibration's validation measured that choice slower than another between the validated
// sizes around the call (validation_check.hpp): then that other.
AutoRun choose_for_call(Operation operation, std::size_t block_bytes, const Problem& problem,
                        const Calibration& calibration, std::span<const Algorithm> candidates);

// "overlap with 2 stripes", or the bare name: how tools print what auto runs.
std::string describe_run(const std::string& algorithm, const AlgorithmKnobs& knobs,
                         Operation operation = Operation::alltoall);

}  // namespace topocoll
