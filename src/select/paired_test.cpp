#include "select/paired_test.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace topocoll {

namespace {

// The continued fraction of the incomplete beta function (modified Lentz), which converges
// fast for x < (a + 1) / (a + b + 2).
double beta_fraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300, kEpsilon = 1e-15;
  constexpr int kMostTerms = 500;
  double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1.0 / d;
  double result = d;
  for (int m = 1; m <= kMostTerms; ++m) {
    const double even = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
    for (const double term : {even, -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0))}) {
      d = 1.0 + term * d;
      if (std::fabs(d) < kTiny) d = kTiny;
      c = 1.0 + term / c;
      if (std::fabs(c) < kTiny) c = kTiny;
      d = 1.0 / d;
      result *= d * c;
    }
    if (std::fabs(d * c - 1.0) < kEpsilon) break;
  }
  return result;
}

// The regularised incomplete beta function I_x(a, b), 0 <= x <= 1.
double incomplete_beta(double a, double b, double x) {
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  const double front =
      std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1.0) / (a + b + 2.0)) return front * beta_fraction(a, b, x) / a;
  return 1.0 - front * beta_fraction(b, a, 1.0 - x) / b;
}

}  // namespace

double student_t_cdf(double t, double degrees) {
  const double tail = 0.5 * incomplete_beta(degrees / 2.0, 0.5, degrees / (degrees + t * t));
  return t < 0.0 ? tail : 1.0 - tail;
}

PairedComparison compare_paired(std::span<const double> candidate_us, std::span<const double> baseline_us) {
  std::vector<double> logs;
  for (std::size_t i = 0; i < std::min(candidate_us.size(), baseline_us.size()); ++i) {
    if (candidate_us[i] > 0.0 && baseline_us[i] > 0.0) logs.push_back(std::log(candidate_us[i] / baseline_us[i]));
  }
  PairedComparison out;
  out.pairs = logs.size();
  if (logs.empty()) return out;
  const double n = static_cast<double>(logs.size());
  double mean = 0.0;
  for (const double x : logs) mean += x / n;
  out.mean_ratio = std::exp(mean);
  double squares = 0.0;
  for (const double x : logs) squares += (x - mean) * (x - mean);
  const double spread = logs.size() > 1 ? std::sqrt(squares / (n - 1.0)) : 0.0;
  // No spread to measure (one pair) or none at all: the sign decides.
  if (spread <= 1e-12 * std::max(1.0, std::fabs(mean))) {
    out.p_value = mean < 0.0 ? 0.0 : 1.0;
    return out;
  }
  out.p_value = student_t_cdf(mean / (spread / std::sqrt(n)), n - 1.0);
  return out;
}

}  // namespace topocoll
