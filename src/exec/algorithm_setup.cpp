#include "exec/algorithm_setup.hpp"

#include <cstdlib>
#include <string>
#include <string_view>

namespace topocoll::exec {

namespace {

std::string_view variable(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

}  // namespace

EnvironmentDefaults EnvironmentDefaults::read() {
  return {variable("TOPOCOLL_TOPOLOGY"), variable("TOPOCOLL_CALIBRATION"), variable("TOPOCOLL_NETWORK")};
}

void take_machine_files(const CollectiveOptions& options, const EnvironmentDefaults& defaults, CheckedCall& call) {
  const auto or_default = [](const std::string& given, std::string_view fallback) {
    return given.empty() ? std::string(fallback) : given;
  };
  call.topology_spec = or_default(options.topology, defaults.topology);
  call.calibration_path = or_default(options.calibration, defaults.calibration);
  call.network_path = or_default(options.network, defaults.network);
}

MaybeFailure attach_topology(CommState& state, CheckedCall& call) {
  if (!call.algorithm->needs_topology) return std::nullopt;
  const Topology* topology = nullptr;
  if (auto failure = state.topology(call.topology_spec, topology)) return failure;
  call.problem.topology = topology;
  if (call.algorithm->reads_routes) {
    if (auto failure = attach_network(state, call)) return failure;
  }
  const Applicability applicability = call.algorithm->supports(call.problem);
  if (applicability.ok && call.algorithm->reads_routes) {  // built once per communicator, not per call
    call.problem.routes = state.routes(call.topology_spec, call.network_path, call.problem);
  }
  if (!applicability.ok) {
    const std::string hint = call.topology_spec.empty()
                                 ? " (no topology given: set CollectiveOptions::topology or TOPOCOLL_TOPOLOGY)"
                                 : " (topology '" + call.topology_spec + "')";
    return Failure{MPI_ERR_ARG,
                   "algorithm '" + std::string(call.algorithm->name) + "' does not apply: " + applicability.reason + hint,
                   true};
  }
  return std::nullopt;
}

MaybeFailure attach_network(CommState& state, CheckedCall& call) {
  if (call.network_path.empty()) return std::nullopt;
  const NetworkPlacement* placement = nullptr;
  if (auto failure = state.network(call.network_path, placement)) return failure;
  call.problem.network = placement;
  return std::nullopt;
}

}  // namespace topocoll::exec
