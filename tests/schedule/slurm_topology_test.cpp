// Slurm's hostlist expressions and its tree topology file (topology.conf) as a host-keyed
// topology; errors name the line and the value at fault.
#include <gtest/gtest.h>

#include "topology/hostlist.hpp"
#include "topology/slurm_address.hpp"
#include "topology/slurm_topology.hpp"
#include "topology_samples.hpp"

namespace topocoll {
namespace {

using Names = std::vector<std::string>;

Names expanded(const char* expression) {
  std::string error;
  const auto names = expand_hostlist(expression, &error);
  EXPECT_TRUE(names) << expression << ": " << error;
  return names.value_or(Names{});
}

TEST(Hostlist, ExpandsRangesListsAndGroups) {
  EXPECT_EQ(expanded("tux"), (Names{"tux"}));
  EXPECT_EQ(expanded("tux[0-3,12]"), (Names{"tux0", "tux1", "tux2", "tux3", "tux12"}));
  EXPECT_EQ(expanded("a[08-11]"), (Names{"a08", "a09", "a10", "a11"}));
  EXPECT_EQ(expanded("a[8-10]"), (Names{"a8", "a9", "a10"}));
  EXPECT_EQ(expanded("a[001-002]"), (Names{"a001", "a002"}));
  EXPECT_EQ(expanded("a[1-2]b[3-4]"), (Names{"a1b3", "a1b4", "a2b3", "a2b4"}));
  EXPECT_EQ(expanded("r[1-2]-n[7]"), (Names{"r1-n7", "r2-n7"}));
  EXPECT_EQ(expanded("tux[0-1],login,b[7],c[1,3]d"), (Names{"tux0", "tux1", "login", "b7", "c1d", "c3d"}));
}

TEST(Hostlist, ErrorsQuoteTheExpression) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "hostlist '': an empty name"},
      {"a,,b", "hostlist 'a,,b': an empty name"},
      {"a,", "an empty name"},
      {"tux[1-2", "'[' without its ']'"},
      {"tux[1-[2]]", "'[' without its ']'"},
      {"tux1-2]", "']' without '['"},
      {"tux[]", "'' is not a number or a range N-M"},
      {"tux[a-b]", "'a-b' is not a number or a range N-M"},
      {"tux[1-2-3]", "'1-2-3' is not a number"},
      {"tux[5-3]", "the range '5-3' runs backwards"},
      {"tux[0-99999999999]", "more than 1048576 names"},
      {"a[0-1023]b[0-1024]", "more than 1048576 names"},
      {"t[1234567890123456789]", "is not a number"},
  };
  for (const auto& [expression, needle] : cases) {
    std::string error;
    EXPECT_FALSE(expand_hostlist(expression, &error)) << expression;
    EXPECT_NE(error.find(needle), std::string::npos) << expression << " -> " << error;
  }
}

TEST(SlurmTopology, TreeFromRootToLeaves) {
  std::string error;
  const auto groups = parse_slurm_topology(topology_sample("tree.topology.conf"), &error);
  ASSERT_TRUE(groups) << error;
  EXPECT_EQ(groups->levels, (Names{"core", "spine", "leaf"}));
  EXPECT_EQ(groups->hosts.size(), 12u);
  EXPECT_EQ(groups->hosts.at("tux12"), (Names{"core", "spine0", "s0"}));
  EXPECT_EQ(groups->hosts.at("tux05"), (Names{"core", "spine0", "s1"}));
  EXPECT_EQ(groups->hosts.at("a2b3"), (Names{"core", "spine1", "s2"}));
  EXPECT_EQ(groups->hosts.at("login1"), (Names{"core", "spine1", "s2"}));
}

// A node right under the root: its switch repeats at the levels below, so the roots line up. A
// switch under two parents takes the first the file lists. Two roots are two top-level groups.
TEST(SlurmTopology, ShortBranchesAndSeveralParents) {
  const std::string text =
      "SwitchName=leaf Nodes=n[1-2]\n"
      "SwitchName=top2 Switches=leaf\n"
      "SwitchName=top1 Switches=leaf Nodes=n3\n"
      "SwitchName=other Nodes=m1\n";
  std::string error;
  const auto groups = parse_slurm_topology(text, &error);
  ASSERT_TRUE(groups) << error;
  EXPECT_EQ(groups->levels, (Names{"spine", "leaf"}));
  EXPECT_EQ(groups->hosts.at("n1"), (Names{"top2", "leaf"}));
  EXPECT_EQ(groups->hosts.at("n3"), (Names{"top1", "top1"}));
  EXPECT_EQ(groups->hosts.at("m1"), (Names{"other", "other"}));
}

