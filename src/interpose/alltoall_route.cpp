// The routing rules of the interposed MPI_Alltoall, in the order they are asked.
#include "interpose/alltoall_route.hpp"

#include "algorithms/registry.hpp"

namespace topocoll::interpose {

namespace {

AlltoallRoute to_mpi_library(std::string reason) {
  AlltoallRoute route;
  route.algorithm = "native";
  route.fallback_reason = std::move(reason);
  return route;
}

}  // namespace

AlltoallRoute route_alltoall(const AlltoallChoice& choice, const AlltoallCall& call) {
  if (choice.native()) return to_mpi_library("");
  if (call.intercommunicator) return to_mpi_library("intercommunicators are not supported");

  const AlltoallAlgorithm* algorithm = find_alltoall_algorithm(choice.algorithm);
  if (algorithm == nullptr) return to_mpi_library("unknown algorithm '" + choice.algorithm + "'");

  AlltoallRoute route;
  route.by_topocoll = true;
  route.algorithm = choice.algorithm;
  if (algorithm->needs_topology) {
    route.applicability_from_executor = true;
    return route;
  }
  if (algorithm->supports != nullptr) {
    const AlltoallProblem problem{call.size, call.block_bytes, nullptr, AlgorithmKnobs{}};
    const Applicability applicability = algorithm->supports(problem);
    if (!applicability.ok) return to_mpi_library(choice.algorithm + " does not apply: " + applicability.reason);
  }
  return route;
}

}  // namespace topocoll::interpose
