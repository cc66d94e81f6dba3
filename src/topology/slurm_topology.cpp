#include "topology/slurm_topology.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

#include "topology/hostlist.hpp"
#include "topology/text_lines.hpp"

namespace topocoll {

namespace {

struct SwitchLine {
  std::string name;
  std::size_t line = 0;  // where the file defines it (1-based)
  std::vector<std::string> switches, nodes;
  std::vector<std::size_t> parents;  // indexes of the switches listing this one, in file order
};

std::string lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The logical lines of the file: comments (# to the end of the line) removed, a line ending in a
// backslash joined with the next. Each is numbered by its first physical line.
std::vector<std::pair<std::size_t, std::string>> logical_lines(std::string_view text) {
  std::vector<std::pair<std::size_t, std::string>> lines;
  bool continued = false;
  const auto physical = text::trimmed_lines(text);
  for (std::size_t i = 0; i < physical.size(); ++i) {
    std::string_view line = text::trimmed(physical[i].substr(0, physical[i].find('#')));
    const bool continues = !line.empty() && line.back() == '\\';
    if (continues) line.remove_suffix(1);
    if (continued) {
      lines.back().second += ' ';
      lines.back().second += line;
    } else {
      lines.emplace_back(i + 1, std::string(line));
    }
    continued = continues;
  }
  return lines;
}

// Reads one line's KEY=VALUE pairs into `entry`; an error message when the line is malformed.
std::string read_switch_line(std::string_view line, SwitchLine& entry) {
  std::map<std::string, std::string> seen;  // lowercased key -> as written
  bool first = true;
  while (!(line = text::trimmed(line)).empty()) {
    std::size_t end = 0;
    while (end < line.size() && !text::is_blank(line[end])) ++end;
    const std::string_view token = line.substr(0, end);
    line.remove_prefix(end);
    const auto equals = token.find('=');
    if (equals == std::string_view::npos) return "'" + std::string(token) + "' is not KEY=VALUE";
    const std::string key = lowercase(token.substr(0, equals));
    std::string_view value = token.substr(equals + 1);
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    const std::string written(token.substr(0, equals));
    if (first && key != "switchname") return "expected SwitchName=NAME first, found '" + written + "='";
    first = false;
    if (key != "switchname" && key != "switches" && key != "nodes" && key != "linkspeed") {
      return "unknown key '" + written + "' (expected SwitchName, Switches, Nodes or LinkSpeed)";
    }
    if (!seen.emplace(key, written).second) return "'" + written + "' given twice";
    if (value.empty()) return "'" + written + "=' has no value";
    if (key == "switchname") entry.name = value;
    if (key == "switches" || key == "nodes") {
      std::string error;
      auto names = expand_hostlist(value, &error);
      if (!names) return written + ": " + error;
      (key == "nodes" ? entry.nodes : entry.switches) = std::move(*names);
    }
  }
  return {};
}

// A switch on a cycle of Switches= lists, or none: the switches that remain once those without a
// parent and then their children are taken away all have a parent among the remaining ones;
// walking up from one of them as many steps as there are switches ends on a cycle.
std::optional<std::size_t> switch_on_cycle(const std::vector<SwitchLine>& switches,
                                           const std::map<std::string, std::size_t>& index) {
  std::vector<std::size_t> parents_left(switches.size());
  std::vector<std::size_t> ready;
  for (std::size_t s = 0; s < switches.size(); ++s) {
    parents_left[s] = switches[s].parents.size();
    if (parents_left[s] == 0) ready.push_back(s);
  }
  while (!ready.empty()) {
    const std::size_t s = ready.back();
    ready.pop_back();
    for (const std::string& child : switches[s].switches) {
      if (--parents_left[index.at(child)] == 0) ready.push_back(index.at(child));
    }
  }
  auto left = std::find_if(parents_left.begin(), parents_left.end(), [](std::size_t n) { return n > 0; });
  if (left == parents_left.end()) return std::nullopt;
  std::size_t s = static_cast<std::size_t>(left - parents_left.begin());
  for (std::size_t step = 0; step < switches.size(); ++step) {
    const auto& parents = switches[s].parents;
    s = *std::find_if(parents.begin(), parents.end(), [&](std::size_t p) { return parents_left[p] > 0; });
  }
  return s;
}

// The switches of the file, in file order, with `index` naming them; or an error message.
std::optional<std::vector<SwitchLine>> read_switches(std::string_view text, std::map<std::string, std::size_t>& index,
                                                     std::string& error) {
  std::vector<SwitchLine> switches;
  std::size_t names = 0;  // in the Nodes= and Switches= lists so far
  for (const auto& [line, content] : logical_lines(text)) {
    if (content.empty()) continue;
    SwitchLine entry;
    entry.line = line;
    std::string why = read_switch_line(content, entry);
    if (const auto [it, fresh] = index.emplace(entry.name, switches.size()); why.empty() && !fresh) {
      why = "switch '" + entry.name + "' is already defined on line " + std::to_string(switches[it->second].line);
    }
    names += entry.nodes.size() + entry.switches.size();
    if (why.empty() && names > kMaxHostlistNames) {
      why = "the file lists more than " + std::to_string(kMaxHostlistNames) + " nodes and switches";
    }
    if (!why.empty()) {
      error = text::at_line(line, why);
      return std::nullopt;
    }
    switches.push_back(std::move(entry));
  }
  return switches;
}

// Gives every switch its parents (the switches listing it, in file order); an error message when a
// Switches= list names a switch no line defines, or the lists form a cycle.
std::string link_parents(std::vector<SwitchLine>& switches, const std::map<std::string, std::size_t>& index) {
  for (std::size_t s = 0; s < switches.size(); ++s) {
    auto& children = switches[s].switches;  // each once: the order of a switch's children does not matter
    std::sort(children.begin(), children.end());
    children.erase(std::unique(children.begin(), children.end()), children.end());
    for (const std::string& child : children) {
      const auto it = index.find(child);
      if (it == index.end()) {
        return text::at_line(switches[s].line,
                             "switch '" + switches[s].name + "' lists switch '" + child + "', which no line defines");
      }
      switches[it->second].parents.push_back(s);
    }
  }
  if (const auto s = switch_on_cycle(switches, index)) {
    return text::at_line(switches[*s].line,
                         "switch '" + switches[*s].name + "' is its own ancestor: the Switches= lists form a cycle");
  }
  return {};
}

// The switches from the root of `leaf`'s tree down to it, each the first parent of the next.
std::vector<std::string> path_from_root(const std::vector<SwitchLine>& switches, std::size_t leaf) {
  std::vector<std::string> path;
  for (std::size_t s = leaf;; s = switches[s].parents.front()) {
    path.insert(path.begin(), switches[s].name);
    if (switches[s].parents.empty()) return path;
  }
}

}  // namespace

std::optional<HostGroups> parse_slurm_topology(std::string_view text, std::string* error) {
  std::string scratch;
  if (!error) error = &scratch;
  std::map<std::string, std::size_t> index;  // switch name -> its entry
  auto switches = read_switches(text, index, *error);
  if (!switches) return std::nullopt;
  if (*error = link_parents(*switches, index); !error->empty()) return std::nullopt;

  // Each host under the switch that lists it, and that switch's path from its root.
  std::map<std::string, std::string> leaf_of_host;
  std::map<std::string, std::vector<std::string>> path_of_leaf;
  std::map<std::string, std::size_t> line_of_host;  // where it is listed
  for (const SwitchLine& leaf : *switches) {
    for (const std::string& node : leaf.nodes) {
      const auto [it, fresh] = leaf_of_host.emplace(node, leaf.name);
      if (!fresh && it->second != leaf.name) {
        *error = text::at_line(leaf.line, "node '" + node + "' is listed under switch '" + leaf.name +
                                              "' and under switch '" + it->second + "' (line " +
                                              std::to_string(line_of_host.at(node)) + ")");
        return std::nullopt;
      }
      line_of_host.emplace(node, leaf.line);
    }
    if (!leaf.nodes.empty()) path_of_leaf.emplace(leaf.name, path_from_root(*switches, index.at(leaf.name)));
  }
  if (leaf_of_host.empty()) {
    *error = "no switch lists a node (Nodes=)";
    return std::nullopt;
  }
  return host_groups_under_switches(leaf_of_host, std::move(path_of_leaf), PadAt::inner);
}

}  // namespace topocoll
