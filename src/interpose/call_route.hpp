// Who answers one interposed collective call: topocoll's executor with the configured
// algorithm, or the MPI library (its PMPI_ entry point) because `native` was asked for or
// because the communicator is an intercommunicator. Whether the algorithm applies to the call
// (its block sizes, the topology) the executor decides, with the call's real layout, and hands
// the call to the MPI library itself where it does not (CollectiveOptions::inapplicable_reason).
// Pure: every input is a plain value, so every rank of a communicator decides the same way.
#pragma once

#include <string>

#include "interpose/interpose_config.hpp"

namespace topocoll::interpose {

struct CallShape {
  Operation operation = Operation::alltoall;
  bool intercommunicator = false;
};

struct CallRoute {
  bool by_topocoll = false;  // false: the MPI library's own call
  std::string algorithm;     // what runs: a registry name, or "native"
  // When the MPI library answers although topocoll was asked: why (for TOPOCOLL_VERBOSE).
  std::string fallback_reason;
};

CallRoute route_call(const OperationChoice& choice, const CallShape& call);

}  // namespace topocoll::interpose
