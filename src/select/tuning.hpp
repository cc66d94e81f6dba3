// topocoll-tune's decisions, without MPI: at each tuned size, which of the algorithms measured
// there (the MPI library's own, `native`, among them) the table names, and the table's ranges.
//
// The rule, for the targets "auto within the noise of the fastest algorithm measured, and never
// slower than native beyond the noise": the fastest by median wins if it is native, or if it was
// faster than native in every repetition (the repetitions ran interleaved, so a slow spell of the
// machine falls on both alike, and the two times of one repetition are what noise moves least);
// else native wins, having been as fast as the fastest in some repetition: within its noise. With
// one repetition there is no noise to measure and "every repetition" is that one.
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
  std::string why;  // "faster than native in 5 of 5 repetitions", "native: ..."
};

// Nullopt when native was not measured at this size (no winner can be told safely).
std::optional<SizeWinner> pick_winner(std::size_t bytes, std::span<const TunedTimes> measured);

// The table's entries for one operation on one communicator: winners sorted by size, adjacent
// sizes with the same winner merged; an entry runs from its first tuned size to just below the
// next entry's (the last one to its last tuned size), like a rules file's size thresholds.
std::vector<Decision> decisions_from(Operation operation, int ranks, const std::string& shape,
                                     std::vector<SizeWinner> winners);

}  // namespace topocoll
