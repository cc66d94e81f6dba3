// topocoll-bench's traffic patterns (--pattern, --seed): what each promises, reproducibly.
#include <gtest/gtest.h>

#include <stdexcept>

#include "bench_pattern.hpp"

namespace topocoll::bench {
namespace {

std::size_t row_sum(const TrafficPattern& pattern, int src, int p, std::size_t m) {
  std::size_t sum = 0;
  for (int d = 0; d < p; ++d) sum += pattern.bytes(src, d, p, m);
  return sum;
}

std::size_t column_sum(const TrafficPattern& pattern, int dst, int p, std::size_t m) {
  std::size_t sum = 0;
  for (int s = 0; s < p; ++s) sum += pattern.bytes(s, dst, p, m);
  return sum;
}

TEST(TrafficPattern, RejectsWhatItCannotRead) {
  for (const char* bad : {"", "zipf", "zipf:", "zipf:-1", "zipf:abc", "sparse:1.5", "hotspot:0", "skewed"}) {
    EXPECT_THROW(TrafficPattern::parse(bad, 1), std::invalid_argument) << bad;
  }
  EXPECT_NO_THROW(TrafficPattern::parse("zipf:0.8", 1));
}

TEST(TrafficPattern, UniformIsTheSizeAndRandomStaysInItsRange) {
  const TrafficPattern uniform = TrafficPattern::parse("uniform", 1);
  const TrafficPattern random = TrafficPattern::parse("random", 1);
  bool varies = false;
  for (int s = 0; s < 20; ++s) {
    for (int d = 0; d < 20; ++d) {
      EXPECT_EQ(uniform.bytes(s, d, 20, 100), 100u);
      EXPECT_LE(random.bytes(s, d, 20, 100), 200u);
      varies = varies || random.bytes(s, d, 20, 100) != random.bytes(0, 0, 20, 100);
    }
  }
  EXPECT_TRUE(varies);
}

TEST(TrafficPattern, TheSeedReproducesAndChangesTheSizes) {
  const TrafficPattern a = TrafficPattern::parse("random", 7), b = TrafficPattern::parse("random", 7);
  const TrafficPattern c = TrafficPattern::parse("random", 8);
  int differ = 0;
  for (int s = 0; s < 16; ++s)
    for (int d = 0; d < 16; ++d) {
      EXPECT_EQ(a.bytes(s, d, 16, 1000), b.bytes(s, d, 16, 1000));
      differ += a.bytes(s, d, 16, 1000) != c.bytes(s, d, 16, 1000) ? 1 : 0;
    }
  EXPECT_GT(differ, 200);
  EXPECT_EQ(a.describe(), "random (seed 7)");
}

TEST(TrafficPattern, ZipfSendsAboutPTimesMFavouringFewDestinations) {
  const TrafficPattern zipf = TrafficPattern::parse("zipf:1.5", 3);
  const int p = 64;
  const std::size_t m = 1000;
  std::size_t most = 0, least = SIZE_MAX;
  for (int d = 0; d < p; ++d) {
    most = std::max(most, column_sum(zipf, d, p, m));
    least = std::min(least, column_sum(zipf, d, p, m));
  }
  for (int s = 0; s < p; ++s) EXPECT_NEAR(static_cast<double>(row_sum(zipf, s, p, m)), p * m, p);
  EXPECT_GT(most, 100 * least) << "the most popular destination gets far more than the least";
}

TEST(TrafficPattern, SparseSendsToAboutKReceivers) {
  const TrafficPattern sparse = TrafficPattern::parse("sparse:4", 5);
  const int p = 200;
  std::size_t blocks = 0;
  for (int s = 0; s < p; ++s) {
    EXPECT_EQ(sparse.bytes(s, s, p, 10), 0u);
    for (int d = 0; d < p; ++d) blocks += sparse.bytes(s, d, p, 10) / 10;
  }
  EXPECT_NEAR(static_cast<double>(blocks) / p, 4.0, 0.5);
}

TEST(TrafficPattern, HotspotsReceiveThreeQuartersOfEverything) {
  const TrafficPattern hot = TrafficPattern::parse("hotspot:2", 11);
  const int p = 32;
  const std::size_t m = 512;
  std::size_t total = 0, hottest_two = 0;
  std::vector<std::size_t> columns;
  for (int d = 0; d < p; ++d) columns.push_back(column_sum(hot, d, p, m));
  for (std::size_t c : columns) total += c;
  std::sort(columns.rbegin(), columns.rend());
  hottest_two = columns[0] + columns[1];
  EXPECT_NEAR(static_cast<double>(hottest_two) / total, 0.75, 0.01);
}

// The patterns said to depend on the destination alone (read as DestinationBlocks by
// topocoll-plan) give every sender the same block for a destination; the others do not.
TEST(TrafficPattern, SaysWhichPatternsDependOnTheDestinationAlone) {
  const int p = 24;
  const std::size_t m = 1024;
  for (const char* text : {"uniform", "zipf:1", "hotspot:3", "random", "sparse:4"}) {
    const TrafficPattern pattern = TrafficPattern::parse(text, 5);
    bool alike = true;
    for (int s = 1; s < p; ++s) {
      for (int d = 0; d < p; ++d) alike = alike && pattern.bytes(s, d, p, m) == pattern.bytes(0, d, p, m);
    }
    EXPECT_EQ(pattern.by_destination(), alike) << text;
  }
}

}  // namespace
}  // namespace topocoll::bench
