// Rounds sharing a link with a group kept in flight over them: worked out by hand. In each case
// the link is busy from the group's posting to its end, so the group ends when all the bytes of
// both have passed.
#include "model/shared_link_rounds.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace topocoll {
namespace {

// 100 group flows of 100 bytes (10000) on a 100 bytes/us link; rounds of 10 us alone, each one
// message of 100 bytes (1 us of link, 9 us of latency first). Round 0: the group alone for 9 us
// (900 bytes: 91 left a flow), then 101 flows of equal weight: the group's end after 91 x 101 /
// 100 = 91.91 us, the round's last 9 bytes 0.09 us after: 92 us where 1 alone.
TEST(SharedLinkRounds, ARoundWaitsForTheGroupsFlowsOfItsSize) {
  const std::vector<double> round_us = {10.0, 10.0, 10.0};
  const std::vector<LinkShare> use(3, LinkShare{100.0, 1.0});
  const SharedLinkTimes t = share_link_with_group(round_us, use, 0, 2, LinkShare{10000.0, 100.0}, 100.0, 1.0);
  ASSERT_EQ(t.extra_us.size(), 3u);
  EXPECT_NEAR(t.extra_us[0], 91.0, 1e-9);
  EXPECT_NEAR(t.extra_us[1], 0.0, 1e-12);  // the group is through
  EXPECT_NEAR(t.extra_us[2], 0.0, 1e-12);
  EXPECT_NEAR(t.group_end_us, 9.0 + 91.91, 1e-9);
  EXPECT_NEAR(10.0 + t.extra_us[0], 10100.0 / 100.0, 1e-9);  // the link never idled
}

// 10 group flows of 1000 bytes; rounds of 2 us alone, each two messages of 50 bytes, a round's
// flow weighing 2 of the group's. Each round: 1 us of the group alone (100 bytes), then 2 x 2 +
// 10 weights: the round's flows end after 50 x 14 / (2 x 100) = 3.5 us, where 1 alone, the
// group's having passed 25 each. Then the group alone: 930 a flow left, 93 us.
TEST(SharedLinkRounds, HeavierRoundFlowsEndFirst) {
  const std::vector<double> round_us = {2.0, 2.0};
  const std::vector<LinkShare> use(2, LinkShare{100.0, 2.0});
  const SharedLinkTimes t = share_link_with_group(round_us, use, 0, 1, LinkShare{10000.0, 10.0}, 100.0, 2.0);
  ASSERT_EQ(t.extra_us.size(), 2u);
  EXPECT_NEAR(t.extra_us[0], 2.5, 1e-9);
  EXPECT_NEAR(t.extra_us[1], 2.5, 1e-9);
  EXPECT_NEAR(t.group_end_us, 4.5 + 4.5 + 93.0, 1e-9);
  EXPECT_NEAR(t.group_end_us, 10200.0 / 100.0, 1e-9);
}

// A round that puts nothing on the link leaves it to the group; a group posted in a later round
// starts there; no group, nothing changes.
TEST(SharedLinkRounds, RoundsOffTheLinkAndEmptyGroups) {
  const std::vector<double> round_us = {1.0, 5.0, 3.0};
  const std::vector<LinkShare> use = {LinkShare{100.0, 1.0}, LinkShare{}, LinkShare{100.0, 1.0}};
  const SharedLinkTimes t = share_link_with_group(round_us, use, 1, 2, LinkShare{200.0, 1.0}, 100.0, 1.0);
  ASSERT_EQ(t.extra_us.size(), 2u);
  EXPECT_EQ(t.extra_us[0], 0.0);
  EXPECT_EQ(t.extra_us[1], 0.0);
  EXPECT_NEAR(t.group_end_us, 2.0, 1e-12);
  const SharedLinkTimes none = share_link_with_group(round_us, use, 0, 2, LinkShare{}, 100.0, 1.0);
  for (double extra : none.extra_us) EXPECT_EQ(extra, 0.0);
  EXPECT_EQ(none.group_end_us, 0.0);
}

}  // namespace
}  // namespace topocoll
