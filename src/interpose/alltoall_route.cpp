// The routing rules of the interposed MPI_Alltoall, in the order they are asked.
#include "interpose/alltoall_route.hpp"

#include "schedule/block_map.hpp"
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

  AlltoallRoute route;
  route.by_topocoll = true;
  route.algorithm = choice.algorithm;
  // auto chooses on the communicator's topology and the calibration, inside the executor.
  if (choice.algorithm == "auto") {
    route.applicability_from_executor = true;
    return route;
  }
  const Algorithm* algorithm = find_algorithm(Operation::alltoall, choice.algorithm);
  if (algorithm == nullptr) return to_mpi_library("unknown algorithm '" + choice.algorithm + "'");
  if (algorithm->needs_topology) {
    route.applicability_from_executor = true;
    return route;
  }
  if (algorithm->supports != nullptr) {
    // For alltoallv only whether blocks may differ in size matters here.
    const KnownBlocks one_block(std::vector<std::vector<std::size_t>>{{1}});
    const Problem problem{call.size, call.block_bytes, nullptr, AlgorithmKnobs{},
                                  call.variable ? &one_block : nullptr};
    const Applicability applicability = algorithm->supports(problem);
    if (!applicability.ok) return to_mpi_library(choice.algorithm + " does not apply: " + applicability.reason);
  }
  return route;
}

}  // namespace topocoll::interpose
