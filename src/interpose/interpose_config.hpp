// What the preloadable library is asked to do, from the environment: one variable per
// interposed operation (TOPOCOLL_ALLTOALL, TOPOCOLL_ALLTOALLV, TOPOCOLL_ALLTOALLW,
// TOPOCOLL_SCATTER, TOPOCOLL_GATHER, TOPOCOLL_SCATTERV, TOPOCOLL_GATHERV), and TOPOCOLL_TOPOLOGY,
// TOPOCOLL_NETWORK, TOPOCOLL_CALIBRATION and TOPOCOLL_VERBOSE. Parsed by a pure function (the environment is a
// lookup passed in, so tests need not touch the process's), and read from the process
// environment exactly once, at the first interposed call.
#pragma once

#include <functional>
#include <string>

#include "schedule/operation.hpp"

namespace topocoll::interpose {

// `auto` needs the machine's calibration (TOPOCOLL_CALIBRATION, made by topocoll-calibrate).
// Without one it stands for the MPI library's own call, and verbose says so: preloading the
// library must not make a program slower than its MPI library, and without a calibration
// nothing says that any of topocoll's algorithms is faster on this machine (the former
// stand-in, pairwise, was 2.5 times slower than Open MPI's alltoall at blocks up to 32 bytes on
// a 16-core node). The same for every operation.
inline constexpr const char* kAutoStandIn = "native";

// What one operation's variable asks for. Unset or empty: `auto` for alltoall, alltoallv and
// alltoallw (MPI_Alltoallw, whose schedule is an alltoallv's: it takes alltoallv's names);
// `native` for scatter, gather and their v forms (a program that preloads the library for its
// all-to-all keeps its MPI library's scatter and gather unless it asks).
struct OperationChoice {
  std::string requested;  // the variable's value, or the operation's default when unset
  std::string algorithm;  // the registry name that runs, or "native"
  bool defaulted = false;  // the variable was unset or empty
  bool native() const { return algorithm == "native"; }
};

struct InterposeConfig {
  OperationChoice alltoall, alltoallv, alltoallw, scatter, gather, scatterv, gatherv;
  std::string calibration;  // TOPOCOLL_CALIBRATION (for auto)
  std::string topology;     // TOPOCOLL_TOPOLOGY (empty: the library's default)
  std::string network;      // TOPOCOLL_NETWORK (a SimGrid platform; empty: none)
  bool verbose = false;     // TOPOCOLL_VERBOSE=1
  // TOPOCOLL_GROUP_LEVEL: the topology level lg and overlap take their groups from
  // (CollectiveOptions::group_level); -1 when unset.
  int group_level = -1;
  // Non-empty when a variable has a value the library cannot use: the message names the
  // variable and the valid values, and every interposed call fails with it.
  std::string error;
  bool valid() const { return error.empty(); }
  // `per_peer_types`: MPI_Alltoallw's (Operation::alltoallv with a datatype per block).
  const OperationChoice& choice(Operation operation, bool per_peer_types = false) const {
    return pick(*this, operation, per_peer_types);
  }
  OperationChoice& choice(Operation operation, bool per_peer_types = false) {
    return pick(*this, operation, per_peer_types);
  }

 private:
  template <typename Config>
  static auto pick(Config& config, Operation operation, bool per_peer_types) -> decltype((config.alltoall)) {
    if (per_peer_types) return config.alltoallw;
    switch (operation) {
      case Operation::alltoallv: return config.alltoallv;
      case Operation::scatter: return config.scatter;
      case Operation::gather: return config.gather;
      case Operation::scatterv: return config.scatterv;
      case Operation::gatherv: return config.gatherv;
      case Operation::alltoall: break;
    }
    return config.alltoall;
  }
};

// "TOPOCOLL_SCATTERV" for Operation::scatterv; "TOPOCOLL_ALLTOALLW" with `per_peer_types`.
std::string variable_of(Operation operation, bool per_peer_types = false);

// Returns the value of an environment variable, or null when unset (getenv's contract).
using EnvironmentLookup = std::function<const char*(const char* name)>;

InterposeConfig parse_interpose_config(const EnvironmentLookup& lookup);

// The process's configuration, parsed on the first call (thread-safe) and never changed.
const InterposeConfig& interpose_config();

}  // namespace topocoll::interpose
