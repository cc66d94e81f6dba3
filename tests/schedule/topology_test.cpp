// The topology shorthand and the level a message crosses.
#include <gtest/gtest.h>

#include "topology/topology.hpp"

namespace topocoll {
namespace {

TEST(Topology, ParsesClusters) {
  std::string error;
  const auto t = Topology::parse("clusters:3,7", &error);
  ASSERT_TRUE(t) << error;
  EXPECT_EQ(t->size(), 10);
  EXPECT_EQ(t->group_count(0), 2);
  EXPECT_EQ(t->group(2, 0), 0);
  EXPECT_EQ(t->group(3, 0), 1);
  EXPECT_EQ(t->separating_level(0, 9), 0);
  EXPECT_EQ(t->separating_level(4, 9), -1);
}

TEST(Topology, ParsesFlat) {
  const auto t = Topology::parse("flat:5", nullptr);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->size(), 5);
  EXPECT_EQ(t->group_count(0), 1);
}

TEST(Topology, RejectsMalformedSpecsWithAReason) {
  for (const char* bad : {"clusters:", "clusters:3,", "clusters:0,4", "clusters:-1", "clusters:3x", "mesh:4",
                          "flat:2,2", "7"}) {
    std::string error;
    EXPECT_FALSE(Topology::parse(bad, &error)) << bad;
    EXPECT_NE(error.find(bad), std::string::npos) << error;
  }
}

}  // namespace
}  // namespace topocoll
