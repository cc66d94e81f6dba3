// The statistics of topocoll-bench --repeat N (tools/bench_statistics.hpp, bench_repeat.hpp):
// medians, spreads, ratios taken within each repetition, and the files' rows.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "bench_repeat.hpp"
#include "bench_statistics.hpp"

namespace topocoll::bench {
namespace {

TEST(BenchStatistics, MedianOfOddAndEvenCounts) {
  EXPECT_FALSE(median(std::vector<double>{}).has_value());
  EXPECT_DOUBLE_EQ(*median(std::vector<double>{7.0}), 7.0);
  EXPECT_DOUBLE_EQ(*median(std::vector<double>{9.0, 1.0, 5.0}), 5.0);
  EXPECT_DOUBLE_EQ(*median(std::vector<double>{4.0, 1.0, 3.0, 100.0}), 3.5);
}

TEST(BenchStatistics, SummaryIsTheMedianOfEachStatisticAndTheSpread) {
  const std::vector<RepetitionTime> reps{{10.0, 8.0, 12.0}, {30.0, 20.0, 50.0}, {11.0, 9.0, 13.0}};
  const RepetitionSummary s = *summarise(reps);
  EXPECT_EQ(s.repetitions, 3);
  EXPECT_DOUBLE_EQ(s.median.avg_us, 11.0);
  EXPECT_DOUBLE_EQ(s.median.min_us, 9.0);
  EXPECT_DOUBLE_EQ(s.median.max_us, 13.0);
  EXPECT_DOUBLE_EQ(s.lowest_avg_us, 10.0);
  EXPECT_DOUBLE_EQ(s.highest_avg_us, 30.0);
  EXPECT_DOUBLE_EQ(s.highest_max_us, 50.0);
  EXPECT_DOUBLE_EQ(spread_percent(10.0, 30.0, 20.0), 100.0);
  EXPECT_DOUBLE_EQ(spread_percent(0.0, 0.0, 0.0), 0.0);
  EXPECT_FALSE(summarise({}).has_value());
}

// A slow spell in repetition 2 slows both algorithms: the ratio within each repetition stays 2,
// while the ratio of the two medians (20 / 5) would say 4.
TEST(BenchStatistics, RatiosAreTakenWithinEachRepetition) {
  const std::vector<double> algorithm{20.0, 200.0, 20.0};
  const std::vector<double> baseline{10.0, 100.0, 5.0};
  EXPECT_DOUBLE_EQ(*median_ratio(algorithm, baseline), 2.0);
  EXPECT_FALSE(median_ratio(algorithm, std::vector<double>{}).has_value());
  EXPECT_FALSE(median_ratio(algorithm, std::vector<double>{0.0, 0.0, 0.0}).has_value()) << "no division by zero";
}

TEST(BenchStatistics, BaselineIsNativeWhenMeasuredElseTheFirst) {
  EXPECT_EQ(ratio_baseline(std::vector<std::string>{"direct", "native", "lg"}), "native");
  EXPECT_EQ(ratio_baseline(std::vector<std::string>{"lg", "direct"}), "lg");
  EXPECT_EQ(ratio_baseline(std::vector<std::string>{}), "");
}

TEST(RepeatedRuns, FilesKeepTheOrderRunAndReduceByRepetition) {
  RepeatedRuns runs;
  // Interleaved as the benchmark runs them: A B A B.
  runs.record("direct", 8, 1, {4.0, 3.0, 5.0});
  runs.record("native", 8, 1, {2.0, 1.0, 3.0});
  runs.record("direct", 8, 2, {9.0, 8.0, 10.0});
  runs.record("native", 8, 2, {3.0, 2.0, 4.0});
  std::ostringstream repetitions;
  runs.write_repetitions(repetitions, "alltoall", 4);
  EXPECT_EQ(repetitions.str(),
            "order,op,algorithm,np,bytes,repetition,avg_us,min_us,max_us\n"
            "1,alltoall,direct,4,8,1,4.000,3.000,5.000\n"
            "2,alltoall,native,4,8,1,2.000,1.000,3.000\n"
            "3,alltoall,direct,4,8,2,9.000,8.000,10.000\n"
            "4,alltoall,native,4,8,2,3.000,2.000,4.000\n");

  const std::vector<std::string> algorithms{"direct", "native"};
  const std::vector<std::size_t> sizes{8, 16};  // nothing ran at 16: no row
  std::ostringstream statistics;
  runs.write_statistics(statistics, "alltoall", 4, algorithms, sizes);
  // direct: median of 4 and 9 = 6.5, spread (9 - 4) / 6.5; ratios 4/2 and 9/3: median 2.5; of the
  // max, 5/3 and 10/4: median 2.0833.
  EXPECT_EQ(statistics.str(),
            "op,algorithm,np,bytes,repetitions,median_avg_us,lowest_avg_us,highest_avg_us,spread_avg_pct,"
            "median_max_us,lowest_max_us,highest_max_us,baseline,median_ratio_avg,median_ratio_max\n"
            "alltoall,direct,4,8,2,6.500,4.000,9.000,76.923,7.500,5.000,10.000,native,2.5000,2.0833\n"
            "alltoall,native,4,8,2,2.500,2.000,3.000,40.000,3.500,3.000,4.000,native,1.0000,1.0000\n");
}

}  // namespace
}  // namespace topocoll::bench
