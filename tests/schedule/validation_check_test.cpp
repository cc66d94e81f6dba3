// auto's model overruled by the calibration's own validation: between two validated sizes the
// measured times, interpolated, outrank the model's pick where it measured slower beyond the
// noise; elsewhere the model stands.
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
  EXPECT_EQ(at_4096->chosen_by.rfind("the calibration's validation (between 1024 and 65536 B per block native measured "
                                     "fastest; the model's pick, direct, measured ",
                                     0),
            0u)
      << at_4096->chosen_by;
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
  EXPECT_FALSE(overrule(1024, "pairwise")) << "61 against 60 us: within the noise";
  EXPECT_FALSE(overrule_by_validation(Operation::alltoallv, 4096, 16, "direct", validated_on_16_ranks(),
                                      algorithms_for(Operation::alltoallv)))
      << "another operation";
}

// The noise the calibration records: a simulated machine's (0.5%) lets a 1.2% difference
// overrule the model, a real machine's default (5%) does not.
TEST(ValidationCheck, TheCalibrationsNoiseDecidesWhatOverrules) {
  Calibration calibration;
  calibration.ranks = 24;
  calibration.validation = {{"alltoall", 65536, "overlap", 12058.6, 12261.6},
                            {"alltoall", 65536, "native", std::nullopt, 12111.6}};
  const auto overruled = [&] {
    return overrule_by_validation(Operation::alltoall, 65536, 24, "overlap", calibration,
                                  algorithms_for(Operation::alltoall));
  };
  EXPECT_FALSE(overruled()) << "1.2% is within a real machine's 5%";
  calibration.validation_noise = kSimulatedValidationNoise;
  const auto simulated = overruled();
  ASSERT_TRUE(simulated);
  EXPECT_EQ(simulated->algorithm, "native");
  EXPECT_DOUBLE_EQ(validation_noise(calibration), 0.005);
}

}  // namespace
}  // namespace topocoll
