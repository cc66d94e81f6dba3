// The JSON topology file: by rank, by host name, nested group names, errors that name the
// field or entry at fault, and a file read once per process until it changes.
#include "topology/topology_file.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace topocoll {
namespace {

RankPlacement hosts(int n, const std::string& name = "h") {
  return RankPlacement::whole_world(std::vector<std::string>(static_cast<std::size_t>(n), name));
}

TEST(TopologyFile, ByRankWithNestedNames) {
  std::string error;
  const auto t = parse_topology_json(
      R"({"levels": ["cluster", "node"], "ranks": [["c1","n0"],["c1","n0"],["c2","n0"],["c2","n1"]]})", hosts(4),
      &error);
  ASSERT_TRUE(t) << error;
  EXPECT_EQ(t->group_count(0), 2);
  EXPECT_EQ(t->group_count(1), 3);  // c1/n0, c2/n0, c2/n1: n0 in c2 is not n0 in c1
  EXPECT_EQ(t->separating_level(0, 1), -1);
  EXPECT_EQ(t->separating_level(0, 2), 0);
  EXPECT_EQ(t->separating_level(2, 3), 1);
}

TEST(TopologyFile, ByHostName) {
  std::string error;
  const auto t = parse_topology_json(R"({"levels": ["cluster"], "hosts": {"a": ["nancy"], "b": ["rennes"]}})",
                                     RankPlacement::whole_world({"a", "b", "a", "b", "b"}), &error);
  ASSERT_TRUE(t) << error;
  EXPECT_EQ(t->group(0, 0), t->group(2, 0));
  EXPECT_NE(t->group(0, 0), t->group(1, 0));
  EXPECT_EQ(t->group(1, 0), t->group(4, 0));
}

struct BadCase {
  const char* json;
  int ranks;
  const char* needle;
};

TEST(TopologyFile, ErrorsNameTheFault) {
  const BadCase cases[] = {
      {"{", 1, "not valid JSON"},
      {"[1]", 1, "must be a JSON object"},
      {R"({"ranks": [["a"]]})", 1, "\"levels\""},
      {R"({"levels": ["c", 3], "ranks": []})", 1, "levels[1]"},
      {R"({"levels": ["c"]})", 1, "exactly one of"},
      {R"({"levels": ["c"], "ranks": [["a"]], "hosts": {}})", 1, "exactly one of"},
      {R"({"levels": ["c"], "ranks": [["a"]], "extra": 1})", 1, "unknown field \"extra\""},
      {R"({"levels": ["c"], "ranks": [["a"], ["b"]]})", 3, "describes 2 ranks, but the world has 3"},
      {R"({"levels": ["c", "n"], "ranks": [["a", "x"], ["b"]]})", 2, "ranks[1] has 1 group names, expected 2"},
      {R"({"levels": ["c"], "ranks": [["a"], [""]]})", 2, "ranks[1][0]"},
      {R"({"levels": ["c"], "ranks": [["a"], "b"]})", 2, "ranks[1] must be an array"},
      {R"({"levels": ["c"], "hosts": {"h": ["a"]}})", 2, "which \"hosts\" does not list"},
      {R"({"levels": ["c"], "hosts": {"h": "a"}})", 1, "hosts[\"h\"]"},
  };
  for (const BadCase& c : cases) {
    std::string error;
    RankPlacement names = hosts(c.ranks);
    if (std::string(c.needle).find("does not list") != std::string::npos) names.host.back() = "other";
    EXPECT_FALSE(parse_topology_json(c.json, names, &error)) << c.json;
    EXPECT_NE(error.find(c.needle), std::string::npos) << c.json << " -> " << error;
  }
}

TEST(TopologyFile, SpecIsShorthandOrFile) {
  std::string error;
  ASSERT_TRUE(load_topology_for("clusters:2,3", hosts(5), &error)) << error;
  EXPECT_FALSE(load_topology_for("clusters:2,3", hosts(4), &error));
  EXPECT_NE(error.find("describes 5 ranks, but the world has 4"), std::string::npos) << error;
  EXPECT_FALSE(load_topology_for("/no/such/file.json", hosts(4), &error));
  EXPECT_NE(error.find("/no/such/file.json"), std::string::npos) << error;

  const std::string path = ::testing::TempDir() + "topocoll_topology_test.json";
  std::ofstream(path) << R"({"levels": ["cluster"], "ranks": [["x"], ["y"], ["x"]]})";
  const auto t = load_topology_for(path, hosts(3), &error);
  ASSERT_TRUE(t) << error;
  EXPECT_EQ(t->group_count(0), 2);
  std::ofstream(path) << R"({"levels": ["cluster"], "ranks": [["x"]]})";
  EXPECT_FALSE(load_topology_for(path, hosts(3), &error));
  EXPECT_NE(error.find(path), std::string::npos) << error;
  std::remove(path.c_str());
}

// A topology file is read once per process (every communicator's discovery asks for it): the
// same size and modification time give what was read, a new modification time reads it again.
TEST(TopologyFile, ReadOncePerProcessUntilItChanges) {
  std::string error;
  const std::string path = ::testing::TempDir() + "topocoll_topology_kept.json";
  std::ofstream(path) << R"({"levels": ["cluster"], "ranks": [["x"], ["y"], ["x"]]})";
  const auto first = load_topology_for(path, hosts(3), &error);
  ASSERT_TRUE(first) << error;
  EXPECT_EQ(first->group_count(0), 2);
  const auto written = std::filesystem::last_write_time(path);
  std::ofstream(path) << R"({"levels": ["cluster"], "ranks": [["x"], ["y"], ["z"]]})";  // same size
  std::filesystem::last_write_time(path, written);
  const auto kept = load_topology_for(path, hosts(3), &error);
  ASSERT_TRUE(kept) << error;
  EXPECT_EQ(kept->group_count(0), 2) << "the file was read again";
  std::filesystem::last_write_time(path, written + std::chrono::seconds(1));
  const auto again = load_topology_for(path, hosts(3), &error);
  ASSERT_TRUE(again) << error;
  EXPECT_EQ(again->group_count(0), 3) << "a changed file was not read again";
  std::remove(path.c_str());
}

// A sub-communicator sees the groups of its members, renumbered.
TEST(TopologyFile, SubCommunicatorPicksItsMembers) {
  RankPlacement odd;
  odd.world_size = 6;
  odd.world_rank = {1, 3, 5};
  odd.host = {"h", "h", "h"};
  std::string error;
  const auto t = load_topology_for("clusters:2,4", odd, &error);
  ASSERT_TRUE(t) << error;
  EXPECT_EQ(t->size(), 3);
  EXPECT_EQ(t->group_count(0), 2);
  EXPECT_EQ(t->group(0, 0), 0);  // world rank 1 in cluster 0
  EXPECT_EQ(t->group(1, 0), 1);
  EXPECT_EQ(t->group(2, 0), 1);
  RankPlacement second_cluster = odd;
  second_cluster.world_rank = {2, 4};
  second_cluster.host = {"h", "h"};
  const auto one = load_topology_for("clusters:2,4", second_cluster, &error);
  ASSERT_TRUE(one) << error;
  EXPECT_EQ(one->group_count(0), 1);
}

TEST(Topology, InnerLevelSplitsGroups) {
  const Topology t = Topology::parse("clusters:2,2", nullptr)->with_inner_level("node", {7, 7, 7, 9});
  ASSERT_EQ(t.level_count(), 2);
  EXPECT_EQ(t.levels()[1], "node");
  EXPECT_EQ(t.group_count(1), 3);  // rank 2 shares host 7 with ranks 0 and 1 but not their cluster
  EXPECT_EQ(t.separating_level(0, 1), -1);
  EXPECT_EQ(t.separating_level(1, 2), 0);
  EXPECT_EQ(t.separating_level(2, 3), 1);
}

}  // namespace
}  // namespace topocoll

