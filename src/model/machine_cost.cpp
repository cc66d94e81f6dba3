// Checks of a MachineCost and its resolution against a problem's topology (machine_cost.hpp).
#include "model/machine_cost.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace topocoll {

namespace {

bool positive(double x) { return std::isfinite(x) && x > 0.0; }
bool non_negative(double x) { return std::isfinite(x) && x >= 0.0; }

}  // namespace

std::optional<std::string> check_machine(const MachineCost& machine) {
  if (machine.levels.empty()) return "the machine has no levels";
  for (std::size_t i = 0; i < machine.levels.size(); ++i) {
    const LevelCost& level = machine.levels[i];
    const std::string where = "level " + std::to_string(i) + " (" + level.name + ")";
    if (level.name.empty()) return "level " + std::to_string(i) + " has no name";
    if (!non_negative(level.latency_us)) return where + ": latency must be 0 or more";
    if (!positive(level.bytes_per_us)) return where + ": bandwidth must be positive";
  }
  if (!non_negative(machine.send_overhead_us)) return "the send overhead must be 0 or more";
  if (machine.recv_overhead_us && !non_negative(*machine.recv_overhead_us)) {
    return "the receive overhead must be 0 or more";
  }
  if (machine.eager_copy_bytes_per_us) {
    if (!positive(*machine.eager_copy_bytes_per_us)) return "the eager messages' copy bandwidth must be positive";
    if (!machine.recv_overhead_until_bytes) return "the eager messages' copy bandwidth needs the eager limit";
  }
  if (machine.rendezvous_us) {
    if (!non_negative(*machine.rendezvous_us)) return "the rendezvous cost must be 0 or more";
    if (!machine.recv_overhead_until_bytes) return "the rendezvous cost needs the eager limit";
  }
  if (!positive(machine.injection_bytes_per_us)) return "the injection bandwidth must be positive";
  if (!positive(machine.ejection_bytes_per_us)) return "the ejection bandwidth must be positive";
  if (!non_negative(machine.copy_bytes_per_us)) return "the copy bandwidth must be 0 (free) or more";
  if (!non_negative(machine.envelope_bytes)) return "the bytes a message adds on the links must be 0 or more";
  if (machine.backbone) {
    const BackboneCost& bb = *machine.backbone;
    const bool named = std::any_of(machine.levels.begin(), machine.levels.end(),
                                   [&](const LevelCost& l) { return l.name == bb.level; });
    if (!named) return "the backbone joins level '" + bb.level + "', which the machine does not list";
    if (bb.one_direction.empty()) return "the backbone has no measured capacity";
    for (std::size_t i = 0; i < bb.one_direction.size(); ++i) {
      if (bb.one_direction[i].flows < 1) return "the backbone's capacity points need at least one flow each";
      if (i > 0 && bb.one_direction[i].flows <= bb.one_direction[i - 1].flows) {
        return "the backbone's capacity points must be listed by increasing flows";
      }
      if (!positive(bb.one_direction[i].bytes_per_us)) return "the backbone's capacities must be positive";
    }
    if (!positive(bb.duplex_ratio)) return "the backbone's duplex ratio must be positive";
    if (!non_negative(bb.near_weight)) return "the backbone's near-flow weight must be 0 (unknown) or more";
    if (!non_negative(bb.groups_links_bytes_per_us))
      return "the backbone's groups' links must pass 0 (a limit of its own) or more";
  }
  for (const auto* list : {&machine.group_capacities, &machine.group_links}) {
    const std::string kind = list == &machine.group_links ? "group link " : "group capacity ";
    for (std::size_t i = 0; i < list->size(); ++i) {
      const GroupCapacity& group = (*list)[i];
      const std::string where = kind + std::to_string(i);
      if (group.level.empty()) return where + " names no level";
      if (!positive(group.bytes_per_us)) return where + " (" + group.level + ") must be positive";
      for (std::size_t j = 0; j < i; ++j) {
        if ((*list)[j].level == group.level) return where + ": level '" + group.level + "' is listed twice";
      }
    }
  }
  return std::nullopt;
}

double BackboneCost::capacity_bytes_per_us(double flows) const {
  if (flows <= one_direction.front().flows) return one_direction.front().bytes_per_us;
  for (std::size_t i = 1; i < one_direction.size(); ++i) {
    const CapacityPoint& lo = one_direction[i - 1];
    const CapacityPoint& hi = one_direction[i];
    if (flows <= hi.flows) {
      const double f = (flows - lo.flows) / static_cast<double>(hi.flows - lo.flows);
      return lo.bytes_per_us + f * (hi.bytes_per_us - lo.bytes_per_us);
    }
  }
  return one_direction.back().bytes_per_us;
}

std::vector<double> group_links_pass_bytes_per_us(const MachineCost& machine, const Topology& topology, int level,
                                                  bool out) {
  if (level < 0 || level >= topology.level_count()) throw std::invalid_argument("no such topology level");
  const auto size = static_cast<std::size_t>(topology.size());
  // From the ranks outwards: `pass` per group of the level just inside, `inner` each rank's.
  std::vector<double> pass(size, out ? machine.injection_bytes_per_us : machine.ejection_bytes_per_us);
  std::vector<int> inner(size);
  for (std::size_t r = 0; r < size; ++r) inner[r] = static_cast<int>(r);
  for (int l = topology.level_count() - 1; l >= level; --l) {
    std::vector<double> outer(static_cast<std::size_t>(topology.group_count(l)), 0.0);
    std::vector<char> counted(pass.size(), 0);
    for (std::size_t r = 0; r < size; ++r) {
      const auto below = static_cast<std::size_t>(inner[r]);
      if (counted[below]) continue;
      counted[below] = 1;
      outer[static_cast<std::size_t>(topology.group(static_cast<int>(r), l))] += pass[below];
    }
    for (const GroupLink& link : machine.group_links) {
      if (link.level != topology.levels()[static_cast<std::size_t>(l)]) continue;
      for (double& group : outer) group = std::min(group, link.bytes_per_us);
    }
    pass = std::move(outer);
    for (std::size_t r = 0; r < size; ++r) inner[r] = topology.group(static_cast<int>(r), l);
  }
  return pass;
}

