// topocoll-tune's winners and ranges (tuning.hpp).
#include "select/tuning.hpp"

#include <algorithm>
#include <cstdio>

#include "select/paired_test.hpp"

namespace topocoll {

namespace {

// "14.2x", "1.03x": a ratio with three significant digits.
std::string times_as(double ratio) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3gx", ratio);
  return text;
}

std::string p_as(double p) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2g", p);
  return text;
}

}  // namespace

std::optional<SizeWinner> pick_winner(std::size_t bytes, std::span<const TunedTimes> measured, double confidence) {
  const auto native = std::find_if(measured.begin(), measured.end(), [](const TunedTimes& t) { return t.algorithm == "native"; });
  if (native == measured.end()) return std::nullopt;
  const auto fastest = std::min_element(measured.begin(), measured.end(), [](const TunedTimes& a, const TunedTimes& b) {
    return a.median_us < b.median_us;
  });
  SizeWinner winner{bytes, "native", native->median_us, native->median_us, "native is the fastest measured"};
  if (fastest == native) return winner;
  const PairedComparison test = compare_paired(fastest->repetitions_us, native->repetitions_us);
  const std::string over = " over " + std::to_string(test.pairs) + (test.pairs == 1 ? " repetition" : " repetitions");
  const double significance = 1.0 - confidence;
  if (test.pairs > 0 && test.p_value < significance) {
    winner.algorithm = fastest->algorithm;
    winner.median_us = fastest->median_us;
    winner.why = "the fastest, " + times_as(1.0 / test.mean_ratio) + " faster than native" +
                 (test.pairs == 1 ? " in the one repetition (no noise measured)"
                                  : " (geometric mean" + over + ", paired t-test p = " + p_as(test.p_value) + ")");
  } else {
    // Native is within the noise of the fastest.
    winner.why = fastest->algorithm + ", the fastest by median, is not faster than native at " +
                 p_as(100.0 * confidence) + "% confidence (p = " + p_as(test.p_value) + over + ")";
  }
  return winner;
}

std::vector<Decision> decisions_from(Operation operation, int ranks, const std::string& shape,
                                     std::vector<SizeWinner> winners) {
  std::sort(winners.begin(), winners.end(), [](const SizeWinner& a, const SizeWinner& b) { return a.bytes < b.bytes; });
  std::vector<Decision> table;
  for (const SizeWinner& w : winners) {
    if (!table.empty() && table.back().to_bytes == w.bytes) continue;  // a size tuned twice: the first
    if (table.empty() || table.back().algorithm != w.algorithm) {
      if (!table.empty()) table.back().to_bytes = w.bytes - 1;
      table.push_back(Decision{operation, ranks, shape, w.bytes, w.bytes, w.algorithm, {}});
    }
    table.back().to_bytes = w.bytes;
    table.back().measured.push_back({w.bytes, w.median_us, w.native_us});
  }
  return table;
}

}  // namespace topocoll
