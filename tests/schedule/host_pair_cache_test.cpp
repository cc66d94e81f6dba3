// The fluid model's cache of what it works out per pair of hosts: made once while kept, each
// pair its own value, and never more entries than its bound however many pairs of hosts talk.
#include <gtest/gtest.h>

#include <cstddef>

#include "model/host_pair_cache.hpp"

namespace topocoll::fluid {
namespace {

TEST(HostPairCache, MakesAPairsValueOnceWhileItIsKept) {
  HostPairCache<int> cache(4);
  int made = 0;
  const auto make = [&](int value) { return [&made, value] { ++made; return value; }; };
  EXPECT_EQ(cache.get(1, 2, make(12)), 12);
  EXPECT_EQ(cache.get(2, 1, make(21)), 21);  // the pair is ordered
  EXPECT_EQ(cache.get(1, 2, make(99)), 12);
  EXPECT_EQ(made, 2);
  EXPECT_EQ(cache.size(), 2u);
}

TEST(HostPairCache, StaysWithinItsBoundWhenEveryPairOfHostsTalks) {
  constexpr int kHosts = 1024;  // 2^20 pairs: four times the bound
  HostPairCache<int> cache(kHosts);
  std::size_t made = 0, wrong = 0, most = 0;
  for (int from = 0; from < kHosts; ++from) {
    for (int to = 0; to < kHosts; ++to) {
      const int value = from * kHosts + to;
      if (cache.get(from, to, [&] { ++made; return value; }) != value) ++wrong;
      if (cache.size() > most) most = cache.size();
    }
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(made, std::size_t{kHosts} * kHosts);
  EXPECT_EQ(most, HostPairCache<int>::kMostEntries);
  // A pair let go is made again, with its own value.
  std::size_t again = 0;
  EXPECT_EQ(cache.get(0, 1, [&] { ++again; return 1; }), 1);
  EXPECT_EQ(again, 1u);
}

}  // namespace
}  // namespace topocoll::fluid
