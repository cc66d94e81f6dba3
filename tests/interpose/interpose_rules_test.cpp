// The drop-in library's rules without MPI: what each TOPOCOLL_* value means (and which ones
// are errors, named in the message), who answers an interposed call, and the fingerprint the
// ranks compare at MPI_Init.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "interpose/call_route.hpp"
#include "interpose/configuration_agreement.hpp"
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
  // Do no harm: without a calibration nothing says topocoll is faster here, so the MPI library answers.
  EXPECT_EQ(config.alltoall.algorithm, "native") << "auto without a calibration";
  EXPECT_EQ(config.alltoallv.algorithm, "native");
  for (Operation operation : kOperations) {
    const CallRoute route = route_call(config.choice(operation), CallShape{operation, false});
    EXPECT_FALSE(route.by_topocoll) << to_string(operation);
    EXPECT_EQ(route.algorithm, "native") << to_string(operation);
  }
  EXPECT_FALSE(config.verbose);
  EXPECT_EQ(config.topology, "");
}

TEST(InterposeConfig, AutoWithACalibrationIsTheExecutorsAuto) {
  const InterposeConfig config = parse({{"TOPOCOLL_CALIBRATION", "/some/machine.calibration.json"}});
  EXPECT_TRUE(config.valid()) << config.error;
  EXPECT_EQ(config.calibration, "/some/machine.calibration.json");
  EXPECT_EQ(config.alltoall.algorithm, "auto");
  EXPECT_EQ(config.alltoallv.algorithm, "auto");
  const CallRoute route = route_call(config.alltoall, CallShape{Operation::alltoall, false});
  EXPECT_TRUE(route.by_topocoll);
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

TEST(InterposeConfig, TopologyNetworkAndVerboseAreRead) {
  const InterposeConfig config = parse(
      {{"TOPOCOLL_TOPOLOGY", "clusters:2,2"}, {"TOPOCOLL_NETWORK", "mesh.xml"}, {"TOPOCOLL_VERBOSE", "1"}});
  EXPECT_TRUE(config.valid()) << config.error;
  EXPECT_EQ(config.topology, "clusters:2,2");
  EXPECT_EQ(config.network, "mesh.xml");
  EXPECT_EQ(parse({}).network, "");
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
  for (const char* name : {"native", "auto", "direct", "shift", "pairwise", "group-shuffle", "lg", "liu"}) {
    const InterposeConfig config = parse({{"TOPOCOLL_ALLTOALLV", name}});
    EXPECT_TRUE(config.valid()) << name << ": " << config.error;
  }
  for (const char* name : {"topo", "bruck"}) {
    const InterposeConfig config = parse({{"TOPOCOLL_ALLTOALLV", name}});
    EXPECT_FALSE(config.valid()) << name;
    EXPECT_TRUE(contains(config.error, "TOPOCOLL_ALLTOALLV='" + std::string(name) + "'")) << config.error;
    const std::string valid = config.error.substr(config.error.find("valid names:"));
    EXPECT_FALSE(contains(valid, "bruck")) << "bruck is no alltoallv algorithm: " << config.error;
  }
}

// MPI_Alltoallw: a variable of its own, alltoallv's names, auto by default.
TEST(InterposeConfig, AlltoallwHasItsOwnVariableWithAlltoallvsNames) {
  const InterposeConfig unset = parse({{"TOPOCOLL_ALLTOALLV", "liu"}});
  EXPECT_EQ(unset.choice(Operation::alltoallv, true).requested, "auto");
  EXPECT_TRUE(unset.choice(Operation::alltoallv, true).native()) << "auto without a calibration";
  EXPECT_EQ(unset.choice(Operation::alltoallv).algorithm, "liu");
  const InterposeConfig asked = parse({{"TOPOCOLL_ALLTOALLW", "lg"}});
  EXPECT_TRUE(asked.valid()) << asked.error;
  EXPECT_EQ(asked.choice(Operation::alltoallv, true).algorithm, "lg");
  EXPECT_TRUE(asked.choice(Operation::alltoallv).native()) << "alltoallv keeps its own variable";
  const InterposeConfig bad = parse({{"TOPOCOLL_ALLTOALLW", "bruck"}});
  EXPECT_TRUE(contains(bad.error, "TOPOCOLL_ALLTOALLW='bruck' is not an alltoallw algorithm; valid names: "))
      << bad.error;
  EXPECT_TRUE(contains(bad.error, "liu")) << bad.error;
  EXPECT_EQ(variable_of(Operation::alltoallv, true), "TOPOCOLL_ALLTOALLW");
}

TEST(CallRoute, ApplicabilityIsTheExecutorsVerdictNotTheRoutes) {
  // bruck takes no blocks of different sizes: the executor hands such a call to the MPI
  // library itself, with the call's real layout (tested under mpirun: preload_check).
  OperationChoice bruck;
  bruck.requested = bruck.algorithm = "bruck";
  EXPECT_TRUE(route_call(bruck, CallShape{Operation::alltoallv, false}).by_topocoll);
  OperationChoice unknown;
  unknown.requested = unknown.algorithm = "fastest";
  const CallRoute route = route_call(unknown, CallShape{Operation::alltoall, false});
  EXPECT_FALSE(route.by_topocoll);
  EXPECT_TRUE(contains(route.fallback_reason, "unknown algorithm 'fastest'")) << route.fallback_reason;
}

TEST(InterposeConfig, BadVerboseValueIsAnError) {
  const InterposeConfig config = parse({{"TOPOCOLL_VERBOSE", "yes please"}});
  EXPECT_FALSE(config.valid());
  EXPECT_TRUE(contains(config.error, "TOPOCOLL_VERBOSE")) << config.error;
}

// TOPOCOLL_GROUP_LEVEL: lg's and overlap's groups from a level of the topology (1: the node
// level under a one-level topology); unset, -1; anything but a level 0-64 is an error.
TEST(InterposeConfig, GroupLevelIsReadAndChecked) {
  EXPECT_EQ(parse({}).group_level, -1);
  const InterposeConfig node_level = parse({{"TOPOCOLL_ALLTOALL", "lg"}, {"TOPOCOLL_GROUP_LEVEL", "1"}});
  EXPECT_TRUE(node_level.valid()) << node_level.error;
  EXPECT_EQ(node_level.group_level, 1);
  EXPECT_EQ(parse({{"TOPOCOLL_GROUP_LEVEL", "0"}}).group_level, 0);
  for (const char* bad : {"-1", "node", "65", "1.5", "007"}) {
    const InterposeConfig config = parse({{"TOPOCOLL_GROUP_LEVEL", bad}});
    EXPECT_FALSE(config.valid()) << bad;
    EXPECT_TRUE(contains(config.error, std::string("TOPOCOLL_GROUP_LEVEL='") + bad + "' is not a topology level"))
        << config.error;
  }
}

OperationChoice choice_of(const std::string& name) { return parse({{"TOPOCOLL_ALLTOALL", name}}).alltoall; }

TEST(CallRoute, FlatAlgorithmsAnswerIntracommunicators) {
  for (const char* name : {"direct", "shift", "pairwise", "group-shuffle", "bruck"}) {
    const CallRoute route = route_call(choice_of(name), CallShape{Operation::alltoall, false});
    EXPECT_TRUE(route.by_topocoll) << name;
    EXPECT_EQ(route.algorithm, name);
  }
}

TEST(CallRoute, NativeGoesToTheMpiLibraryWithoutExcuse) {
  const CallRoute route = route_call(choice_of("native"), CallShape{Operation::alltoall, false});
  EXPECT_FALSE(route.by_topocoll);
  EXPECT_EQ(route.algorithm, "native");
  EXPECT_EQ(route.fallback_reason, "");
}

TEST(CallRoute, IntercommunicatorsGoToTheMpiLibrary) {
  const CallRoute route = route_call(choice_of("pairwise"), CallShape{Operation::alltoall, true});
  EXPECT_FALSE(route.by_topocoll);
  EXPECT_TRUE(contains(route.fallback_reason, "intercommunicator")) << route.fallback_reason;
}

TEST(CallRoute, TopologyAwareAlgorithmsGoToTheExecutor) {
  for (const Algorithm& algorithm : algorithms_for(Operation::alltoall)) {
    if (!algorithm.needs_topology) continue;
    const CallRoute route = route_call(choice_of(std::string(algorithm.name)), CallShape{Operation::alltoall, false});
    EXPECT_TRUE(route.by_topocoll) << algorithm.name;
  }
}

TEST(InterposeConfig, ScatterAndGatherStayWithTheMpiLibraryUnlessAsked) {
  const InterposeConfig config = parse({});
  for (Operation op : {Operation::scatter, Operation::gather, Operation::scatterv, Operation::gatherv}) {
    EXPECT_TRUE(config.choice(op).native()) << to_string(op);
    EXPECT_TRUE(config.choice(op).defaulted) << to_string(op);
  }
  const InterposeConfig asked = parse({{"TOPOCOLL_SCATTER", "binomial"}, {"TOPOCOLL_GATHERV", "topo"}});
  EXPECT_TRUE(asked.valid()) << asked.error;
  EXPECT_EQ(asked.scatter.algorithm, "binomial");
  EXPECT_EQ(asked.gatherv.algorithm, "topo");
  EXPECT_TRUE(asked.gather.native());
}

TEST(InterposeConfig, ScatterVariablesTakeTheRootedRegistryAndAuto) {
  for (const char* name : {"pairwise", "fastest"}) {
    const InterposeConfig config = parse({{"TOPOCOLL_SCATTERV", name}});
    EXPECT_FALSE(config.valid()) << name;
    EXPECT_TRUE(contains(config.error, "TOPOCOLL_SCATTERV='" + std::string(name) + "' is not a scatterv algorithm"))
        << config.error;
    EXPECT_TRUE(contains(config.error, "valid names: linear, binomial, topo, native, auto")) << config.error;
  }
  // auto without a calibration stays with the MPI library; with one, the executor chooses.
  EXPECT_TRUE(parse({{"TOPOCOLL_GATHER", "auto"}}).gather.native());
  EXPECT_EQ(parse({{"TOPOCOLL_GATHER", "auto"}, {"TOPOCOLL_CALIBRATION", "/m.json"}}).gather.algorithm, "auto");
  EXPECT_EQ(variable_of(Operation::gatherv), "TOPOCOLL_GATHERV");
}

TEST(CallRoute, RootedCallsGoToTopocollOrToTheExecutorsVerdict) {
  OperationChoice binomial;
  binomial.requested = binomial.algorithm = "binomial";
  const CallRoute flat = route_call(binomial, CallShape{Operation::gather, false});
  EXPECT_TRUE(flat.by_topocoll);
  OperationChoice topo;
  topo.requested = topo.algorithm = "topo";
  const CallRoute aware = route_call(topo, CallShape{Operation::scatterv, false});
  EXPECT_TRUE(aware.by_topocoll);
  EXPECT_FALSE(route_call(binomial, CallShape{Operation::scatter, true}).by_topocoll);
}

// Files as the fingerprint reads them: a map from path to contents.
std::uint64_t fingerprint_of(const std::vector<std::string>& variables,
                             const std::map<std::string, std::string>& files = {}) {
  return configuration_fingerprint(variables, [&](const std::string& path, std::string& contents) {
    const auto it = files.find(path);
    if (it == files.end()) return false;
    contents = it->second;
    return true;
  });
}

TEST(ConfigurationFingerprint, SameSettingsInAnyOrderAgreeAndVerboseDoesNotCount) {
  const std::uint64_t one = fingerprint_of({"TOPOCOLL_ALLTOALL=bruck", "TOPOCOLL_TOPOLOGY=clusters:2,2"});
  EXPECT_EQ(one, fingerprint_of({"TOPOCOLL_TOPOLOGY=clusters:2,2", "TOPOCOLL_ALLTOALL=bruck"}));
  EXPECT_EQ(one, fingerprint_of({"TOPOCOLL_VERBOSE=1", "TOPOCOLL_TOPOLOGY=clusters:2,2", "TOPOCOLL_ALLTOALL=bruck"}));
  EXPECT_NE(one, fingerprint_of({"TOPOCOLL_ALLTOALL=pairwise", "TOPOCOLL_TOPOLOGY=clusters:2,2"}));
  EXPECT_NE(one, fingerprint_of({"TOPOCOLL_ALLTOALL=bruck"})) << "a variable set on one rank only";
  // Pieces are delimited: moving the '=' is another setting.
  EXPECT_NE(fingerprint_of({"TOPOCOLL_A=BC"}), fingerprint_of({"TOPOCOLL_AB=C"}));
}

TEST(ConfigurationFingerprint, TheFilesTheVariablesNameCountByTheirContents) {
  const std::vector<std::string> settings{"TOPOCOLL_CALIBRATION=/shared/machine.json", "TOPOCOLL_ALLTOALL=auto"};
  const std::uint64_t here = fingerprint_of(settings, {{"/shared/machine.json", "{\"latency\": 1}"}});
  EXPECT_EQ(here, fingerprint_of(settings, {{"/shared/machine.json", "{\"latency\": 1}"}}));
  EXPECT_NE(here, fingerprint_of(settings, {{"/shared/machine.json", "{\"latency\": 2}"}})) << "another copy";
  EXPECT_NE(here, fingerprint_of(settings)) << "the file missing on one node";
  for (const char* variable : {"TOPOCOLL_TOPOLOGY=t", "TOPOCOLL_NETWORK=t"}) {
    EXPECT_NE(fingerprint_of({variable}, {{"t", "a"}}), fingerprint_of({variable}, {{"t", "b"}})) << variable;
  }
  // Another variable's value is no file name.
  EXPECT_EQ(fingerprint_of({"TOPOCOLL_ALLTOALL=t"}, {{"t", "a"}}), fingerprint_of({"TOPOCOLL_ALLTOALL=t"}));
}

TEST(ConfigurationFingerprint, TheMessageNamesTheRanksThatDiffer) {
  EXPECT_EQ(disagreement_message({7, 7, 7}), "");
  EXPECT_EQ(disagreement_message({7}), "");
  const std::string one = disagreement_message({7, 7, 8, 7});
  EXPECT_TRUE(contains(one, "(rank 0's against rank 2 of MPI_COMM_WORLD)")) << one;
  EXPECT_TRUE(contains(one, "every collective goes to the MPI library")) << one;
  const std::string many = disagreement_message({7, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 7});
  EXPECT_TRUE(contains(many, "ranks 1, 2, 3, 4, 5, 6, 7, 8 and 2 more")) << many;
}

}  // namespace
}  // namespace topocoll::interpose
