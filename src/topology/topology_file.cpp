#include "topology/topology_file.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>

#include "topology/host_pattern.hpp"

namespace topocoll {

namespace {

using nlohmann::json;

constexpr std::string_view kPatternPrefix = "pattern:";

// Reads one path of group names; `where` names the entry for error messages.
std::optional<std::vector<std::string>> read_path(const json& entry, std::size_t levels, const std::string& where,
                                                  std::string* error) {
  if (!entry.is_array()) {
    *error = where + " must be an array of group names, one per level";
    return std::nullopt;
  }
  if (entry.size() != levels) {
    *error = where + " has " + std::to_string(entry.size()) + " group names, expected " + std::to_string(levels) +
             " (one per level)";
    return std::nullopt;
  }
  std::vector<std::string> path;
  for (std::size_t l = 0; l < entry.size(); ++l) {
    if (!entry[l].is_string() || entry[l].get<std::string>().empty()) {
      *error = where + "[" + std::to_string(l) + "] must be a non-empty string";
      return std::nullopt;
    }
    path.push_back(entry[l].get<std::string>());
  }
  return path;
}

// A topology file read once per process (every communicator's discovery reads the one
// TOPOCOLL_TOPOLOGY names): kept by path, and read again when its size or modification time
// changes. Null with `error` set when it cannot be read or parsed.
std::shared_ptr<const TopologyFileContent> read_topology_file(const std::string& path, std::string* error) {
  struct Kept {
    std::uintmax_t size = 0;
    std::filesystem::file_time_type modified;
    std::shared_ptr<const TopologyFileContent> content;
  };
  static std::mutex guard;
  static std::map<std::string, Kept> kept;
  std::error_code failed;
  const std::uintmax_t size = std::filesystem::file_size(path, failed);
  const std::filesystem::file_time_type modified =
      failed ? std::filesystem::file_time_type{} : std::filesystem::last_write_time(path, failed);
  if (!failed) {
    const std::lock_guard<std::mutex> lock(guard);
    const auto it = kept.find(path);
    if (it != kept.end() && it->second.size == size && it->second.modified == modified) return it->second.content;
  }
  std::ifstream file{path};
  if (failed || !file) {
    *error = "topology '" + path + "' is neither clusters:N1,N2,..., flat:N, pattern:REGEX nor a readable file";
    return nullptr;
  }
  std::ostringstream text;
  text << file.rdbuf();
  auto content = parse_topology_file(text.str(), error);
  if (!content) {
    *error = "topology file '" + path + "': " + *error;
    return nullptr;
  }
  auto shared = std::make_shared<const TopologyFileContent>(std::move(*content));
  const std::lock_guard<std::mutex> lock(guard);
  kept[path] = Kept{size, modified, shared};
  return shared;
}

}  // namespace

Topology topology_for_group_names(std::vector<std::string> levels, const std::vector<std::vector<std::string>>& paths) {
  // A group is its parent's id and its own name, so the work is linear in the number of levels.
  std::vector<std::map<std::pair<int, std::string>, int>> ids(levels.size());
  std::vector<std::vector<int>> groups;
  for (const auto& path : paths) {
    std::vector<int> row;
    int parent = -1;
    for (std::size_t l = 0; l < levels.size(); ++l) {
      auto [it, fresh] = ids[l].try_emplace({parent, path[l]}, static_cast<int>(ids[l].size()));
      parent = it->second;
      row.push_back(parent);
    }
    groups.push_back(std::move(row));
  }
  return Topology(std::move(levels), std::move(groups));
}

std::optional<Topology> topology_for_hosts(const HostGroups& groups, const RankPlacement& placement,
                                           std::string* error) {
  std::vector<std::vector<std::string>> paths;
  for (std::size_t r = 0; r < placement.host.size(); ++r) {
    auto it = groups.hosts.find(placement.host[r]);
    if (it == groups.hosts.end()) {
      if (error) {
        *error = "rank " + std::to_string(r) + " runs on host \"" + placement.host[r] +
                 "\", which \"hosts\" does not list";
      }
      return std::nullopt;
    }
    paths.push_back(it->second);
  }
  return topology_for_group_names(groups.levels, paths);
}

RankPlacement RankPlacement::whole_world(std::vector<std::string> hosts) {
  RankPlacement placement;
  placement.world_size = static_cast<int>(hosts.size());
  for (int r = 0; r < placement.world_size; ++r) placement.world_rank.push_back(r);
  placement.host = std::move(hosts);
  return placement;
}

std::optional<TopologyFileContent> parse_topology_file(std::string_view text, std::string* error) {
  std::string scratch_error;
  if (!error) error = &scratch_error;
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for numbers such as 1e999
    *error = std::string("not valid JSON: ") + e.what();
    return std::nullopt;
  }
  if (!doc.is_object()) {
    *error = "the topology must be a JSON object with \"levels\" and \"ranks\" or \"hosts\"";
    return std::nullopt;
  }
  if (!doc.contains("levels") || !doc["levels"].is_array() || doc["levels"].empty()) {
    *error = "\"levels\" must be a non-empty array of level names, outermost first";
    return std::nullopt;
  }
  TopologyFileContent content;
  for (std::size_t l = 0; l < doc["levels"].size(); ++l) {
    const json& name = doc["levels"][l];
    if (!name.is_string() || name.get<std::string>().empty()) {
      *error = "levels[" + std::to_string(l) + "] must be a non-empty string";
      return std::nullopt;
    }
    content.groups.levels.push_back(name.get<std::string>());
  }
  const bool by_rank = doc.contains("ranks"), by_host = doc.contains("hosts");
  if (by_rank == by_host) {
    *error = "give exactly one of \"ranks\" (by rank) and \"hosts\" (by host name)";
    return std::nullopt;
  }
  for (const auto& [key, value] : doc.items()) {
    if (key != "levels" && key != "ranks" && key != "hosts") {
      *error = "unknown field \"" + key + "\" (expected levels, ranks or hosts)";
      return std::nullopt;
    }
  }
  const std::size_t levels = content.groups.levels.size();
  if (by_host) {
    const json& table = doc["hosts"];
    if (!table.is_object()) {
      *error = "\"hosts\" must be an object mapping host names to group names";
      return std::nullopt;
    }
    for (const auto& [name, entry] : table.items()) {
      auto path = read_path(entry, levels, "hosts[\"" + name + "\"]", error);
      if (!path) return std::nullopt;
      content.groups.hosts[name] = std::move(*path);
    }
    return content;
  }
  const json& ranks = doc["ranks"];
  if (!ranks.is_array()) {
    *error = "\"ranks\" must be an array with one entry per rank";
    return std::nullopt;
  }
  content.by_rank = true;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    auto path = read_path(ranks[r], levels, "ranks[" + std::to_string(r) + "]", error);
    if (!path) return std::nullopt;
    content.world.push_back(std::move(*path));
  }
  return content;
}

