// Whether one algorithm is faster than another from paired measurements: repetition i of each
// ran interleaved with the other's (a slow spell of the machine falls on both), so the
// per-repetition ratio candidate_i / baseline_i is what noise moves least. The test is a
// one-sided paired t-test on the ratios' logarithms (a test on their geometric mean, which
// treats 2x faster and 2x slower alike), the null hypothesis being "not faster".
#pragma once

#include <cstddef>
#include <span>

namespace topocoll {

struct PairedComparison {
  std::size_t pairs = 0;       // repetitions both ran (with positive times)
  double mean_ratio = 1.0;     // geometric mean of candidate / baseline
  // One-sided p-value of "the candidate is not faster": small when it is. 1 without pairs;
  // with one pair, 0 when the candidate was faster there, else 1 (no noise can be measured);
  // with equal ratios throughout (a deterministic simulator), 0 or 1 by their sign.
  double p_value = 1.0;
};

PairedComparison compare_paired(std::span<const double> candidate_us, std::span<const double> baseline_us);

// P(T <= t) for Student's t with `degrees` degrees of freedom (> 0).
double student_t_cdf(double t, double degrees);

}  // namespace topocoll
