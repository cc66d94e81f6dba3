// topocoll-tune's winners and ranges (tuning.hpp).
#include "select/tuning.hpp"

#include <algorithm>

namespace topocoll {

namespace {

// In how many of the repetitions both have `times` was below `native` (and in how many both ran).
std::pair<int, int> repetitions_faster(const TunedTimes& times, const TunedTimes& native) {
  const std::size_t both = std::min(times.repetitions_us.size(), native.repetitions_us.size());
  int faster = 0;
  for (std::size_t i = 0; i < both; ++i) faster += times.repetitions_us[i] < native.repetitions_us[i] ? 1 : 0;
  return {faster, static_cast<int>(both)};
}

}  // namespace

std::optional<SizeWinner> pick_winner(std::size_t bytes, std::span<const TunedTimes> measured) {
  const auto native = std::find_if(measured.begin(), measured.end(), [](const TunedTimes& t) { return t.algorithm == "native"; });
  if (native == measured.end()) return std::nullopt;
  const auto fastest = std::min_element(measured.begin(), measured.end(), [](const TunedTimes& a, const TunedTimes& b) {
    return a.median_us < b.median_us;
  });
  SizeWinner winner{bytes, "native", native->median_us, native->median_us, "native is the fastest measured"};
  if (fastest == native) return winner;
  const auto [faster, both] = repetitions_faster(*fastest, *native);
  const std::string tally = std::to_string(faster) + " of " + std::to_string(both) + " repetitions";
  if (both > 0 && faster == both) {
    winner.algorithm = fastest->algorithm;
    winner.median_us = fastest->median_us;
    winner.why = "the fastest, faster than native in " + tally;
  } else {
    // Native was as fast as the fastest at least once: within the noise of it.
    winner.why = fastest->algorithm + ", the fastest, was faster than native in only " + tally;
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