std::optional<Topology> topology_of_file(const TopologyFileContent& content, const RankPlacement& placement,
                                         std::string* error) {
  std::string scratch_error;
  if (!error) error = &scratch_error;
  if (!content.by_rank) return topology_for_hosts(content.groups, placement, error);
  if (content.world.size() != static_cast<std::size_t>(placement.world_size)) {
    *error = "\"ranks\" describes " + std::to_string(content.world.size()) + " ranks, but the world has " +
             std::to_string(placement.world_size) + " (every rank must be described exactly once)";
    return std::nullopt;
  }
  std::vector<std::vector<std::string>> paths;
  for (int w : placement.world_rank) paths.push_back(content.world.at(static_cast<std::size_t>(w)));
  return topology_for_group_names(content.groups.levels, paths);
}

std::optional<Topology> parse_topology_json(std::string_view text, const RankPlacement& placement, std::string* error) {
  const auto content = parse_topology_file(text, error);
  if (!content) return std::nullopt;
  return topology_of_file(*content, placement, error);
}

std::optional<Topology> load_topology_for(std::string_view spec, const RankPlacement& placement,
                                          std::string* error) {
  std::string scratch_error;
  if (!error) error = &scratch_error;
  if (spec.rfind("clusters:", 0) == 0 || spec.rfind("flat:", 0) == 0) {
    const auto described = Topology::shorthand_size(spec, error);
    if (!described) return std::nullopt;
    if (*described != placement.world_size) {  // checked before the rank table is built
      *error = "topology '" + std::string(spec) + "' describes " + std::to_string(*described) +
               " ranks, but the world has " + std::to_string(placement.world_size);
      return std::nullopt;
    }
    auto world = Topology::parse(spec, error);
    if (!world) return std::nullopt;
    return world->restricted_to(placement.world_rank);
  }
  if (spec.rfind(kPatternPrefix, 0) == 0) {
    const auto groups = match_host_pattern(spec.substr(kPatternPrefix.size()), placement.host, error);
    if (!groups) return std::nullopt;
    return topology_for_hosts(*groups, placement, error);
  }
  const std::shared_ptr<const TopologyFileContent> content = read_topology_file(std::string(spec), error);
  if (!content) return std::nullopt;
  auto topo = topology_of_file(*content, placement, error);
  if (!topo) *error = "topology file '" + std::string(spec) + "': " + *error;
  return topo;
}

}  // namespace topocoll
