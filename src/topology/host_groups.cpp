#include "topology/host_groups.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

namespace topocoll {

namespace {

// `text` as a JSON string: quoted, with quotes, backslashes and control characters escaped.
// Bytes that are not UTF-8 are replaced rather than refused (a node description may hold any).
std::string quoted(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out = "[";
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + quoted(names[i]);
  return out + "]";
}

}  // namespace

std::string host_topology_json(const HostGroups& groups) {
  std::ostringstream json;
  json << "{\n  \"levels\": " << quoted_list(groups.levels) << ",\n  \"hosts\": {\n";
  std::size_t written = 0;
  for (const auto& [host, path] : groups.hosts) {
    json << "    " << quoted(host) << ": " << quoted_list(path) << (++written < groups.hosts.size() ? "," : "")
         << '\n';
  }
  json << "  }\n}\n";
  return json.str();
}

std::vector<std::string> switch_level_names(std::size_t count) {
  static const char* const kInnermost[] = {"leaf", "spine", "core"};
  std::vector<std::string> names;
  for (std::size_t from_inside = count; from_inside-- > 0;) {
    names.push_back(from_inside < 3 ? kInnermost[from_inside] : "tier-" + std::to_string(from_inside + 1));
  }
  return names;
}

void pad_switch_path(std::vector<std::string>& path, std::size_t length, PadAt pad) {
  if (path.empty() || path.size() >= length) return;
  const std::size_t missing = length - path.size();
  const std::string repeated = pad == PadAt::outer ? path.front() : path.back();  // a copy: insert may move it
  path.insert(pad == PadAt::outer ? path.begin() : path.end(), missing, repeated);
}

HostGroups host_groups_under_switches(const std::map<std::string, std::string>& leaf_of_host,
                                      std::map<std::string, std::vector<std::string>> path_of_leaf, PadAt pad) {
  std::size_t depth = 0;
  for (const auto& [leaf, path] : path_of_leaf) depth = std::max(depth, path.size());
  for (auto& [leaf, path] : path_of_leaf) pad_switch_path(path, depth, pad);
  HostGroups groups{switch_level_names(depth), {}};
  for (const auto& [host, leaf] : leaf_of_host) groups.hosts.emplace(host, path_of_leaf.at(leaf));
  return groups;
}

}  // namespace topocoll