namespace topocoll {
namespace {

// A number too large for a double is a parse error like any other, not an exception.
TEST(TopologyFileInput, NumberOverflowIsAnError) {
  std::string error;
  const auto t = parse_topology_json(R"({"levels": ["cluster"], "ranks": [[1e999]]})", hosts(1), &error);
  EXPECT_FALSE(t);
  EXPECT_NE(error.find("not valid JSON"), std::string::npos) << error;
}

// The size a shorthand describes is checked against the world before its table is built: a
// huge one fails at once (building 2^31 rows would exhaust memory).
TEST(TopologyFileInput, HugeShorthandIsRejectedBeforeItIsBuilt) {
  std::string error;
  EXPECT_FALSE(load_topology_for("clusters:1000000000,1000000000", hosts(4), &error));
  EXPECT_NE(error.find("describes 2000000000 ranks, but the world has 4"), std::string::npos) << error;
  EXPECT_FALSE(load_topology_for("clusters:2147483647,1", hosts(4), &error));
  EXPECT_NE(error.find("describes more than 2147483647 ranks"), std::string::npos) << error;
}

// Deep hierarchies: inner names are unique only within their parent at every depth.
TEST(TopologyFileInput, DeepHierarchyKeepsGroupsApart) {
  constexpr int kLevels = 2000;
  std::string levels, left, right;
  for (int l = 0; l < kLevels; ++l) {
    const std::string sep = l == 0 ? "" : ",";
    levels += sep + "\"l" + std::to_string(l) + "\"";
    left += sep + "\"a\"";
    right += sep + (l == 0 ? "\"b\"" : "\"a\"");
  }
  const std::string text =
      "{\"levels\": [" + levels + "], \"ranks\": [[" + left + "], [" + right + "], [" + left + "]]}";
  std::string error;
  const auto t = parse_topology_json(text, hosts(3), &error);
  ASSERT_TRUE(t) << error;
  EXPECT_EQ(t->group_count(kLevels - 1), 2);  // a/a/.../a and b/a/.../a differ at every level
  EXPECT_EQ(t->separating_level(0, 1), 0);
  EXPECT_EQ(t->separating_level(0, 2), -1);
  const Topology restricted = t->restricted_to({1, 2});
  EXPECT_EQ(restricted.group_count(kLevels - 1), 2);
  EXPECT_EQ(restricted.group(0, kLevels - 1), 0);
}

}  // namespace
}  // namespace topocoll
