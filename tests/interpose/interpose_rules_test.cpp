// The drop-in library's rules without MPI: what each TOPOCOLL_* value means (and which ones
// are errors, named in the message), and who answers an MPI_Alltoall.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "algorithms/registry.hpp"
#include "interpose/alltoall_route.hpp"
#include "interpose/interpose_config.hpp"

namespace topocoll::interpose {
namespace {

InterposeConfig parse(const std::map<std::string, std::string>& environment) {
  return parse_interpose_config([&](const char* name) -> const char* {
    const auto it = environment.find(name);
    return it == environment.end() ? nullptr : it->second.c_str();
  });
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(InterposeConfig, UnsetMeansAutoQuietAndNoTopology) {
  const InterposeConfig config = parse({});
  EXPECT_TRUE(config.valid()) << config.error;
  EXPECT_EQ(config.alltoall.requested, "auto");
  EXPECT_EQ(config.alltoall.algorithm, kAutoStandIn) << "auto without a calibration";
  EXPECT_EQ(config.alltoallv.algorithm, kAutoStandIn);
  EXPECT_FALSE(config.verbose);
  EXPECT_EQ(config.topology, "");
}

TEST(InterposeConfig, AutoWithACalibrationIsTheExecutorsAuto) {
  const InterposeConfig config = parse({{"TOPOCOLL_CALIBRATION", "/some/machine.calibration.json"}});
  EXPECT_TRUE(config.valid()) << config.error;
  EXPECT_EQ(config.calibration, "/some/machine.calibration.json");
  EXPECT_EQ(config.alltoall.algorithm, "auto");
  EXPECT_EQ(config.alltoallv.algorithm, "auto");
  const AlltoallRoute route = route_alltoall(config.alltoall, AlltoallCall{false, 4, 8});
  EXPECT_TRUE(route.by_topocoll);
  EXPECT_TRUE(route.applicability_from_executor) << "auto chooses on the topology, inside the executor";
}

TEST(InterposeConfig, EveryRegistryNameIsAccepted) {
  for (const Algorithm& algorithm : algorithms_for(Operation::alltoall)) {
    const std::string name(algorithm.name);
    const InterposeConfig config = parse({{"TOPOCOLL_ALLTOALL", name}});
    EXPECT_TRUE(config.valid()) << name << ": " << config.error;
    EXPECT_EQ(config.alltoall.algorithm, name);
    EXPECT_EQ(config.alltoall.native(), name == "native");
  }
}

TEST(InterposeConfig, TopologyAndVerboseAreRead) {
  const InterposeConfig config = parse({{"TOPOCOLL_TOPOLOGY", "clusters:2,2"}, {"TOPOCOLL_VERBOSE", "1"}});
  EXPECT_TRUE(config.valid()) << config.error;
  EXPECT_EQ(config.topology, "clusters:2,2");
  EXPECT_TRUE(config.verbose);
  EXPECT_FALSE(parse({{"TOPOCOLL_VERBOSE", "0"}}).verbose);
}

TEST(InterposeConfig, UnknownAlgorithmNamesTheVariableAndTheValidNames) {
  const InterposeConfig config = parse({{"TOPOCOLL_ALLTOALL", "fastest"}, {"TOPOCOLL_VERBOSE", "1"}});
  EXPECT_FALSE(config.valid());
  EXPECT_TRUE(contains(config.error, "TOPOCOLL_ALLTOALL='fastest'")) << config.error;
  for (const char* name : {"direct", "pairwise", "bruck", "native", "auto"}) {
    EXPECT_TRUE(contains(config.error, name)) << config.error;
  }
  EXPECT_TRUE(config.verbose) << "the other variables are still read";
}

TEST(InterposeConfig, AlltoallvAcceptsTheAlgorithmsForBlocksOfDifferentSizes) {
  for (const char* name : {"native", "auto", "direct", "shift", "pairwise", "group-shuffle", "lg"}) {
    const InterposeConfig config = parse({{"TOPOCOLL_ALLTOALLV", name}});
    EXPECT_TRUE(config.valid()) << name << ": " << config.error;
  }
  for (const char* name : {"liu", "bruck"}) {
    const InterposeConfig config = parse({{"TOPOCOLL_ALLTOALLV", name}});
    EXPECT_FALSE(config.valid()) << name;
    EXPECT_TRUE(contains(config.error, "TOPOCOLL_ALLTOALLV='" + std::string(name) + "'")) << config.error;
    const std::string valid = config.error.substr(config.error.find("valid names:"));
    EXPECT_FALSE(contains(valid, "bruck")) << "bruck is no alltoallv algorithm: " << config.error;
  }
}

TEST(AlltoallRoute, AlltoallvCallsGoToTheMpiLibraryWhereTheAlgorithmNeedsEqualBlocks) {
  AlltoallChoice bruck;
  bruck.requested = bruck.algorithm = "bruck";
  const AlltoallRoute route = route_alltoall(bruck, AlltoallCall{false, 4, 0, true});
  EXPECT_FALSE(route.by_topocoll);
  EXPECT_TRUE(contains(route.fallback_reason, "bruck does not apply")) << route.fallback_reason;
  AlltoallChoice direct;
  direct.requested = direct.algorithm = "direct";
  EXPECT_TRUE(route_alltoall(direct, AlltoallCall{false, 4, 0, true}).by_topocoll);
}

TEST(InterposeConfig, BadVerboseValueIsAnError) {
  const InterposeConfig config = parse({{"TOPOCOLL_VERBOSE", "yes please"}});
  EXPECT_FALSE(config.valid());
  EXPECT_TRUE(contains(config.error, "TOPOCOLL_VERBOSE")) << config.error;
}

AlltoallChoice choice_of(const std::string& name) { return parse({{"TOPOCOLL_ALLTOALL", name}}).alltoall; }

TEST(AlltoallRoute, FlatAlgorithmsAnswerIntracommunicators) {
  for (const char* name : {"direct", "shift", "pairwise", "group-shuffle", "bruck"}) {
    const AlltoallRoute route = route_alltoall(choice_of(name), AlltoallCall{false, 5, 64});
    EXPECT_TRUE(route.by_topocoll) << name;
    EXPECT_EQ(route.algorithm, name);
    EXPECT_FALSE(route.applicability_from_executor) << name;
  }
}

TEST(AlltoallRoute, NativeGoesToTheMpiLibraryWithoutExcuse) {
  const AlltoallRoute route = route_alltoall(choice_of("native"), AlltoallCall{false, 4, 8});
  EXPECT_FALSE(route.by_topocoll);
  EXPECT_EQ(route.algorithm, "native");
  EXPECT_EQ(route.fallback_reason, "");
}

TEST(AlltoallRoute, IntercommunicatorsGoToTheMpiLibrary) {
  const AlltoallRoute route = route_alltoall(choice_of("pairwise"), AlltoallCall{true, 2, 8});
  EXPECT_FALSE(route.by_topocoll);
  EXPECT_TRUE(contains(route.fallback_reason, "intercommunicator")) << route.fallback_reason;
}

TEST(AlltoallRoute, TopologyAwareAlgorithmsLeaveApplicabilityToTheExecutor) {
  for (const Algorithm& algorithm : algorithms_for(Operation::alltoall)) {
    if (!algorithm.needs_topology) continue;
    const AlltoallRoute route = route_alltoall(choice_of(std::string(algorithm.name)), AlltoallCall{false, 4, 8});
    EXPECT_TRUE(route.by_topocoll) << algorithm.name;
    EXPECT_TRUE(route.applicability_from_executor) << algorithm.name;
  }
}

}  // namespace
}  // namespace topocoll::interpose
