// Who answers one interposed collective call: topocoll's executor with the configured
// algorithm, or the MPI library (its PMPI_ entry point) because `native` was asked for, because
// the communicator is an intercommunicator, or because the algorithm's supports() says no for
// this call. Pure: every input is a plain value, so every rank of a communicator decides the
// same way.
#pragma once

#include <cstddef>
#include <string>

#include "interpose/interpose_config.hpp"

namespace topocoll::interpose {

struct CallShape {
  Operation operation = Operation::alltoall;
  bool intercommunicator = false;
  int size = 1;                 // ranks in the communicator
  std::size_t block_bytes = 0;  // uniform operations: bytes of each block (0 for the v forms)
};

struct CallRoute {
  bool by_topocoll = false;  // false: the MPI library's own call
  std::string algorithm;     // what runs: a registry name, or "native"
  // When the MPI library answers although topocoll was asked: why (for TOPOCOLL_VERBOSE).
  std::string fallback_reason;
  // topocoll answers, but whether the algorithm applies depends on the machine's topology,
  // which only the executor resolves: ask it, and fall back when it says no.
  bool applicability_from_executor = false;
};

CallRoute route_call(const OperationChoice& choice, const CallShape& call);

}  // namespace topocoll::interpose
