// Which ranks the cost model reads, and how many ranks each one stands for.
//
// Reading every rank's part of every round costs O(messages) per algorithm: O(p^2) for an
// all-to-all, 5 s of auto's first call at 4096 ranks. Up to kEveryRankUpTo ranks the model
// reads every rank (so is every study in docs/results.md, 258 ranks at most). Beyond, it reads a sample:
// the ranks are split into strata (the backbone's groups when a backbone applies, else the
// groups of the topology's outermost level, else one), each stratum gets a share of
// kSampledRanks in proportion to its size (at least 3 ranks, or all it has). Its first and
// last members (in rank order) stand for themselves: where partners are found by distance
// (shift, bruck, lg), the ranks near a group's edges are the ones whose messages cross to
// another group. The others stand for equal stretches of the interior, each read at its
// stretch's middle. What adds up over ranks (bytes and flows across a backbone, the supply of
// the ranks' links) is weighted by what a rank stands for; what is a maximum (the slowest
// rank, the slowest lone message) is taken over the sample.
// Cost: O(p) to build, O(kSampledRanks x messages per rank) per algorithm. kSampledRanks = 32
// keeps auto's predictions within a few percent of reading every rank (rank_sample_test.cpp)
// and its first choice at 4096 ranks in tens of milliseconds (docs/results.md).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace topocoll {

struct SampledRank {
  int rank = 0;
  double weight = 1.0;  // how many ranks it stands for
};

enum class RankReading {
  every_rank,        // exact at any size (tests, and the schedules of the studies)
  sampled_at_scale,  // every rank up to kEveryRankUpTo ranks, a sample beyond
};

class RankSample {
 public:
  static constexpr int kEveryRankUpTo = 320;
  static constexpr int kSampledRanks = 32;

  // `stratum_of_rank`: each rank's stratum (0..strata-1), or empty for one stratum.
  RankSample(std::span<const int> stratum_of_rank, int size, RankReading reading);

  std::span<const SampledRank> ranks() const { return ranks_; }
  // The position of `rank` in ranks(), or -1 when it is not read.
  int slot(int rank) const { return every_rank_ ? rank : slots_[static_cast<std::size_t>(rank)]; }
  bool every_rank() const { return every_rank_; }

 private:
  std::vector<SampledRank> ranks_;
  std::vector<int> slots_;  // empty when every rank is read
  bool every_rank_ = true;
};

}  // namespace topocoll
