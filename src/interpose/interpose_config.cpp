// Parsing the TOPOCOLL_* variables: algorithm names are checked against the registry, and
// the first bad value becomes the error every call reports.
#include "interpose/interpose_config.hpp"

#include <cstdlib>
#include <string_view>

#include "algorithms/registry.hpp"

namespace topocoll::interpose {

namespace {

std::string value_of(const EnvironmentLookup& lookup, const char* name) {
  const char* value = lookup(name);
  return value == nullptr ? std::string() : std::string(value);
}

// "direct, shift, ..., native" plus `auto` when the registry does not list it itself.
std::string valid_alltoall_names() {
  std::string names = alltoall_algorithm_names();
  if (find_alltoall_algorithm("auto") == nullptr) names += ", auto";
  return names;
}

std::string parse_alltoall(const std::string& value, AlltoallChoice& choice) {
  choice.requested = value.empty() ? "auto" : value;
  if (choice.requested == "auto" && find_alltoall_algorithm("auto") == nullptr) {
    choice.algorithm = kAutoStandIn;
    return {};
  }
  if (find_alltoall_algorithm(choice.requested) == nullptr) {
    return "TOPOCOLL_ALLTOALL='" + value + "' is not an alltoall algorithm; valid names: " + valid_alltoall_names();
  }
  choice.algorithm = choice.requested;
  return {};
}

// topocoll has no MPI_Alltoallv algorithm yet: the MPI library's own always answers.
std::string check_alltoallv(const std::string& value) {
  if (value.empty() || value == "auto" || value == "native") return {};
  return "TOPOCOLL_ALLTOALLV='" + value +
         "' is not an alltoallv algorithm; valid names: auto, native (topocoll has no alltoallv algorithm yet)";
}

std::string parse_verbose(const std::string& value, bool& verbose) {
  if (value.empty() || value == "0") {
    verbose = false;
    return {};
  }
  if (value == "1") {
    verbose = true;
    return {};
  }
  return "TOPOCOLL_VERBOSE='" + value + "' is not valid; use 1 (say which algorithm runs) or 0";
}

}  // namespace

InterposeConfig parse_interpose_config(const EnvironmentLookup& lookup) {
  InterposeConfig config;
  config.topology = value_of(lookup, "TOPOCOLL_TOPOLOGY");
  for (const std::string& error : {parse_alltoall(value_of(lookup, "TOPOCOLL_ALLTOALL"), config.alltoall),
                                   check_alltoallv(value_of(lookup, "TOPOCOLL_ALLTOALLV")),
                                   parse_verbose(value_of(lookup, "TOPOCOLL_VERBOSE"), config.verbose)}) {
    if (config.error.empty()) config.error = error;
  }
  return config;
}

const InterposeConfig& interpose_config() {
  static const InterposeConfig config = parse_interpose_config([](const char* name) { return std::getenv(name); });
  return config;
}

}  // namespace topocoll::interpose
