// ibnetdiscover's output as a host-keyed topology: hosts from CA descriptions, leaves from the
// CAs' links, switch levels by distance from the hosts, the lowest-GUID parent, and errors that
// name the line. Samples in topology-samples/, small cases inline.
#include <gtest/gtest.h>

#include "topology/ibnetdiscover.hpp"
#include "topology/topology_file.hpp"
#include "topology_samples.hpp"

namespace topocoll {
namespace {

using Path = std::vector<std::string>;

TEST(Ibnetdiscover, FatTreeHostsUnderTheirLeavesAndTheLowestSpine) {
  std::string error;
  std::vector<std::string> notes;
  const auto groups = parse_ibnetdiscover(topology_sample("fat-tree.ibnetdiscover"), &error, &notes);
  ASSERT_TRUE(groups) << error;
  EXPECT_EQ(groups->levels, (Path{"spine", "leaf"}));
  ASSERT_EQ(groups->hosts.size(), 4u);  // node01 has two CAs; login1 links nowhere; the router is no host
  const Path leaf1{"S-0002c90300001000", "S-0002c90300000100"};
  const Path leaf2{"S-0002c90300001000", "S-0002c90300000200"};
  EXPECT_EQ(groups->hosts.at("node01"), leaf1);
  EXPECT_EQ(groups->hosts.at("node02"), leaf1);
  EXPECT_EQ(groups->hosts.at("node03"), leaf2);
  EXPECT_EQ(groups->hosts.at("node04"), leaf2);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("H-7cfe900300000051"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("host 'login1' links to no switch"), std::string::npos) << notes[0];
}

// The paper's testbed: switches A and B, each linked to C by two links.
TEST(Ibnetdiscover, PaperTestbedIsTwoLeavesUnderOneSpine) {
  std::string error;
  const auto groups = parse_ibnetdiscover(topology_sample("two-switches-and-a-spine.ibnetdiscover"), &error);
  ASSERT_TRUE(groups) << error;
  EXPECT_EQ(groups->levels, (Path{"spine", "leaf"}));
  EXPECT_EQ(groups->hosts.at("a1"), (Path{"S-0008f10500000c00", "S-0008f10500000a00"}));
  EXPECT_EQ(groups->hosts.at("b2"), (Path{"S-0008f10500000c00", "S-0008f10500000b00"}));

  // The file it writes reads back as a topology: one spine group, the hosts of A and B parted at the leaf.
  const auto topology = parse_topology_json(host_topology_json(*groups),
                                            RankPlacement::whole_world({"a0", "a1", "b0", "b1", "b2"}), &error);
  ASSERT_TRUE(topology) << error;
  EXPECT_EQ(topology->group_count(0), 1);
  EXPECT_EQ(topology->group_count(1), 2);
  EXPECT_EQ(topology->separating_level(0, 1), -1);
  EXPECT_EQ(topology->separating_level(1, 2), 1);
}

// Three levels, one leaf whose chain stops at a spine with no core above it: the spine repeats
// at the core level. Switch-side lines only, spaces instead of tabs, one line per link.
TEST(Ibnetdiscover, ShortBranchRepeatsItsTopSwitch) {
  const std::string text = R"(Switch 8 "S-00000000000000c1" # "core"
[1] "S-00000000000000b1"[8] # "spine a" lid 1 4xHDR

Switch 8 "S-00000000000000b1" # "spine a"
[1] "S-00000000000000a1"[8] # "leaf 1" lid 1 4xHDR

Switch 8 "S-00000000000000b2" # "spine b"
[1] "S-00000000000000a2"[8] # "leaf 2" lid 1 4xHDR

Switch 8 "S-00000000000000a1" # "leaf 1"
[1] "H-0000000000000001"[1](2) # "h1 mlx5_0" lid 5 4xHDR

Switch 8 "S-00000000000000a2" # "leaf 2"
[1] "H-0000000000000002"[1](3) # "h2 mlx5_0" lid 6 4xHDR

Ca 1 "H-0000000000000001" # "h1 mlx5_0"
Ca 1 "H-0000000000000002" # "h2 mlx5_0"
)";
  std::string error;
  const auto groups = parse_ibnetdiscover(text, &error);
  ASSERT_TRUE(groups) << error;
  EXPECT_EQ(groups->levels, (Path{"core", "spine", "leaf"}));
  EXPECT_EQ(groups->hosts.at("h1"), (Path{"S-00000000000000c1", "S-00000000000000b1", "S-00000000000000a1"}));
  EXPECT_EQ(groups->hosts.at("h2"), (Path{"S-00000000000000b2", "S-00000000000000b2", "S-00000000000000a2"}));
}

TEST(Ibnetdiscover, GroupedOutputAndExtendedPortsAreRead) {
  const std::string text =
      "\nChassis 1 (guid 0x8f104004128ca)\n\n# Spine Nodes\n"
      "vendid=0x8f1\ndevid=0x5a31\nsysimgguid=0x8f104004128cb\t\t# Chassis 1\n"
      "switchguid=0x8f104004128ca(8f104004128ca)\t# ISR9288 Spine 2 Chip 1\n"
      "Switch\t24 \"S-0008f104004128ca\"\t\t# \"ISR9288/ISR9096 Voltaire sFB-12D\" base port 0 lid 6 lmc 0\n"
      "[1][ext 1]\t\"H-0008f10403960001\"[1][ext 2](8f10403960002) \t\t# \"h1 HCA-1\" lid 4 4xSDR\n"
      "\nNon-Chassis Nodes\n\n"
      "caguid=0x8f10403960001\nCa\t2 \"H-0008f10403960001\"\t\t# \"h1 HCA-1\" (scp)\n";
  std::string error;
  const auto groups = parse_ibnetdiscover(text, &error);
  ASSERT_TRUE(groups) << error;
  EXPECT_EQ(groups->levels, (Path{"leaf"}));
  EXPECT_EQ(groups->hosts.at("h1"), (Path{"S-0008f104004128ca"}));
}

TEST(Ibnetdiscover, HostWithCasUnderTwoLeavesIsAnError) {
  const std::string text = R"(Ca 1 "H-0000000000000001" # "h1 mlx5_0"
[1](2) "S-00000000000000a1"[1] # lid 1 lmc 0 "leaf 1" lid 1 4xHDR

Ca 1 "H-0000000000000003" # "h1 mlx5_1"
[1](4) "S-00000000000000a2"[1] # lid 2 lmc 0 "leaf 2" lid 2 4xHDR
)";
  std::string error;
  EXPECT_FALSE(parse_ibnetdiscover(text, &error));
  EXPECT_EQ(error,
            "host 'h1' is under two switches: S-00000000000000a1 through the CA H-0000000000000001 (line 1) and "
            "S-00000000000000a2 through the CA H-0000000000000003 (line 4) (a host must be under one leaf switch)");
}

