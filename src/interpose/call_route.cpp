// The routing rules of an interposed call, in the order they are asked.
#include "interpose/call_route.hpp"

#include <optional>
#include <vector>

#include "algorithms/registry.hpp"
#include "schedule/block_map.hpp"

namespace topocoll::interpose {

namespace {

CallRoute to_mpi_library(std::string reason) {
  CallRoute route;
  route.algorithm = "native";
  route.fallback_reason = std::move(reason);
  return route;
}

}  // namespace

CallRoute route_call(const OperationChoice& choice, const CallShape& call) {
  if (choice.native()) return to_mpi_library("");
  if (call.intercommunicator) return to_mpi_library("intercommunicators are not supported");

  CallRoute route;
  route.by_topocoll = true;
  route.algorithm = choice.algorithm;
  // auto chooses on the communicator's topology and the calibration, inside the executor.
  if (choice.algorithm == "auto") {
    route.applicability_from_executor = true;
    return route;
  }
  const Algorithm* algorithm = find_algorithm(call.operation, choice.algorithm);
  if (algorithm == nullptr) return to_mpi_library("unknown algorithm '" + choice.algorithm + "'");
  if (algorithm->needs_topology) {
    route.applicability_from_executor = true;
    return route;
  }
  // A stand-in for the call's layout: for the v forms only whether blocks may differ in size
  // matters here; for scatter and gather, the root's row of uniform blocks.
  const KnownBlocks one_block(std::vector<std::vector<std::size_t>>{{1}});
  std::optional<RootedBlocks> rooted;
  Problem problem{call.size, call.block_bytes, nullptr, AlgorithmKnobs{}};
  problem.operation = call.operation;
  if (is_rooted(call.operation)) {
    rooted.emplace(RootedBlocks::uniform(RootedBlocks::flow_of(call.operation), 0, call.size, call.block_bytes));
    problem = Problem::rooted(call.operation, *rooted);
  } else if (is_variable(call.operation)) {
    problem.blocks = &one_block;
  }
  const Applicability applicability = algorithm->supports(problem);
  if (!applicability.ok) return to_mpi_library(choice.algorithm + " does not apply: " + applicability.reason);
  return route;
}

}  // namespace topocoll::interpose
