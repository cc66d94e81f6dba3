// topocoll-tune's winners and ranges (tuning.hpp).
#include "select/tuning.hpp"

#include <algorithm>
#include <cmath>
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

std::vector<SizeWinner> sorted_by_size(std::vector<SizeWinner> winners) {
  std::stable_sort(winners.begin(), winners.end(),
                   [](const SizeWinner& a, const SizeWinner& b) { return a.bytes < b.bytes; });
  // A size tuned twice: the first.
  winners.erase(std::unique(winners.begin(), winners.end(),
                            [](const SizeWinner& a, const SizeWinner& b) { return a.bytes == b.bytes; }),
                winners.end());
  return winners;
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
    winner.undecided = test.pairs > 1 && test.mean_ratio < 1.0;
    winner.why = fastest->algorithm + ", the fastest by median, is not faster than native at " +
                 p_as(100.0 * confidence) + "% confidence (p = " + p_as(test.p_value) + over + ")";
  }
  return winner;
}

std::vector<std::size_t> undecided_sizes(const std::vector<SizeWinner>& winners) {
  std::vector<std::size_t> sizes;
  for (const SizeWinner& w : winners) {
    if (w.undecided) sizes.push_back(w.bytes);
  }
  std::sort(sizes.begin(), sizes.end());
  return sizes;
}

std::vector<std::size_t> sizes_between_changing_winners(std::vector<SizeWinner> winners) {
  winners = sorted_by_size(std::move(winners));
  std::vector<std::size_t> between;
  for (std::size_t i = 1; i < winners.size(); ++i) {
    const std::size_t a = winners[i - 1].bytes, b = winners[i].bytes;
    if (winners[i - 1].algorithm == winners[i].algorithm || b - a < 2) continue;
    const auto middle = a == 0 ? b / 2 : static_cast<std::size_t>(std::llround(std::sqrt(double(a) * double(b))));
    between.push_back(std::clamp(middle, a + 1, b - 1));
  }
  return between;
}

std::vector<Decision> decisions_from(Operation operation, int ranks, const std::string& shape,
                                     std::vector<SizeWinner> winners) {
  winners = sorted_by_size(std::move(winners));
  std::vector<Decision> table;
  for (const SizeWinner& w : winners) {
    if (table.empty() || table.back().algorithm != w.algorithm) {
      std::size_t from = w.bytes;
      if (!table.empty()) {
        // The unmeasured gap: native's where either side is native, else the smaller sizes'.
        if (w.algorithm == "native") {
          from = table.back().to_bytes + 1;
        } else {
          table.back().to_bytes = w.bytes - 1;
        }
      }
      table.push_back(Decision{operation, ranks, shape, from, w.bytes, w.algorithm, {}});
    }
    table.back().to_bytes = w.bytes;
    table.back().measured.push_back({w.bytes, w.median_us, w.native_us});
  }
  if (table.empty()) return table;
  // Outside the tuned sizes: native.
  if (table.front().algorithm == "native") {
    table.front().from_bytes = 0;
  } else if (table.front().from_bytes > 0) {
    table.insert(table.begin(), Decision{operation, ranks, shape, 0, table.front().from_bytes - 1, "native", {}});
  }
  if (table.back().algorithm == "native") {
    table.back().to_bytes = kLargestTableBytes;
  } else if (table.back().to_bytes < kLargestTableBytes) {
    table.push_back(Decision{operation, ranks, shape, table.back().to_bytes + 1, kLargestTableBytes, "native", {}});
  }
  return table;
}

}  // namespace topocoll