struct BadCase {
  const char* text;
  const char* error;
};

TEST(Ibnetdiscover, MalformedLinesNameTheirLine) {
  const BadCase cases[] = {
      {"# fabric\nSwitch 8 \"S-01\" # \"s\"\n[1] S-02[1]\n", "line 3: expected [port] \"X-<guid>\"[port]"},
      {"\n[1] \"S-01\"[1]\n", "line 2: a port line outside a node's stanza"},
      {"Switch 8 \"S-01\"\n[1] \"S-02\"[1]\n\n[2] \"S-03\"[1]\n", "line 4: a port line outside"},
      {"Switch 8 \"H-01\" # \"x\"\n", "line 1: the node H-0000000000000001 on a Switch line"},
      {"Ca x \"H-01\"\n", "line 1: expected a port count and a quoted node name"},
      {"Ca 1 \"H-01\" # \"a\"\n\nCa 1 \"H-01\" # \"a\"\n", "line 3: the node H-0000000000000001 is described twice (first on line 1)"},
      {"Ca 1 \"H-01\" # \"a b\"\nhello world\n", "line 2: not a line of ibnetdiscover's output: 'hello world'"},
      {"Switch 8 \"S-11111111111111111\"\n", "line 1: expected a port count"},  // 17 hex digits
      {"Switch 8 \"S-01\"\n[1] \"S-02\"[1] junk\n", "line 2: expected [port]"},
      {"# nothing\n", "no host: no CA with a node description links to a switch"},
  };
  for (const BadCase& c : cases) {
    std::string error;
    EXPECT_FALSE(parse_ibnetdiscover(c.text, &error)) << c.text;
    EXPECT_NE(error.find(c.error), std::string::npos) << c.text << " -> " << error;
  }
}

TEST(Ibnetdiscover, CasThatPlaceNoHostAreNoted) {
  const std::string text = R"(Switch 8 "S-0a" # "leaf"
[1] "H-01"[1](2) # "h1 x" lid 1 4xHDR
[2] "H-03"[1](4) # "" lid 2 4xHDR
[3] "H-05"[1](6) # "h5" lid 3 4xHDR

Ca 1 "H-01" # "h1 x"
Ca 1 "H-03" # ""
Ca 1 "H-07" # "lonely ca"
[1](8) "H-09"[1] (a) # lid 1 lmc 0 "peer" lid 2 4xHDR
)";
  std::string error;
  std::vector<std::string> notes;
  const auto groups = parse_ibnetdiscover(text, &error, &notes);
  ASSERT_TRUE(groups) << error;
  EXPECT_EQ(groups->hosts.size(), 1u);
  ASSERT_EQ(notes.size(), 4u);
  EXPECT_EQ(notes[0], "the CA H-0000000000000003 (line 7) has an empty node description, so no host name: left out");
  EXPECT_EQ(notes[1], "the CA H-0000000000000005 has no Ca line, so no host name: left out");
  EXPECT_EQ(notes[2], "the CA H-0000000000000007 (line 8) of host 'lonely' links to no switch: left out");
  EXPECT_EQ(notes[3], "the CA H-0000000000000009 has no Ca line, so no host name: left out");
}

TEST(Ibnetdiscover, HostTopologyJsonEscapesNames) {
  HostGroups groups{{"leaf"}, {{"we\"ird", {"S-01"}}, {"plain", {"S-02"}}}};
  EXPECT_EQ(host_topology_json(groups),
            "{\n  \"levels\": [\"leaf\"],\n  \"hosts\": {\n    \"plain\": [\"S-02\"],\n    \"we\\\"ird\": [\"S-01\"]\n  }\n}\n");
}

}  // namespace
}  // namespace topocoll
