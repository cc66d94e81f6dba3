#include "topology/slurm_address.hpp"

#include <algorithm>

#include "topology/host_groups.hpp"
#include "topology/topology_file.hpp"

namespace topocoll {

namespace {

std::vector<std::string> dotted_parts(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto dot = text.find('.', start);
    parts.push_back(text.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

}  // namespace

std::optional<std::vector<std::string>> slurm_address_parts(const SlurmAddress& slurm, std::string* error) {
  const std::vector<std::string> parts = dotted_parts(slurm.address);
  const std::vector<std::string> kinds = dotted_parts(slurm.pattern);
  std::string why;
  if (parts.size() != kinds.size()) {
    why = "they have " + std::to_string(parts.size()) + " and " + std::to_string(kinds.size()) + " parts";
  } else if (std::find(parts.begin(), parts.end(), "") != parts.end()) {
    why = "the address has an empty part";
  } else if (kinds.back() != "node" ||
             std::any_of(kinds.begin(), kinds.end() - 1, [](const std::string& k) { return k != "switch"; })) {
    why = "the pattern must be switch parts, then one node part";
  }
  if (why.empty()) return parts;
  if (error) {
    *error = "SLURM_TOPOLOGY_ADDR '" + slurm.address + "' and SLURM_TOPOLOGY_ADDR_PATTERN '" + slurm.pattern +
             "' do not fit: " + why;
  }
  return std::nullopt;
}

std::optional<Topology> topology_from_slurm_addresses(const std::vector<SlurmAddress>& ranks, std::string* error) {
  std::vector<std::vector<std::string>> paths;  // the switches, then the node
  std::size_t depth = 0;                        // switches on the longest path
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    std::string why;
    auto parts = slurm_address_parts(ranks[r], &why);
    if (!parts) {
      if (error) *error = "rank " + std::to_string(r) + ": " + why;
      return std::nullopt;
    }
    depth = std::max(depth, parts->size() - 1);
    paths.push_back(std::move(*parts));
  }
  for (auto& path : paths) {
    const std::string node = path.back();
    path.pop_back();
    if (depth > 0 && path.empty()) path.push_back(node);  // under no switch: a group of its own
    pad_switch_path(path, depth, PadAt::inner);
    path.push_back(node);
  }
  std::vector<std::string> levels = switch_level_names(depth);
  levels.push_back("node");
  return topology_for_group_names(std::move(levels), paths);
}

}  // namespace topocoll
