// What the preloadable library is asked to do, from the environment: TOPOCOLL_ALLTOALL,
// TOPOCOLL_ALLTOALLV, TOPOCOLL_TOPOLOGY, TOPOCOLL_CALIBRATION and TOPOCOLL_VERBOSE. Parsed by a pure function (the
// environment is a lookup passed in, so tests need not touch the process's), and read from
// the process environment exactly once, at the first interposed call.
#pragma once

#include <functional>
#include <string>

namespace topocoll::interpose {

// `auto` needs the machine's calibration (TOPOCOLL_CALIBRATION, made by topocoll-calibrate).
// Without one it stands for the C API's default, `pairwise` (applies to every p and block
// size, one partner per round, so bounded requests in flight), and verbose says so.
inline constexpr const char* kAutoStandIn = "pairwise";

struct AlltoallChoice {
  std::string requested = "auto";  // the variable's value ("auto" when unset or empty)
  std::string algorithm;           // the registry name that runs, or "native"
  bool native() const { return algorithm == "native"; }
};

struct InterposeConfig {
  AlltoallChoice alltoall;   // TOPOCOLL_ALLTOALL
  AlltoallChoice alltoallv;  // TOPOCOLL_ALLTOALLV
  std::string calibration;   // TOPOCOLL_CALIBRATION (for auto)
  std::string topology;  // TOPOCOLL_TOPOLOGY (empty: the library's default)
  bool verbose = false;  // TOPOCOLL_VERBOSE=1
  // Non-empty when a variable has a value the library cannot use: the message names the
  // variable and the valid values, and every interposed call fails with it.
  std::string error;
  bool valid() const { return error.empty(); }
};

// Returns the value of an environment variable, or null when unset (getenv's contract).
using EnvironmentLookup = std::function<const char*(const char* name)>;

InterposeConfig parse_interpose_config(const EnvironmentLookup& lookup);

// The process's configuration, parsed on the first call (thread-safe) and never changed.
const InterposeConfig& interpose_config();

}  // namespace topocoll::interpose
