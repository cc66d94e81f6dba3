// The statistics of repeated benchmark points (see bench_statistics.hpp).
#include "bench_statistics.hpp"

#include <algorithm>

namespace topocoll::bench {

std::optional<double> median(std::span<const double> values) {
  if (values.empty()) return std::nullopt;
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t middle = sorted.size() / 2;
  if (sorted.size() % 2 == 1) return sorted[middle];
  return (sorted[middle - 1] + sorted[middle]) / 2.0;
}

std::vector<double> values_of(std::span<const RepetitionTime> repetitions, double RepetitionTime::*statistic) {
  std::vector<double> values;
  for (const RepetitionTime& r : repetitions) values.push_back(r.*statistic);
  return values;
}

std::optional<RepetitionSummary> summarise(std::span<const RepetitionTime> repetitions) {
  if (repetitions.empty()) return std::nullopt;
  const std::vector<double> avg = values_of(repetitions, &RepetitionTime::avg_us);
  const std::vector<double> min = values_of(repetitions, &RepetitionTime::min_us);
  const std::vector<double> max = values_of(repetitions, &RepetitionTime::max_us);
  RepetitionSummary summary;
  summary.repetitions = static_cast<int>(repetitions.size());
  summary.median = {*median(avg), *median(min), *median(max)};
  summary.lowest_avg_us = *std::min_element(avg.begin(), avg.end());
  summary.highest_avg_us = *std::max_element(avg.begin(), avg.end());
  summary.lowest_max_us = *std::min_element(max.begin(), max.end());
  summary.highest_max_us = *std::max_element(max.begin(), max.end());
  return summary;
}

double spread_percent(double lowest, double highest, double median) {
  if (median <= 0.0) return 0.0;
  return (highest - lowest) / median * 100.0;
}

std::optional<double> median_ratio(std::span<const double> times, std::span<const double> baseline) {
  std::vector<double> ratios;
  for (std::size_t i = 0; i < std::min(times.size(), baseline.size()); ++i) {
    if (baseline[i] > 0.0) ratios.push_back(times[i] / baseline[i]);
  }
  return median(ratios);
}

std::string ratio_baseline(std::span<const std::string> algorithms) {
  if (std::find(algorithms.begin(), algorithms.end(), "native") != algorithms.end()) return "native";
  return algorithms.empty() ? std::string() : algorithms.front();
}

}  // namespace topocoll::bench