namespace {

// Each rank's group at the outermost level, the ranks' strata when no backbone applies.
std::vector<int> outermost_groups(const std::vector<int>& groups, int levels, int size) {
  std::vector<int> outer;
  if (levels == 0) return outer;
  outer.reserve(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) outer.push_back(groups[static_cast<std::size_t>(r) * levels]);
  return outer;
}

}  // namespace

MachinePricing::MachinePricing(const MachineCost& machine, const Topology* topology, int size, RankReading reading)
    : machine_(&machine), size_(size), levels_(topology ? topology->level_count() : 0),
      sample_({}, 0, RankReading::every_rank) {
  const std::vector<LevelCost>& known = machine.levels;
  const int last = static_cast<int>(known.size()) - 1;
  auto find_from = [&](const std::string& name, int first) {
    for (int i = std::max(first, 0); i <= last; ++i)
      if (known[i].name == name) return i;
    return -1;
  };
  int matched = -1;  // index in `known` of the last matched problem level
  for (int l = 0; l < levels_; ++l) {
    const int i = find_from(topology->levels()[l], matched + 1);
    if (i >= 0) {
      costs_.push_back(&known[i]);
      matched = i;
    } else {
      costs_.push_back(&known[std::min(matched + 1, last)]);
    }
  }
  costs_.push_back(&known[std::min(matched + 1, last)]);  // "same group"

  if (levels_ > 0) {
    groups_.resize(static_cast<std::size_t>(size) * levels_);
    for (int r = 0; r < size; ++r)
      for (int l = 0; l < levels_; ++l) groups_[static_cast<std::size_t>(r) * levels_ + l] = topology->group(r, l);
  }
  alike_until_.resize(static_cast<std::size_t>(std::max(size, 0)));
  for (int r = size - 1; r >= 0; --r) {
    const bool next_alike = r + 1 < size && std::equal(groups_.begin() + static_cast<std::ptrdiff_t>(r) * levels_,
                                                       groups_.begin() + static_cast<std::ptrdiff_t>(r + 1) * levels_,
                                                       groups_.begin() + static_cast<std::ptrdiff_t>(r + 1) * levels_);
    alike_until_[static_cast<std::size_t>(r)] = next_alike ? alike_until_[static_cast<std::size_t>(r) + 1] : r + 1;
  }
  if (machine.backbone && topology) {
    const auto& names = topology->levels();
    const auto at = std::find(names.begin(), names.end(), machine.backbone->level);
    if (at != names.end()) {
      const int l = static_cast<int>(at - names.begin());
      backbone_group_count_ = topology->group_count(l);
      if (backbone_group_count_ > 1) {
        for (int r = 0; r < size; ++r) backbone_groups_.push_back(topology->group(r, l));
      }
      backbone_latency_us_ = known[find_from(machine.backbone->level, 0)].latency_us;
      if (machine.backbone->groups_links_bytes_per_us > 0.0 && backbone_group_count_ > 1) {
        links_out_ = group_links_pass_bytes_per_us(machine, *topology, l, true);
        links_in_ = group_links_pass_bytes_per_us(machine, *topology, l, false);
      }
    }
  }
  sample_ = backbone_groups_.empty() ? RankSample(outermost_groups(groups_, levels_, size), size, reading)
                                     : RankSample(backbone_groups_, size, reading);
  if (!topology) return;
  for (const auto* list : {&machine.group_capacities, &machine.group_links}) {
    const bool link = list == &machine.group_links;
    for (const GroupCapacity& capacity : *list) {
      const auto& names = topology->levels();
      const auto at = std::find(names.begin(), names.end(), capacity.level);
      if (at == names.end()) continue;
      const int level = static_cast<int>(at - names.begin());
      std::vector<int> ranks(static_cast<std::size_t>(topology->group_count(level)), 0);
      for (int r = 0; r < size; ++r) ++ranks[static_cast<std::size_t>(group(r, level))];
      const int largest = *std::max_element(ranks.begin(), ranks.end());
      // Groups of one rank have no traffic inside, and their link is the rank's own; a lone
      // group has no link to the rest.
      if (largest < 2 || (link && ranks.size() < 2)) continue;
      shared_groups_.push_back(SharedGroups{level, level + 1 < levels_ ? level + 1 : -1, capacity.bytes_per_us,
                                            static_cast<int>(ranks.size()), largest, link});
      // A link at the innermost level is the host's: what stays inside it skips the ranks' links.
      if (link && level == levels_ - 1) host_level_ = level;
      group_links_ = group_links_ || link;
    }
  }
}

std::vector<std::string> MachinePricing::mapping() const {
  std::vector<std::string> names;
  for (const LevelCost* cost : costs_) names.push_back(cost->name);
  return names;
}

}  // namespace topocoll
