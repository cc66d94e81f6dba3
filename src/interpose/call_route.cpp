// The routing rules of an interposed call, in the order they are asked.
#include "interpose/call_route.hpp"

#include "algorithms/registry.hpp"

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
  // (auto chooses on the communicator's topology and the calibration, inside the executor.)
  if (choice.algorithm != "auto" && find_algorithm(call.operation, choice.algorithm) == nullptr) {
    return to_mpi_library("unknown algorithm '" + choice.algorithm + "'");
  }
  CallRoute route;
  route.by_topocoll = true;
  route.algorithm = choice.algorithm;
  return route;
}

}  // namespace topocoll::interpose
