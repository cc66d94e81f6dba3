#include "topology/topology.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <sstream>
#include <stdexcept>

namespace topocoll {

Topology::Topology(std::vector<std::string> levels, std::vector<std::vector<int>> groups)
    : levels_(std::move(levels)), groups_(std::move(groups)) {
  for (const auto& g : groups_) {
    if (g.size() != levels_.size()) throw std::invalid_argument("topology: group list size differs from level count");
  }
}

Topology Topology::flat(int size) {
  return Topology({"cluster"}, std::vector<std::vector<int>>(static_cast<std::size_t>(size), {0}));
}

namespace {
std::optional<int> parse_positive(std::string_view text) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 1) return std::nullopt;
  return value;
}
}  // namespace

namespace {

// The largest total a shorthand may describe: rank ids are ints.
constexpr long long kMaxShorthandRanks = 0x7fffffff;

struct Shorthand {
  std::string_view kind;  // "clusters" or "flat"
  std::vector<int> sizes;
  long long total = 0;  // ranks in all
};

std::optional<Shorthand> parse_shorthand(std::string_view spec, std::string* error) {
  auto fail = [&](std::string why) -> std::optional<Shorthand> {
    if (error) *error = "topology '" + std::string(spec) + "': " + why;
    return std::nullopt;
  };
  const auto colon = spec.find(':');
  if (colon == std::string_view::npos) return fail("expected clusters:N1,N2,... or flat:N");
  Shorthand shorthand;
  shorthand.kind = spec.substr(0, colon);
  if (shorthand.kind != "clusters" && shorthand.kind != "flat") {
    return fail("unknown kind '" + std::string(shorthand.kind) + "' (expected clusters or flat)");
  }
  std::string_view rest = spec.substr(colon + 1);
  while (true) {
    const auto comma = rest.find(',');
    const auto item = rest.substr(0, comma);
    const auto n = parse_positive(item);
    if (!n) return fail("'" + std::string(item) + "' is not a positive rank count");
    shorthand.sizes.push_back(*n);
    shorthand.total += *n;
    if (shorthand.total > kMaxShorthandRanks) {
      return fail("describes more than " + std::to_string(kMaxShorthandRanks) + " ranks");
    }
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  if (shorthand.kind == "flat" && shorthand.sizes.size() != 1) return fail("flat takes one rank count");
  return shorthand;
}

}  // namespace

std::optional<long long> Topology::shorthand_size(std::string_view spec, std::string* error) {
  const auto shorthand = parse_shorthand(spec, error);
  if (!shorthand) return std::nullopt;
  return shorthand->total;
}

std::optional<Topology> Topology::parse(std::string_view spec, std::string* error) {
  const auto shorthand = parse_shorthand(spec, error);
  if (!shorthand) return std::nullopt;
  if (shorthand->kind == "flat") return flat(shorthand->sizes[0]);
  std::vector<std::vector<int>> groups;
  for (std::size_t c = 0; c < shorthand->sizes.size(); ++c) {
    for (int i = 0; i < shorthand->sizes[c]; ++i) groups.push_back({static_cast<int>(c)});
  }
  return Topology({"cluster"}, std::move(groups));
}

int Topology::group_count(int level) const {
  int count = 0;
  for (const auto& g : groups_) count = std::max(count, g.at(level) + 1);
  return count;
}

int Topology::separating_level(int a, int b) const {
  for (int l = 0; l < level_count(); ++l) {
    if (group(a, l) != group(b, l)) return l;
  }
  return -1;
}

namespace {
// Renumbers each level's ids densely, in order of first appearance, keyed by the parent's new
// id and the old id (so that an inner id is unique within its parent); linear in the levels.
std::vector<std::vector<int>> densify(const std::vector<std::vector<int>>& rows, std::size_t levels) {
  std::vector<std::map<std::pair<int, int>, int>> ids(levels);
  std::vector<std::vector<int>> out;
  for (const auto& row : rows) {
    std::vector<int> dense;
    int parent = -1;
    for (std::size_t l = 0; l < levels; ++l) {
      parent = ids[l].try_emplace({parent, row[l]}, static_cast<int>(ids[l].size())).first->second;
      dense.push_back(parent);
    }
    out.push_back(std::move(dense));
  }
  return out;
}
}  // namespace

Topology Topology::restricted_to(const std::vector<int>& ranks) const {
  std::vector<std::vector<int>> rows;
  for (int r : ranks) rows.push_back(groups_.at(static_cast<std::size_t>(r)));
  return Topology(levels_, densify(rows, levels_.size()));
}

Topology Topology::with_inner_level(const std::string& name, const std::vector<int>& groups) const {
  if (static_cast<int>(groups.size()) != size()) throw std::invalid_argument("topology: inner level size differs");
  std::vector<std::string> levels = levels_;
  levels.push_back(name);
  std::vector<std::vector<int>> rows = groups_;
  for (std::size_t r = 0; r < rows.size(); ++r) rows[r].push_back(groups[r]);
  return Topology(levels, densify(rows, levels.size()));
}

std::string Topology::describe() const {
  std::ostringstream out;
  out << size() << " ranks; levels:";
  for (int l = 0; l < level_count(); ++l) out << ' ' << levels_[l] << '(' << group_count(l) << ')';
  return out.str();
}

}  // namespace topocoll
