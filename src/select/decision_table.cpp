// The decision table's lookup, the shape it keys on, and its consistency (decision_table.hpp).
#include "select/decision_table.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace topocoll {

namespace {

bool same_key(const Decision& a, const Decision& b) {
  return a.operation == b.operation && a.ranks == b.ranks && a.shape == b.shape;
}

}  // namespace

bool Decision::covers(Operation op, int size, std::string_view call_shape, std::size_t block_bytes) const {
  return op == operation && size == ranks && call_shape == shape && from_bytes <= block_bytes &&
         block_bytes <= to_bytes;
}

std::string topology_shape(const Topology& topology) {
  if (topology.level_count() == 0) return "flat:" + std::to_string(topology.size());
  std::string shape;
  for (int level = 0; level < topology.level_count(); ++level) {
    std::map<int, int> members;  // group id -> ranks, by id (ids are dense, in order of first rank)
    for (int rank = 0; rank < topology.size(); ++rank) ++members[topology.group(rank, level)];
    const bool even = std::all_of(members.begin(), members.end(),
                                  [&](const auto& group) { return group.second == members.begin()->second; });
    if (!shape.empty()) shape += ' ';
    shape += topology.levels()[static_cast<std::size_t>(level)] + ':';
    if (even && !members.empty()) {
      shape += std::to_string(members.size()) + 'x' + std::to_string(members.begin()->second);
      continue;
    }
    bool first = true;
    for (const auto& group : members) {
      if (!first) shape += '+';
      shape += std::to_string(group.second);
      first = false;
    }
  }
  return shape;
}

const Decision* find_decision(std::span<const Decision> table, Operation operation, int ranks,
                              std::string_view shape, std::size_t block_bytes) {
  for (const Decision& decision : table) {
    if (decision.covers(operation, ranks, shape, block_bytes)) return &decision;
  }
  return nullptr;
}

std::string describe_decision(const Decision& d) {
  return "the tuning table (" + std::string(to_string(d.operation)) + ", " + std::to_string(d.ranks) + " ranks, " +
         d.shape + ", " + std::to_string(d.from_bytes) + "-" + std::to_string(d.to_bytes) + " bytes per block)";
}

std::optional<std::string> find_overlap(std::span<const Decision> table) {
  for (std::size_t i = 0; i < table.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      const Decision& a = table[j];
      const Decision& b = table[i];
      if (same_key(a, b) && a.from_bytes <= b.to_bytes && b.from_bytes <= a.to_bytes) {
        return "entries " + std::to_string(j) + " and " + std::to_string(i) + " (" + std::string(to_string(a.operation)) +
               ", " + std::to_string(a.ranks) + " ranks, '" + a.shape + "') cover overlapping sizes";
      }
    }
  }
  return std::nullopt;
}

std::vector<Decision> merge_decisions(std::span<const Decision> table, std::span<const Decision> fresh) {
  std::vector<Decision> merged;
  for (const Decision& old : table) {
    const bool replaced = std::any_of(fresh.begin(), fresh.end(), [&](const Decision& d) { return same_key(d, old); });
    if (!replaced) merged.push_back(old);
  }
  merged.insert(merged.end(), fresh.begin(), fresh.end());
  // Grouped by operation, ranks and shape, then by size: the file reads like a rules table.
  std::stable_sort(merged.begin(), merged.end(), [](const Decision& a, const Decision& b) {
    return std::tie(a.operation, a.ranks, a.shape, a.from_bytes) < std::tie(b.operation, b.ranks, b.shape, b.from_bytes);
  });
  return merged;
}

}  // namespace topocoll
