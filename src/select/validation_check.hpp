// The calibration's validation pass (topocoll-calibrate) timed the total exchange's algorithms,
// the MPI library's own among them, on the calibrated communicator at a few block sizes, beside
// the model's predictions. Where the model is off, those measurements outrank it: between two
// validated sizes (or at one), each algorithm measured at both is priced from its measurements
// (interpolated on a log-log scale), and where the model's pick is priced more than the
// calibration's noise (validation_noise) above the fastest so priced, auto runs that fastest instead (the MPI
// library's own, often: on a node with shared memory the model missed its eager protocol and
// ran direct 26 to 36% above the fastest). Only native and the algorithms measured faster than
// native by more than the noise (at a validated size; strictly between two, at both ends) may
// run: a pick within the noise of native has little to gain and the noise to lose, and the
// interpolation cannot see the library's switches in between. Outside the validated sizes, on
// another number of ranks, or for an algorithm never validated, the model stands.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "select/calibration.hpp"

namespace topocoll {

// What the validation's medians may differ by and still be noise on a real machine (5%).
inline constexpr double kValidationNoise = 0.05;
// On a simulated one (SMPI) every time repeats exactly, so a difference is the algorithms':
// topocoll-calibrate records 0.5% (auto's target against the MPI library's own), a margin for
// the interpolation between validated sizes only. On a platform where the model put overlap
// 1.2% above the library's own alltoall, 5% let it run there.
inline constexpr double kSimulatedValidationNoise = 0.005;

// The median of a non-empty set of times (the mean of the middle two for an even count).
double median(std::vector<double> values);

// The most a real machine's measured noise is taken to be (validation_noise must stay below 1).
inline constexpr double kMostValidationNoise = 0.5;

// A real machine's noise as its validation pass shows it (`repetitions`: each point's timed
// repetitions): per point, half the range of its repetitions over their median; the median of
// that over the points with two repetitions or more, never below kValidationNoise (a machine
// drifts more between jobs than within one: on a 16-core node the validation put direct within
// 5% of native at 22 of 24 points in four jobs, where one job's repetitions spread less) nor
// above kMostValidationNoise. Nullopt where no point has two repetitions.
std::optional<double> noise_of_repetitions(std::span<const std::vector<double>> repetitions);

// The calibration's noise (validation_noise), or kValidationNoise where it records none.
inline double validation_noise(const Calibration& calibration) {
  return calibration.validation_noise.value_or(kValidationNoise);
}

struct ValidatedChoice {
  std::string algorithm;  // a point's name for a candidate's run, or "native"
  std::string chosen_by;  // "the calibration's validation (...)"
};

// Nullopt where the measurements do not overrule `model_pick` (they agree, or say nothing).
// Points and `model_pick` name a run as describe_run does ("overlap with 2 stripes"), and so
// does the choice. `candidates`: the algorithms that may run (native always may).
std::optional<ValidatedChoice> overrule_by_validation(Operation operation, std::size_t block_bytes, int ranks,
                                                      const std::string& model_pick, const Calibration& calibration,
                                                      std::span<const Algorithm> candidates);

// What the validation has auto run at a validated size whatever the model's pick (what
// overrule_by_validation makes of a pick of native there): native, unless an algorithm measured
// faster than native beyond the noise, then the fastest of those. Nullopt where `block_bytes`
// is not a validated size of this operation on this number of ranks. The validation pass
// bisects between neighbouring sizes whose winners differ (calibration_validation.cpp), since
// strictly between two validated sizes an algorithm runs only where it won at both ends.
std::optional<std::string> validated_winner_at(Operation operation, std::size_t block_bytes, int ranks,
                                               const Calibration& calibration, std::span<const Algorithm> candidates);

}  // namespace topocoll
