// The machine's hierarchy as data: levels (outermost first, e.g. "cluster", "node") and, for
// each rank, the group it belongs to at each level. Built from a spec string in tools and
// tests, from MPI (later) in production. No MPI type appears here.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topocoll {

class Topology {
 public:
  Topology() = default;
  // `groups[r][l]` is rank r's group id at level l (ids are dense from 0 per level).
  Topology(std::vector<std::string> levels, std::vector<std::vector<int>> groups);

  // One group holding all `size` ranks (a flat machine).
  static Topology flat(int size);
  // Parses a shorthand spec: `clusters:N1,N2,...` (consecutive ranks per cluster) or
  // `flat:N`. Returns nullopt and fills `error` with the reason when the spec is malformed.
  static std::optional<Topology> parse(std::string_view spec, std::string* error);
  // The number of ranks a shorthand describes, without building its table (so that a size
  // can be checked against the communicator before a huge table is built). Same errors as parse.
  static std::optional<long long> shorthand_size(std::string_view spec, std::string* error);

  int size() const { return static_cast<int>(groups_.size()); }
  int level_count() const { return static_cast<int>(levels_.size()); }
  const std::vector<std::string>& levels() const { return levels_; }
  int group(int rank, int level) const { return groups_.at(rank).at(level); }
  int group_count(int level) const;

  // The outermost level at which ranks a and b are in different groups, or -1 when they
  // share a group at every level.
  int separating_level(int a, int b) const;

  // The topology of a subset of ranks: new rank i is old rank ranks[i]; group ids are
  // renumbered densely per level in order of first appearance.
  Topology restricted_to(const std::vector<int>& ranks) const;
  // This topology with one more, innermost level named `name`; `groups[r]` splits rank r's
  // innermost group (ranks with equal values inside one group stay together).
  Topology with_inner_level(const std::string& name, const std::vector<int>& groups) const;

  std::string describe() const;

 private:
  std::vector<std::string> levels_;
  std::vector<std::vector<int>> groups_;
};

}  // namespace topocoll
