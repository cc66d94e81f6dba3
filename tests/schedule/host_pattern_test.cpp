// Host-name patterns (pattern:REGEX): named groups are the levels, the whole host name must
// match, and errors name the pattern, the rank and its host.
#include <gtest/gtest.h>

#include "topology/host_pattern.hpp"
#include "topology/topology_file.hpp"

namespace topocoll {
namespace {

using Names = std::vector<std::string>;

TEST(HostPattern, NamedGroupsAreTheLevels) {
  std::string error;
  const auto groups = match_host_pattern(R"((?<row>[a-z]+)-r(?<rack>\d+)-n\d+)", {"east-r2-n07", "west-r2-n01"}, &error);
  ASSERT_TRUE(groups) << error;
  EXPECT_EQ(groups->levels, (Names{"row", "rack"}));
  EXPECT_EQ(groups->hosts.at("east-r2-n07"), (Names{"east", "2"}));
  EXPECT_EQ(groups->hosts.at("west-r2-n01"), (Names{"west", "2"}));
}

// Unnamed, non-capturing and escaped parentheses and bracket expressions do not shift the
// numbering of the named groups.
TEST(HostPattern, OtherGroupsDoNotShiftTheLevels) {
  std::string error;
  const auto groups =
      match_host_pattern(R"(([a-z]+)(?:\()[(](?<rack>[0-9]+)\)x(?<node>\d+))", {"ab((12)x3"}, &error);
  ASSERT_TRUE(groups) << error;
  EXPECT_EQ(groups->hosts.at("ab((12)x3"), (Names{"12", "3"}));
}

TEST(HostPattern, SpecGivesEveryRankItsRack) {
  std::string error;
  const auto topology = load_topology_for("pattern:r(?<rack>[0-9]+)n[0-9]+",
                                          RankPlacement::whole_world({"r1n1", "r1n2", "r12n1", "r1n1"}), &error);
  ASSERT_TRUE(topology) << error;
  EXPECT_EQ(topology->levels(), (Names{"rack"}));
  EXPECT_EQ(topology->group_count(0), 2);
  EXPECT_EQ(topology->separating_level(0, 1), -1);
  EXPECT_EQ(topology->separating_level(1, 2), 0);
  EXPECT_EQ(topology->separating_level(0, 3), -1);
}

TEST(HostPattern, ErrorsNameThePatternAndTheHost) {
  const std::pair<const char*, const char*> cases[] = {
      {"r(?<rack>[0-9]+)n[0-9]+", "host pattern 'r(?<rack>[0-9]+)n[0-9]+': rank 1 runs on host \"login\", which the pattern does not match"},
      {"r[0-9]+n[0-9]+", "names no level"},
      {"(?<a>r)(?<a>n)", "the level 'a' is named twice"},
      {"(?<1a>r)", "a group name must follow (?<"},
      {"(?<rack[0-9]+", "a group name must follow (?<"},
      {"(?<rack>[0-9+", "not a regular expression RE2 accepts"},
      {"r(?<rack>[0-9]*)[a-z]*", "rank 0 runs on host \"rx\", in which the level 'rack' matches nothing"},
  };
  for (const auto& [pattern, needle] : cases) {
    std::string error;
    const Names hosts = std::string(pattern).find("[a-z]*") != std::string::npos ? Names{"rx"} : Names{"r1n1", "login"};
    EXPECT_FALSE(match_host_pattern(pattern, hosts, &error)) << pattern;
    EXPECT_NE(error.find(needle), std::string::npos) << pattern << " -> " << error;
  }
}

// A pattern that makes a backtracking matcher take time exponential in the host name's length
// (std::regex: 4.4 s at 16 characters, four times longer for each one more): matched in linear
// time, these 64-character names finish at once. (Without it this test would run past its
// ctest timeout.)
TEST(HostPattern, NestedRepetitionIsMatchedInLinearTime) {
  const std::string long_run(64, 'a');
  std::string error;
  EXPECT_FALSE(match_host_pattern("r(?<rack>(a|a)+)+z", {"r" + long_run}, &error)) << "no z at the end";
  EXPECT_NE(error.find("which the pattern does not match"), std::string::npos) << error;
  const auto groups = match_host_pattern("r(?<rack>(a|a)+)+z", {"r" + long_run + "z"}, &error);
  ASSERT_TRUE(groups) << error;
  EXPECT_EQ(groups->hosts.at("r" + long_run + "z"), (Names{long_run}));
}

// The levels are RE2's own groups: quoting (\Q...\E) and RE2's own named groups do not shift
// them, and a level quoted away is an error (a group counted by hand once read past the
// groups RE2 returned, found by fuzz_host_pattern).
TEST(HostPattern, LevelsAreTheGroupsRe2Sees) {
  std::string error;
  auto groups = match_host_pattern(R"(\Q(\E(?P<x>[a-z])(?<rack>\d+))", {"(b12"}, &error);
  ASSERT_TRUE(groups) << error;
  EXPECT_EQ(groups->hosts.at("(b12"), (Names{"12"}));
  EXPECT_FALSE(match_host_pattern(R"(\Q(?<rack>\E.*)", {"x"}, &error));
  EXPECT_NE(error.find("the level 'rack' is not a group of the expression"), std::string::npos) << error;
}

// RE2 has no backreferences or lookarounds: a clear error, not a crash or a silent mismatch.
TEST(HostPattern, ConstructsRe2LacksAreClearErrors) {
  for (const char* pattern : {R"((?<rack>r)\1)", "(?<rack>r)(?=n)", "(?<=x)(?<rack>r)"}) {
    std::string error;
    EXPECT_FALSE(match_host_pattern(pattern, {"rr"}, &error)) << pattern;
    EXPECT_NE(error.find("not a regular expression RE2 accepts"), std::string::npos) << pattern << " -> " << error;
  }
}

}  // namespace
}  // namespace topocoll