TEST(SlurmTopology, ErrorsNameTheLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"# c\nNodes=a SwitchName=s\n", "line 2: expected SwitchName=NAME first, found 'Nodes='"},
      {"SwitchName=s Nodes=a Colour=red\n", "line 1: unknown key 'Colour' (expected SwitchName, Switches, Nodes or LinkSpeed)"},
      {"SwitchName=s nodes=a Nodes=b\n", "line 1: 'Nodes' given twice"},
      {"SwitchName=s Nodes=\n", "line 1: 'Nodes=' has no value"},
      {"SwitchName=s Nodes=a junk\n", "line 1: 'junk' is not KEY=VALUE"},
      {"SwitchName=s Nodes=a[1-\n", "line 1: Nodes: hostlist 'a[1-': '[' without its ']'"},
      {"SwitchName=s Nodes=a\n\nSwitchName=s Nodes=b\n", "line 3: switch 's' is already defined on line 1"},
      {"SwitchName=s Nodes=a\nSwitchName=t Switches=s,u\n", "line 2: switch 't' lists switch 'u', which no line defines"},
      {"SwitchName=s Nodes=a\nSwitchName=t Nodes=b,a\n", "line 2: node 'a' is listed under switch 't' and under switch 's' (line 1)"},
      {"SwitchName=s Switches=t\nSwitchName=t Switches=s Nodes=a\n", "the Switches= lists form a cycle"},
      {"SwitchName=r Switches=s\nSwitchName=s Switches=t\nSwitchName=t Switches=s Nodes=a\n", "is its own ancestor"},
      {"SwitchName=s Switches=s Nodes=a\n", "line 1: switch 's' is its own ancestor"},
      {"# only a comment\nSwitchName=s LinkSpeed=10\n", "no switch lists a node (Nodes=)"},
      {"SwitchName=s Nodes=a[1-1000000]\nSwitchName=t Nodes=b[1-48577]\n",
       "line 2: the file lists more than 1048576 nodes and switches"},
  };
  for (const auto& [text, needle] : cases) {
    std::string error;
    EXPECT_FALSE(parse_slurm_topology(text, &error)) << text;
    EXPECT_NE(error.find(needle), std::string::npos) << text << " -> " << error;
  }
}

TEST(SlurmAddress, PartsFollowThePattern) {
  std::string error;
  EXPECT_EQ(slurm_address_parts({"s2.s0.tux3", "switch.switch.node"}, &error), (Names{"s2", "s0", "tux3"})) << error;
  EXPECT_EQ(slurm_address_parts({"tux3", "node"}, &error), (Names{"tux3"})) << error;
  const std::pair<SlurmAddress, const char*> cases[] = {
      {{"s2.tux3", "switch.switch.node"}, "'s2.tux3' and SLURM_TOPOLOGY_ADDR_PATTERN 'switch.switch.node' do not fit: they have 2 and 3 parts"},
      {{"s2..tux3", "switch.switch.node"}, "the address has an empty part"},
      {{"", "node"}, "the address has an empty part"},
      {{"s2.tux3", "node.switch"}, "the pattern must be switch parts, then one node part"},
      {{"s2.tux3", "rack.node"}, "the pattern must be switch parts, then one node part"},
  };
  for (const auto& [slurm, needle] : cases) {
    EXPECT_FALSE(slurm_address_parts(slurm, &error)) << slurm.address;
    EXPECT_NE(error.find(needle), std::string::npos) << slurm.address << " -> " << error;
  }
}

// Ranks on a tree whose branches differ in depth: the roots line up, a short branch repeats its
// lowest switch, a node under no switch is its own group; several ranks share a node.
TEST(SlurmAddress, TopologyOfTheRanks) {
  const std::vector<SlurmAddress> ranks = {
      {"core.s2.s0.tux0", "switch.switch.switch.node"}, {"core.s2.s0.tux0", "switch.switch.switch.node"},
      {"core.s2.s1.tux4", "switch.switch.switch.node"}, {"core.s3.tux8", "switch.switch.node"},
      {"lonely", "node"}};
  std::string error;
  const auto topology = topology_from_slurm_addresses(ranks, &error);
  ASSERT_TRUE(topology) << error;
  EXPECT_EQ(topology->levels(), (Names{"core", "spine", "leaf", "node"}));
  EXPECT_EQ(topology->group_count(0), 2);  // core, lonely
  EXPECT_EQ(topology->group_count(1), 3);  // s2, s3, lonely
  EXPECT_EQ(topology->group_count(2), 4);  // s0, s1, s3, lonely
  EXPECT_EQ(topology->group_count(3), 4);
  EXPECT_EQ(topology->separating_level(0, 1), -1);
  EXPECT_EQ(topology->separating_level(0, 2), 2);
  EXPECT_EQ(topology->separating_level(0, 3), 1);
  EXPECT_EQ(topology->separating_level(3, 4), 0);

  const auto flat = topology_from_slurm_addresses({{"a", "node"}, {"b", "node"}}, &error);
  ASSERT_TRUE(flat) << error;
  EXPECT_EQ(flat->levels(), (Names{"node"}));
  EXPECT_EQ(flat->group_count(0), 2);

  EXPECT_FALSE(topology_from_slurm_addresses({{"s0.a", "switch.node"}, {"s0.b", "node"}}, &error));
  EXPECT_NE(error.find("rank 1: SLURM_TOPOLOGY_ADDR 's0.b'"), std::string::npos) << error;
}

}  // namespace
}  // namespace topocoll
