// Parsing the TOPOCOLL_* variables: algorithm names are checked against the operation's
// registry, and the first bad value becomes the error every call reports.
#include "interpose/interpose_config.hpp"

#include <cctype>
#include <cstdlib>
#include <string_view>

#include "algorithms/group_level.hpp"
#include "algorithms/registry.hpp"
#include "schedule/block_map.hpp"

namespace topocoll::interpose {

namespace {

// "alltoallw" for MPI_Alltoallw's variable and messages, else the operation's name.
std::string_view interposed_name(Operation operation, bool per_peer_types) {
  return per_peer_types ? std::string_view("alltoallw") : to_string(operation);
}

std::string value_of(const EnvironmentLookup& lookup, const std::string& name) {
  const char* value = lookup(name.c_str());
  return value == nullptr ? std::string() : std::string(value);
}

// The names a variable accepts: the operation's registry (for alltoallv, those that take
// blocks of different sizes), and auto.
std::string valid_names(Operation operation) {
  const KnownBlocks one_block(std::vector<std::vector<std::size_t>>{{1}});
  std::string names;
  for (const Algorithm& a : algorithms_for(operation)) {
    if (operation == Operation::alltoallv && a.has_schedule() && !a.needs_topology &&
        !a.supports({1, 0, nullptr, {}, &one_block, operation}).ok) {
      continue;
    }
    names += std::string(names.empty() ? "" : ", ") + std::string(a.name);
  }
  return names + ", auto";
}

std::string parse_choice(Operation operation, bool per_peer_types, const std::string& value,
                         const std::string& calibration, OperationChoice& choice) {
  choice.defaulted = value.empty();
  choice.requested = !value.empty() ? value : is_rooted(operation) ? "native" : "auto";
  if (choice.requested == "auto") {
    choice.algorithm = calibration.empty() ? kAutoStandIn : "auto";
    return {};
  }
  const std::string names = valid_names(operation);
  const std::string padded = ", " + names + ",";
  if (padded.find(", " + choice.requested + ",") == std::string::npos) {
    return variable_of(operation, per_peer_types) + "='" + value + "' is not " + (is_rooted(operation) ? "a " : "an ") +
           std::string(interposed_name(operation, per_peer_types)) + " algorithm; valid names: " + names;
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

// A topology level: 0 (the outermost) .. kMaxGroupLevel; empty: unset (-1).
std::string parse_group_level(const std::string& value, int& level) {
  level = -1;
  if (value.empty()) return {};
  const bool digits = value.size() <= 2 && value.find_first_not_of("0123456789") == std::string::npos;
  if (digits && std::stoi(value) <= kMaxGroupLevel) {
    level = std::stoi(value);
    return {};
  }
  return "TOPOCOLL_GROUP_LEVEL='" + value + "' is not a topology level; use 0 (the outermost) to " +
         std::to_string(kMaxGroupLevel) +
         ", the node level being the innermost, or leave it unset (lg and overlap then take the outermost, auto "
         "chooses)";
}

}  // namespace

std::string variable_of(Operation operation, bool per_peer_types) {
  std::string name = "TOPOCOLL_" + std::string(interposed_name(operation, per_peer_types));
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

InterposeConfig parse_interpose_config(const EnvironmentLookup& lookup) {
  InterposeConfig config;
  config.topology = value_of(lookup, "TOPOCOLL_TOPOLOGY");
  config.network = value_of(lookup, "TOPOCOLL_NETWORK");
  config.calibration = value_of(lookup, "TOPOCOLL_CALIBRATION");
  for (Operation operation : kOperations) {
    const std::string error = parse_choice(operation, false, value_of(lookup, variable_of(operation)),
                                           config.calibration, config.choice(operation));
    if (config.error.empty()) config.error = error;
  }
  const std::string alltoallw_error =
      parse_choice(Operation::alltoallv, true, value_of(lookup, variable_of(Operation::alltoallv, true)),
                   config.calibration, config.alltoallw);
  if (config.error.empty()) config.error = alltoallw_error;
  const std::string verbose_error = parse_verbose(value_of(lookup, "TOPOCOLL_VERBOSE"), config.verbose);
  if (config.error.empty()) config.error = verbose_error;
  const std::string level_error = parse_group_level(value_of(lookup, "TOPOCOLL_GROUP_LEVEL"), config.group_level);
  if (config.error.empty()) config.error = level_error;
  return config;
}

const InterposeConfig& interpose_config() {
  static const InterposeConfig config = parse_interpose_config([](const char* name) { return std::getenv(name); });
  return config;
}

}  // namespace topocoll::interpose
