// topocoll-calibrate's check of a measurement against the platform's links
// (tools/calibration_limits.hpp): what is above a link's declared bandwidth is refused with a
// message naming the measurement, the link and both numbers; nothing is checked on a real
// machine, which declares no links.
#include <gtest/gtest.h>

#include "calibration_limits.hpp"

namespace topocoll::calibrate {
namespace {

TEST(CalibrationLimits, AboveTheLinkIsAnError) {
  const auto error = above_cap("rank 0's injection", 2.34e9, LinkCap{1.25e9, "c1_link_0_UP"});
  ASSERT_TRUE(error);
  EXPECT_EQ(*error,
            "rank 0's injection measured 2.34e+09 B/s, above the 1.25e+09 B/s of link 'c1_link_0_UP' that the "
            "platform declares on its route: the probe is wrong, not the platform");
}

TEST(CalibrationLimits, AtTheLinkOrBelowIsFine) {
  EXPECT_FALSE(above_cap("one flow", 1.25e9, LinkCap{1.25e9, "l"}));
  EXPECT_FALSE(above_cap("one flow", 1.25e9 * (1 + 1e-7), LinkCap{1.25e9, "l"}));  // rounding
  EXPECT_FALSE(above_cap("one flow", 1.0e9, LinkCap{1.25e9, "l"}));
  EXPECT_FALSE(above_cap("one flow", 9e99, std::nullopt));  // no link declared
}

TEST(CalibrationLimits, ARealMachineDeclaresNoLinks) {
  EXPECT_FALSE(platform_cap({"node-a", "node-b"}, 0, {1}));
}

}  // namespace
}  // namespace topocoll::calibrate
