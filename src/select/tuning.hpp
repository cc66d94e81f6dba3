// topocoll-tune's decisions, without MPI: at each tuned size, which of the algorithms measured
// there (the MPI library's own, `native`, among them) the table names, and the table's ranges.
//
// The rule, for the targets "auto within the noise of the fastest algorithm measured, and never
// slower than native beyond the noise": the fastest by median wins if it is native, or if a
// paired test on the repetitions (paired_test.hpp: the repetitions ran interleaved, so the two
// times of one repetition are what noise moves least) says it is faster than native at the
// stated confidence; else native wins, the fastest being within its noise. (The rule was once
// "faster in every repetition": one slow repetition of five kept a gather 14 times faster by
// median from the table.) With one repetition no noise can be measured and the one decides.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "select/decision_table.hpp"

namespace topocoll {

// One algorithm at one size: its time in each repetition (by repetition number, the same
// numbering for every algorithm) and their median.
struct TunedTimes {
  std::string algorithm;
  double median_us = 0.0;
  std::vector<double> repetitions_us;
};

struct SizeWinner {
  std::size_t bytes = 0;
  std::string algorithm;
  double median_us = 0.0;
  double native_us = 0.0;
  std::string why;  // "the fastest, 14.2x faster than native (...)", "native is the fastest measured"
};

// Nullopt when native was not measured at this size (no winner can be told safely).
// `confidence`: the paired test's, in (0.5, 1); a winner other than native needs p < 1 - confidence.
inline constexpr double kDefaultTuningConfidence = 0.95;
std::optional<SizeWinner> pick_winner(std::size_t bytes, std::span<const TunedTimes> measured,
                                      double confidence = kDefaultTuningConfidence);

// The table's entries for one operation on one communicator: winners sorted by size, adjacent
// sizes with the same winner merged; an entry runs from its first tuned size to just below the
// next entry's (the last one to its last tuned size), like a rules file's size thresholds.
std::vector<Decision> decisions_from(Operation operation, int ranks, const std::string& shape,
                                     std::vector<SizeWinner> winners);

}  // namespace topocoll
