// The calibration's decision table: the shape it keys on, written and read back, errors that
// name the entry at fault, lookups, and a new tuning run replacing a communicator's entries.
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>

#include "decision_tables.hpp"
#include "model_machines.hpp"
#include "select/calibration.hpp"

namespace topocoll {
namespace {

using test_tables::hand_table;
using test_tables::machine_with;

TEST(DecisionTable, ShapeNamesEveryLevelsGroups) {
  const Topology uneven = test_machines::two_clusters(7, 9);
  EXPECT_EQ(topology_shape(uneven), "cluster:7+9");
  EXPECT_EQ(topology_shape(Topology::flat(4)), "cluster:1x4");
  const Topology even = *Topology::parse("clusters:3,3", nullptr);
  EXPECT_EQ(topology_shape(even.with_inner_level("node", {0, 0, 1, 2, 2, 3})), "cluster:2x3 node:2+1+2+1");
}

TEST(DecisionTable, RoundTripInTheCalibrationFile) {
  const Calibration c = machine_with(hand_table("cluster:7+9"));
  std::string error;
  const auto back = parse_calibration(calibration_to_json(c), &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(calibration_to_json(*back), calibration_to_json(c));
  ASSERT_EQ(back->decisions.size(), 2u);
  EXPECT_EQ(back->decisions[0].algorithm, "shift");
  EXPECT_EQ(back->decisions[0].to_bytes, 4096u);
  ASSERT_EQ(back->decisions[0].measured.size(), 2u);
  EXPECT_DOUBLE_EQ(*back->decisions[0].measured[0].native_us, 95.0);
  EXPECT_FALSE(back->decisions[0].measured[1].native_us);
  EXPECT_TRUE(back->decisions[1].measured.empty());
  // Without a table the file has no "decisions" (files from before it read as they did).
  EXPECT_EQ(calibration_to_json(machine_with({})).find("decisions"), std::string::npos);
}

std::string error_after(const std::function<void(nlohmann::json&)>& change) {
  nlohmann::json doc = nlohmann::json::parse(calibration_to_json(machine_with(hand_table("cluster:7+9"))));
  change(doc);
  std::string error;
  EXPECT_FALSE(parse_calibration(doc.dump(), &error)) << "accepted: " << doc.dump();
  return error;
}

TEST(DecisionTable, ErrorsNameTheEntry) {
  using nlohmann::json;
  EXPECT_EQ(error_after([](json& d) { d["decisions"] = json::object(); }), "decisions must be an array");
  EXPECT_EQ(error_after([](json& d) { d["decisions"][0]["operation"] = "allreduce"; }),
            "decisions[0].operation 'allreduce' is not an operation (alltoall, alltoallv, scatter, gather, "
            "scatterv, gatherv)");
  EXPECT_EQ(error_after([](json& d) { d["decisions"][1]["algorithm"] = "topo"; }).rfind(
                "decisions[1].algorithm 'topo' is not a alltoall algorithm; valid names: ", 0),
            0u);
  const std::string unknown = error_after([](json& d) { d["decisions"][1]["algorithm"] = "fastest"; });
  EXPECT_EQ(unknown.rfind("decisions[1].algorithm 'fastest' is not a alltoall algorithm; valid names: ", 0), 0u);
  EXPECT_NE(unknown.find(", or auto (the cost model)"), std::string::npos) << unknown;
  EXPECT_EQ(error_after([](json& d) { d["decisions"][0]["to_bytes"] = 512; }),
            "decisions[0].to_bytes must be at least from_bytes (both are included)");
  EXPECT_EQ(error_after([](json& d) { d["decisions"][0]["from_bytes"] = -1; }),
            "decisions[0].from_bytes must be a whole number of bytes, 0 or more");
  EXPECT_EQ(error_after([](json& d) { d["decisions"][0]["from_bytes"] = 1.5; }),
            "decisions[0].from_bytes must be a whole number of bytes, 0 or more");
  EXPECT_EQ(error_after([](json& d) { d["decisions"][0]["ranks"] = 0; }), "decisions[0].ranks must be at least 1");
  EXPECT_EQ(error_after([](json& d) { d["decisions"][0].erase("shape"); }), "decisions[0].shape is missing");
  EXPECT_EQ(error_after([](json& d) { d["decisions"][0]["measured"][1]["us"] = "slow"; }),
            "decisions[0].measured[1].us must be a number, 0 or more");
  EXPECT_EQ(error_after([](json& d) { d["decisions"][1]["from_bytes"] = 4096; }),
            "decisions entries 0 and 1 (alltoall, 16 ranks, 'cluster:7+9') cover overlapping sizes");
  // An entry naming auto (the cost model, measured the fastest there) is read back as written.
  std::string error;
  Calibration model = machine_with(hand_table("cluster:7+9"));
  model.decisions[1].algorithm = std::string(kModelDecision);
  const auto back = parse_calibration(calibration_to_json(model), &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->decisions[1].algorithm, "auto");
  // The same sizes for another shape or size of communicator are no overlap.
  Calibration other = machine_with(hand_table("cluster:7+9"));
  for (Decision d : hand_table("cluster:8x2")) other.decisions.push_back(d);
  EXPECT_TRUE(parse_calibration(calibration_to_json(other), &error)) << error;
}

TEST(DecisionTable, LookupCoversItsRangeOnly) {
  const std::vector<Decision> table = hand_table("cluster:7+9");
  EXPECT_EQ(find_decision(table, Operation::alltoall, 16, "cluster:7+9", 1023), nullptr);
  ASSERT_NE(find_decision(table, Operation::alltoall, 16, "cluster:7+9", 1024), nullptr);
  EXPECT_EQ(find_decision(table, Operation::alltoall, 16, "cluster:7+9", 4096)->algorithm, "shift");
  EXPECT_EQ(find_decision(table, Operation::alltoall, 16, "cluster:7+9", 4097), nullptr);
  EXPECT_EQ(find_decision(table, Operation::alltoall, 16, "cluster:7+9", 65536)->algorithm, "native");
  EXPECT_EQ(find_decision(table, Operation::alltoallv, 16, "cluster:7+9", 2048), nullptr);
  EXPECT_EQ(find_decision(table, Operation::alltoall, 15, "cluster:7+9", 2048), nullptr);
  EXPECT_EQ(find_decision(table, Operation::alltoall, 16, "cluster:8x2", 2048), nullptr);
  EXPECT_EQ(describe_decision(table[0]), "the tuning table (alltoall, 16 ranks, cluster:7+9, 1024-4096 bytes per block)");
}

TEST(DecisionTable, MergeReplacesTheSameCommunicatorsEntries) {
  std::vector<Decision> table = hand_table("cluster:7+9");
  table.push_back(Decision{Operation::scatter, 16, "cluster:7+9", 1, 8, "binomial", {}});
  const std::vector<Decision> fresh = {Decision{Operation::alltoall, 16, "cluster:7+9", 8, 16, "bruck", {}}};
  const std::vector<Decision> merged = merge_decisions(table, fresh);
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[0].algorithm, "bruck");  // both old alltoall entries replaced
  EXPECT_EQ(merged[1].algorithm, "binomial");
  EXPECT_FALSE(find_overlap(merged));
}

}  // namespace
}  // namespace topocoll
