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
  // Native won only because the test could not tell: the fastest by median was faster than
  // native on the repetitions' geometric mean, not at the confidence asked. More repetitions
  // may tell (topocoll-tune --max-repeat).
  bool undecided = false;
};

// Nullopt when native was not measured at this size (no winner can be told safely).
// `confidence`: the paired test's, in (0.5, 1); a winner other than native needs p < 1 - confidence.
inline constexpr double kDefaultTuningConfidence = 0.95;
std::optional<SizeWinner> pick_winner(std::size_t bytes, std::span<const TunedTimes> measured,
                                      double confidence = kDefaultTuningConfidence);

// The sizes whose winner is undecided, sorted.
std::vector<std::size_t> undecided_sizes(const std::vector<SizeWinner>& winners);

// Where to measure next: between two adjacent tuned sizes whose winners differ, their
// geometric midpoint (the boundary lies somewhere between them; bisection finds it), for each
// such pair that has a whole size between them. Sorted, none already tuned.
std::vector<std::size_t> sizes_between_changing_winners(std::vector<SizeWinner> winners);

// The largest block size a table entry can name (what the calibration file reads: 2^53).
inline constexpr std::size_t kLargestTableBytes = std::size_t{1} << 53;

// The table's entries for one operation on one communicator: winners sorted by size, adjacent
// sizes with the same winner merged. Between the last size one winner won and the first the
// next won, nothing was measured: native takes that gap where either of the two is native (so
// auto is never slower than the library where it was not measured), else the smaller sizes'
// winner. Below the first and above the last tuned size native answers (entries from 0 and to
// kLargestTableBytes, without evidence): nothing measured there says anything is faster.
std::vector<Decision> decisions_from(Operation operation, int ranks, const std::string& shape,
                                     std::vector<SizeWinner> winners);

}  // namespace topocoll
