// Parsing the TOPOCOLL_* variables: algorithm names are checked against the registry, and
// the first bad value becomes the error every call reports.
#include "interpose/interpose_config.hpp"

#include <cstdlib>
#include <string_view>

#include "schedule/block_map.hpp"
#include "algorithms/registry.hpp"

namespace topocoll::interpose {

namespace {

std::string value_of(const EnvironmentLookup& lookup, const char* name) {
  const char* value = lookup(name);
  return value == nullptr ? std::string() : std::string(value);
}

// The names a variable accepts: the registry's (for alltoallv, those that take blocks of
// different sizes), and auto.
std::string valid_names(bool variable) {
  const KnownBlocks one_block(std::vector<std::vector<std::size_t>>{{1}});
  std::string names;
  const Operation operation = variable ? Operation::alltoallv : Operation::alltoall;
  for (const Algorithm& a : algorithms_for(operation)) {
    if (variable && a.has_schedule() && !a.needs_topology &&
        !a.supports({1, 0, nullptr, {}, &one_block, operation}).ok) {
      continue;
    }
    names += std::string(names.empty() ? "" : ", ") + std::string(a.name);
  }
  return names + ", auto";
}

// `variable_name` is TOPOCOLL_ALLTOALL or TOPOCOLL_ALLTOALLV.
std::string parse_choice(const char* variable_name, const std::string& value, bool variable,
                         const std::string& calibration, AlltoallChoice& choice) {
  choice.requested = value.empty() ? "auto" : value;
  if (choice.requested == "auto") {
    choice.algorithm = calibration.empty() ? kAutoStandIn : "auto";
    return {};
  }
  const std::string names = valid_names(variable);
  const std::string padded = ", " + names + ",";
  if (padded.find(", " + choice.requested + ",") == std::string::npos) {
    return std::string(variable_name) + "='" + value + "' is not an " + (variable ? "alltoallv" : "alltoall") +
           " algorithm; valid names: " + names;
  }
  choice.algorithm = choice.requested;
  return {};
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
  config.calibration = value_of(lookup, "TOPOCOLL_CALIBRATION");
  for (const std::string& error : {parse_choice("TOPOCOLL_ALLTOALL", value_of(lookup, "TOPOCOLL_ALLTOALL"), false,
                                                config.calibration, config.alltoall),
                                   parse_choice("TOPOCOLL_ALLTOALLV", value_of(lookup, "TOPOCOLL_ALLTOALLV"), true,
                                                config.calibration, config.alltoallv),
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
