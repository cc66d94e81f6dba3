// Statistics of `topocoll-bench --repeat N`: every algorithm's timed block runs N times in
// interleaved order (A B C A B C ...), so that a machine's slow spell falls on all algorithms
// alike. Per algorithm and size: the median of the repetitions and their spread; against the
// baseline, the ratio of the two times taken within each repetition and the median of those
// ratios (not the ratio of two medians, which pairs numbers measured at different moments).
// Pure arithmetic, no MPI.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace topocoll::bench {

// The median: the middle value, or the mean of the two middle values of an even count.
// nullopt for no values.
std::optional<double> median(std::span<const double> values);

// One repetition's statistics over ranks (microseconds), as a point of the benchmark has them.
struct RepetitionTime {
  double avg_us = 0.0;
  double min_us = 0.0;
  double max_us = 0.0;
};

// One statistic of every repetition, e.g. values_of(times, &RepetitionTime::avg_us).
std::vector<double> values_of(std::span<const RepetitionTime> repetitions, double RepetitionTime::*statistic);

// The repetitions of one algorithm at one size, reduced.
struct RepetitionSummary {
  int repetitions = 0;
  RepetitionTime median;  // each of avg, min and max: the median over the repetitions
  double lowest_avg_us = 0.0;   // the fastest and slowest repetition by avg_us: the spread
  double highest_avg_us = 0.0;
  double lowest_max_us = 0.0;
  double highest_max_us = 0.0;
};

// nullopt for no repetitions.
std::optional<RepetitionSummary> summarise(std::span<const RepetitionTime> repetitions);

// (highest - lowest) / median, in percent: how far apart the repetitions lie. 0 for a median of 0.
double spread_percent(double lowest, double highest, double median);

// The median over repetitions i of times[i] / baseline[i] (the same repetition's two times),
// over the repetitions both have and whose baseline time is positive; nullopt when none.
std::optional<double> median_ratio(std::span<const double> times, std::span<const double> baseline);

// The algorithm that ratios are taken against: `native` (the MPI library) when it was
// measured, else the first algorithm of the list; empty for an empty list.
std::string ratio_baseline(std::span<const std::string> algorithms);

}  // namespace topocoll::bench
