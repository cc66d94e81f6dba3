// The ranks the cost model reads (see rank_sample.hpp).
#include "model/rank_sample.hpp"

#include <algorithm>
#include <cmath>

namespace topocoll {

RankSample::RankSample(std::span<const int> stratum_of_rank, int size, RankReading reading) {
  const bool small = reading == RankReading::every_rank || size <= kEveryRankUpTo;
  if (small) {
    ranks_.reserve(static_cast<std::size_t>(std::max(size, 0)));
    for (int r = 0; r < size; ++r) ranks_.push_back({r, 1.0});
    return;
  }
  every_rank_ = false;
  int strata = 1;
  for (int s : stratum_of_rank) strata = std::max(strata, s + 1);
  std::vector<std::vector<int>> members(static_cast<std::size_t>(strata));
  for (int r = 0; r < size; ++r) members[stratum_of_rank.empty() ? 0 : stratum_of_rank[r]].push_back(r);
  slots_.assign(static_cast<std::size_t>(size), -1);
  for (const std::vector<int>& group : members) {
    const int n = static_cast<int>(group.size());
    if (n == 0) continue;
    const double share = static_cast<double>(kSampledRanks) * n / size;
    const int k = std::clamp(static_cast<int>(std::lround(share)), std::min(n, 3), n);
    const auto take = [&](int at, double weight) {
      slots_[group[at]] = static_cast<int>(ranks_.size());
      ranks_.push_back({group[at], weight});
    };
    if (k == n) {
      for (int at = 0; at < n; ++at) take(at, 1.0);
      continue;
    }
    // The edges stand for themselves; k - 2 ranks at the middles of equal stretches of the
    // interior stand for their stretch.
    take(0, 1.0);
    const int inside = n - 2, picks = k - 2;
    for (int i = 0; i < picks; ++i)
      take(1 + static_cast<int>((2LL * i + 1) * inside / (2LL * picks)), static_cast<double>(inside) / picks);
    take(n - 1, 1.0);
  }
}

}  // namespace topocoll
