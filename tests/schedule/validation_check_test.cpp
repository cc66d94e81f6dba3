// auto's model overruled by the calibration's own validation: at and between validated sizes
// the measured times, interpolated, outrank the model's pick where it did not measure faster
// than native beyond the noise, or measured slower than another algorithm beyond it; elsewhere
// the model stands.
#include <gtest/gtest.h>

#include "algorithms/registry.hpp"
#include "select/validation_check.hpp"

namespace topocoll {
namespace {

Calibration validated_on_16_ranks() {
  Calibration calibration;
  calibration.ranks = 16;
  // A shared-memory node: direct predicted fast, measured slower than native at both sizes.
  calibration.validation = {{"alltoall", 1024, "direct", 20.0, 100.0},     {"alltoall", 1024, "native", std::nullopt, 60.0},
                            {"alltoall", 65536, "direct", 700.0, 1000.0},  {"alltoall", 65536, "native", std::nullopt, 900.0},
                            {"alltoall", 1024, "pairwise", 90.0, 61.0},    {"alltoall", 65536, "pairwise", 800.0, 940.0}};
  return calibration;
}

std::optional<ValidatedChoice> overrule(std::size_t bytes, const std::string& pick, int ranks = 16) {
  return overrule_by_validation(Operation::alltoall, bytes, ranks, pick, validated_on_16_ranks(),
                                algorithms_for(Operation::alltoall));
}

TEST(ValidationCheck, BetweenValidatedSizesTheMeasuredFastestOutranksTheModel) {
  const auto at_4096 = overrule(4096, "direct");
  ASSERT_TRUE(at_4096);
  EXPECT_EQ(at_4096->algorithm, "native");
  EXPECT_EQ(at_4096->chosen_by,
            "the calibration's validation (between 1024 and 65536 B per block the model's pick, direct, measured "
            "66.7% slower than native at 1024 B; none measured faster than native beyond the noise (5.0%) at both "
            "ends)");
  // At a validated size itself.
  const auto at_1024 = overrule(1024, "direct");
  ASSERT_TRUE(at_1024);
  EXPECT_EQ(at_1024->algorithm, "native");
  EXPECT_NE(at_1024->chosen_by.find("at 1024 B per block"), std::string::npos) << at_1024->chosen_by;
  EXPECT_NE(at_1024->chosen_by.find("measured 66.7% slower"), std::string::npos) << at_1024->chosen_by;
}

TEST(ValidationCheck, TheModelStandsWhereTheMeasurementsSayNothingAgainstIt) {
  EXPECT_FALSE(overrule(256, "direct")) << "below the validated sizes";
  EXPECT_FALSE(overrule(1 << 20, "direct")) << "above them";
  EXPECT_FALSE(overrule(4096, "direct", 8)) << "another number of ranks";
  EXPECT_FALSE(overrule(4096, "native")) << "the pick is the fastest measured";
  EXPECT_FALSE(overrule(4096, "bruck")) << "never validated";
  Calibration near = validated_on_16_ranks();
  near.validation.push_back({"alltoall", 1024, "shift", 90.0, 59.0});
  near.validation[1].measured_us = 70.0;  // native at 1 KiB
  EXPECT_FALSE(
      overrule_by_validation(Operation::alltoall, 1024, 16, "pairwise", near, algorithms_for(Operation::alltoall)))
      << "61 against shift's 59 us: within the noise, and faster than native";
  EXPECT_FALSE(overrule_by_validation(Operation::alltoallv, 4096, 16, "direct", validated_on_16_ranks(),
                                      algorithms_for(Operation::alltoallv)))
      << "another operation";
}

// Strictly between two validated sizes, only what measured no slower than native at both ends
// runs: the 16-core node of docs/results.md, where direct was fastest at 256 B and 19% over
// native at 1 KiB, and the log-log line put it under native at 512 B (it measured 16% over).
TEST(ValidationCheck, BetweenValidatedSizesOnlyWhatKeptUpWithNativeAtBothEndsRuns) {
  Calibration node;
  node.ranks = 16;
  node.validation = {{"alltoall", 256, "direct", 11.5, 13.93},
                     {"alltoall", 1024, "direct", 11.7, 25.46},
                     {"alltoall", 256, "group-shuffle", 13.5, 18.70},
                     {"alltoall", 1024, "group-shuffle", 13.9, 27.10},
                     {"alltoall", 256, "bruck", 8.9, 23.20},
                     {"alltoall", 1024, "bruck", 19.2, 50.55},
                     {"alltoall", 256, "native", std::nullopt, 18.12},
                     {"alltoall", 1024, "native", std::nullopt, 21.44}};
  const auto at = [&](std::size_t bytes, const std::string& pick) {
    return overrule_by_validation(Operation::alltoall, bytes, 16, pick, node, algorithms_for(Operation::alltoall));
  };
  const auto direct_512 = at(512, "direct");
  ASSERT_TRUE(direct_512) << "interpolated, direct (18.8 us) is under native (19.7 us), but it was slower at 1 KiB";
  EXPECT_EQ(direct_512->algorithm, "native");
  EXPECT_EQ(direct_512->chosen_by,
            "the calibration's validation (between 256 and 1024 B per block the model's pick, direct, measured "
            "18.8% slower than native at 1024 B; none measured faster than native beyond the noise (5.0%) at both "
            "ends)");
  EXPECT_EQ(at(512, "bruck")->algorithm, "native");
  // At a validated size itself the measurements speak for themselves: direct at 256 B stands.
  EXPECT_FALSE(at(256, "direct"));
  // What kept up with native at both ends runs where it is the fastest of those.
  node.validation[2].measured_us = 16.0;  // group-shuffle at 256 B: under native
  node.validation[3].measured_us = 20.0;  // and at 1 KiB, 6.7% under
  const auto shuffle = at(512, "direct");
  ASSERT_TRUE(shuffle);
  EXPECT_EQ(shuffle->algorithm, "group-shuffle");
  EXPECT_NE(shuffle->chosen_by.find("group-shuffle measured fastest of those faster than native beyond the noise "
                                    "(5.0%) at both ends"),
            std::string::npos)
      << shuffle->chosen_by;
  EXPECT_FALSE(at(512, "group-shuffle")) << "the model's pick beat native at both ends: it stands";
  node.validation[3].measured_us = 21.0;  // 2.1% under native at 1 KiB: within the noise
  EXPECT_EQ(at(512, "group-shuffle")->algorithm, "native");
}

// A pick not measured faster than native beyond the noise gives way to native: the 16-core
// node of docs/results.md, where direct measured 1.0% and 3.6% over native at 8 and 16 KiB
// (and 5% and 8% over it in the benchmark that followed), and 0.8% under it at 32 KiB.
TEST(ValidationCheck, APickNotClearlyFasterThanNativeGivesWayToNative) {
  Calibration node;
  node.ranks = 16;
  node.validation = {
      {"alltoall", 8192, "direct", 35.7, 62.87},         {"alltoall", 16384, "direct", 70.3, 90.06},
      {"alltoall", 8192, "native", std::nullopt, 62.25}, {"alltoall", 16384, "native", std::nullopt, 86.91},
      {"alltoall", 32768, "direct", 139.5, 140.0},       {"alltoall", 32768, "native", std::nullopt, 141.17},
      {"alltoall", 65536, "direct", 270.0, 260.0},       {"alltoall", 65536, "native", std::nullopt, 289.08}};
  const auto at = [&](std::size_t bytes) {
    return overrule_by_validation(Operation::alltoall, bytes, 16, "direct", node, algorithms_for(Operation::alltoall));
  };
  for (const std::size_t bytes : {8192, 12288, 16384, 24576, 32768, 49152}) {
    const auto choice = at(bytes);
    ASSERT_TRUE(choice) << bytes;
    EXPECT_EQ(choice->algorithm, "native") << bytes;
  }
  EXPECT_EQ(at(8192)->chosen_by,
            "the calibration's validation (at 8192 B per block the model's pick, direct, measured 1.0% slower than "
            "native at 8192 B; none measured faster than native beyond the noise (5.0%))");
  EXPECT_NE(at(32768)->chosen_by.find("direct, measured only 0.8% faster than native at 32768 B"), std::string::npos)
      << at(32768)->chosen_by;
  EXPECT_FALSE(at(65536)) << "10% under native there: the model's pick stands";
  node.validation_noise = kSimulatedValidationNoise;  // a simulated machine's times repeat: 0.8% is a difference
  EXPECT_FALSE(at(32768));
  EXPECT_EQ(at(16384)->algorithm, "native");
}

// The noise the calibration records: a simulated machine's (0.5%) lets a 1.2% difference
// between two of topocoll's algorithms overrule the model, a real machine's default (5%) does not.
TEST(ValidationCheck, TheCalibrationsNoiseDecidesWhatOverrules) {
  Calibration calibration;
  calibration.ranks = 24;
  calibration.validation = {{"alltoall", 65536, "overlap", 12058.6, 12261.6},
                            {"alltoall", 65536, "direct", 12100.0, 12111.6},
                            {"alltoall", 65536, "native", std::nullopt, 14000.0}};
  const auto overruled = [&] {
    return overrule_by_validation(Operation::alltoall, 65536, 24, "overlap", calibration,
                                  algorithms_for(Operation::alltoall));
  };
  EXPECT_FALSE(overruled()) << "1.2% is within a real machine's 5%";
  calibration.validation_noise = kSimulatedValidationNoise;
  const auto simulated = overruled();
  ASSERT_TRUE(simulated);
  EXPECT_EQ(simulated->algorithm, "direct");
  EXPECT_DOUBLE_EQ(validation_noise(calibration), 0.005);
}

// A point names a run with the knobs it ran with (describe_run: "overlap with 2 stripes"): as
// the fastest, and as the model's pick.
TEST(ValidationCheck, PointsNameRunsWithTheirKnobs) {
  Calibration calibration = validated_on_16_ranks();  // native: 60 us at 1 KiB, 900 at 64 KiB
  calibration.validation.push_back({"alltoall", 1024, "overlap with 2 stripes", 40.0, 50.0});
  calibration.validation.push_back({"alltoall", 65536, "overlap with 2 stripes", 700.0, 800.0});
  calibration.validation.push_back({"alltoall", 1024, "overlap with 4 stripes", 40.0, 200.0});
  calibration.validation.push_back({"alltoall", 65536, "overlap with 4 stripes", 700.0, 2000.0});
  for (const std::string pick : {"direct", "overlap with 4 stripes"}) {
    const auto choice =
        overrule_by_validation(Operation::alltoall, 4096, 16, pick, calibration, algorithms_for(Operation::alltoall));
    ASSERT_TRUE(choice) << pick;
    EXPECT_EQ(choice->algorithm, "overlap with 2 stripes") << pick;
    EXPECT_NE(choice->chosen_by.find("the model's pick, " + pick + ", measured"), std::string::npos)
        << choice->chosen_by;
  }
  EXPECT_FALSE(overrule_by_validation(Operation::alltoall, 4096, 16, "overlap with 2 stripes", calibration,
                                      algorithms_for(Operation::alltoall)))
      << "the pick is the fastest measured";
}

// A real machine's noise from the validation's repetitions: half the range over the median,
// the median over the points, within [5%, 50%]; nothing from single repetitions.
TEST(ValidationCheck, NoiseIsWhatTheRepetitionsSpreadBy) {
  const std::vector<std::vector<double>> calm = {{100, 101, 99}, {10, 10.2}, {50}};
  EXPECT_EQ(noise_of_repetitions(calm), kValidationNoise) << "1% and 1% spread: the usual 5% stands";
  const std::vector<std::vector<double>> noisy = {{100, 120, 80}, {10, 13, 11, 12}, {50, 52}, {7}};
  // 20%, 15% (range 3 over the median 11.5: 13.0%), 2%: the median of 20%, 13.04% and 1.96%
  ASSERT_TRUE(noise_of_repetitions(noisy));
  EXPECT_NEAR(*noise_of_repetitions(noisy), 0.5 * 3.0 / 11.5, 1e-12);
  const std::vector<std::vector<double>> wild = {{1, 10, 100}};
  EXPECT_EQ(noise_of_repetitions(wild), kMostValidationNoise);
  const std::vector<std::vector<double>> single = {{100}, {5}};
  EXPECT_FALSE(noise_of_repetitions(single)) << "one repetition per point says nothing of the noise";
}

// What auto runs at a validated size whatever the model picks, which the validation pass
// bisects on: the hidden two clusters of docs/results.md (6 + 16 nodes, 1 Gbit/s, 500 us),
// where direct was 5x faster than native at 16 B and within the noise of it at 1 KiB.
TEST(ValidationCheck, TheWinnerAtAValidatedSizeIsNativeUnlessSomethingBeatItBeyondTheNoise) {
  Calibration clusters;
  clusters.ranks = 22;
  clusters.validation_noise = kSimulatedValidationNoise;
  clusters.validation = {{"alltoall", 16, "direct", 562.8, 564.1},     {"alltoall", 16, "overlap", 753.9, 753.9},
                         {"alltoall", 16, "native", std::nullopt, 2806.4}, {"alltoall", 1024, "direct", 732.8, 693.8},
                         {"alltoall", 1024, "overlap", 875.5, 885.5},   {"alltoall", 1024, "native", std::nullopt, 693.1}};
  const auto winner = [&](std::size_t bytes, int ranks = 22) {
    return validated_winner_at(Operation::alltoall, bytes, ranks, clusters, algorithms_for(Operation::alltoall));
  };
  EXPECT_EQ(winner(16), "direct");
  EXPECT_EQ(winner(1024), "native") << "direct 0.1% over native: within the noise (0.5%)";
  EXPECT_FALSE(winner(128)) << "not a validated size";
  EXPECT_FALSE(winner(16, 24)) << "another number of ranks";
  EXPECT_FALSE(validated_winner_at(Operation::alltoallv, 16, 22, clusters, algorithms_for(Operation::alltoallv)));
  // Between the two, only what won at both ends may run: native, so the pass measures 128 B.
  const auto between = overrule_by_validation(Operation::alltoall, 128, 22, "direct", clusters,
                                              algorithms_for(Operation::alltoall));
  ASSERT_TRUE(between);
  EXPECT_EQ(between->algorithm, "native");
  // Once 128 B is validated (direct 580 us, native 2846.7), direct runs from 16 to 128 B.
  clusters.validation.push_back({"alltoall", 128, "direct", 577.0, 580.0});
  clusters.validation.push_back({"alltoall", 128, "native", std::nullopt, 2846.7});
  EXPECT_EQ(winner(128), "direct");
  EXPECT_FALSE(overrule_by_validation(Operation::alltoall, 64, 22, "direct", clusters,
                                      algorithms_for(Operation::alltoall)));
}

}  // namespace
}  // namespace topocoll
