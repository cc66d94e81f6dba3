#include "topology/ibnetdiscover.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <deque>
#include <map>
#include <set>

#include "topology/text_lines.hpp"

namespace topocoll {

namespace {

// A node as ibnetdiscover names it: its kind ('S' switch, 'H' channel adapter, 'R' router) and GUID.
struct NodeId {
  char kind = 'S';
  std::uint64_t guid = 0;
  auto operator<=>(const NodeId&) const = default;
  std::string name() const {
    char digits[17] = {};
    const auto end = std::to_chars(digits, digits + 16, guid, 16).ptr;
    return std::string(1, kind) + "-" + std::string(16 - static_cast<std::size_t>(end - digits), '0') +
           std::string(digits, end);
  }
};

struct Node {
  std::size_t line = 0;     // its Switch, Ca or Rt line; 0 when only named by others
  std::string description;  // the node description, from that line
};

// The fabric as the file describes it: nodes and the links between them (both directions).
struct Fabric {
  std::map<NodeId, Node> nodes;
  std::map<NodeId, std::set<NodeId>> links;
};

// --- reading one line -------------------------------------------------------------------------

void skip_blanks(std::string_view& s) {
  while (!s.empty() && text::is_blank(s.front())) s.remove_prefix(1);
}

bool take(std::string_view& s, std::string_view prefix) {
  if (!s.starts_with(prefix)) return false;
  s.remove_prefix(prefix.size());
  return true;
}

// A number in `base` (at most `max_digits` digits) at the start of `s`.
std::optional<std::uint64_t> take_number(std::string_view& s, int base, std::size_t max_digits) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + std::min(s.size(), max_digits), value, base);
  if (ec != std::errc() || end == s.data()) return std::nullopt;
  s.remove_prefix(static_cast<std::size_t>(end - s.data()));
  return value;
}

// "[3]" or "[3][ext 7]": a port number, and the chassis port number of the grouped output.
bool take_port(std::string_view& s) {
  if (!take(s, "[") || !take_number(s, 10, 9) || !take(s, "]")) return false;
  return !take(s, "[ext ") || (take_number(s, 10, 9) && take(s, "]"));
}

// "(7cfe900300e1a821)", a port GUID, when there is one.
bool skip_port_guid(std::string_view& s) {
  skip_blanks(s);
  return !take(s, "(") || (take_number(s, 16, 16) && take(s, ")"));
}

// "\"S-0002c90200400e30\"": a node's name.
std::optional<NodeId> take_node_name(std::string_view& s) {
  NodeId id;
  if (!take(s, "\"") || s.size() < 2 || s[1] != '-' || (s[0] != 'S' && s[0] != 'H' && s[0] != 'R')) {
    return std::nullopt;
  }
  id.kind = s[0];
  s.remove_prefix(2);
  const auto guid = take_number(s, 16, 16);
  if (!guid || !take(s, "\"")) return std::nullopt;
  id.guid = *guid;
  return id;
}

bool at_comment_or_end(std::string_view s) {
  skip_blanks(s);
  return s.empty() || s.front() == '#';
}

// The text between the first and the last double quote of a comment, or "".
std::string quoted_description(std::string_view comment) {
  const auto first = comment.find('"'), last = comment.rfind('"');
  if (first == std::string_view::npos || last == first) return {};
  return std::string(comment.substr(first + 1, last - first - 1));
}

std::string excerpt(std::string_view line) {
  return "'" + std::string(line.substr(0, 60)) + (line.size() > 60 ? "...'" : "'");
}

// --- reading the file -------------------------------------------------------------------------

// The line kinds that carry nothing this reader needs: node identifiers and the chassis lines of
// the grouped output.
bool ignored_line(std::string_view line) {
  static constexpr std::string_view kPrefixes[] = {"vendid=",  "devid=", "sysimgguid=", "switchguid=",
                                                   "caguid=",  "rtguid=", "Chassis ",   "Hostname: ",
                                                   "Non-Chassis Nodes"};
  return std::any_of(std::begin(kPrefixes), std::end(kPrefixes),
                     [&](std::string_view prefix) { return line.starts_with(prefix); });
}

// Reads "Switch 36 \"S-...\"  # \"description\" ..." (or Ca, Rt); returns the node, or an error.
std::optional<NodeId> read_node_line(std::string_view s, std::string& description, std::string& why) {
  const char kind = s.front() == 'S' ? 'S' : s.front() == 'C' ? 'H' : 'R';
  take(s, kind == 'S' ? "Switch" : kind == 'H' ? "Ca" : "Rt");
  skip_blanks(s);
  const bool ports = take_number(s, 10, 9).has_value();
  skip_blanks(s);
  const auto id = take_node_name(s);
  if (!ports || !id || !at_comment_or_end(s)) {
    why = "expected a port count and a quoted node name (\"S-<guid>\", \"H-<guid>\" or \"R-<guid>\")";
    return std::nullopt;
  }
  if (id->kind != kind) {
    why = "the node " + id->name() + " on a " + (kind == 'S' ? "Switch" : kind == 'H' ? "Ca" : "Rt") +
          " line (its name must start with " + kind + "-)";
    return std::nullopt;
  }
  const auto hash = s.find('#');
  description = hash == std::string_view::npos ? std::string() : quoted_description(s.substr(hash));
  return id;
}

// Reads "[p](guid) \"X-...\"[q](guid)  # ..." after the node `from`; a port with no peer is not a link.
std::string read_port_line(std::string_view s, const NodeId& from, Fabric& fabric) {
  const std::string expected = "expected [port] \"X-<guid>\"[port] (a port line)";
  if (!take_port(s) || !skip_port_guid(s)) return expected;
  if (at_comment_or_end(s)) return {};  // an unconnected port
  skip_blanks(s);
  const auto peer = take_node_name(s);
  if (!peer || !take_port(s) || !skip_port_guid(s) || !at_comment_or_end(s)) return expected;
  if (*peer == from) return {};
  fabric.nodes.try_emplace(*peer);
  fabric.links[from].insert(*peer);
  fabric.links[*peer].insert(from);
  return {};
}

std::optional<Fabric> read_fabric(std::string_view text, std::string& error) {
  Fabric fabric;
  std::optional<NodeId> current;  // the node whose stanza this is
  const auto lines = text::trimmed_lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    const std::size_t number = i + 1;
    std::string why;
    if (line.empty()) {
      current.reset();  // a blank line ends a stanza
    } else if (line.front() == '#' || ignored_line(line)) {
      continue;
    } else if (line.front() == '[') {
      if (!current) {
        why = "a port line outside a node's stanza (no Switch, Ca or Rt line before it)";
      } else {
        why = read_port_line(line, *current, fabric);
      }
    } else if (line.starts_with("Switch") || line.starts_with("Ca") || line.starts_with("Rt")) {
      std::string description;
      const auto id = read_node_line(line, description, why);
      if (id) {
        Node& node = fabric.nodes[*id];
        if (node.line != 0) {
          why = "the node " + id->name() + " is described twice (first on line " + std::to_string(node.line) + ")";
        } else {
          node = Node{number, std::move(description)};
          current = id;
        }
      }
    } else {
      why = "not a line of ibnetdiscover's output: " + excerpt(line);
    }
    if (!why.empty()) {
      error = text::at_line(number, why);
      return std::nullopt;
    }
  }
  return fabric;
}

// --- from the fabric to hosts and levels -----------------------------------------------------

// The switches `id` links to, lowest GUID first.
std::vector<NodeId> linked_switches(const Fabric& fabric, const NodeId& id) {
  std::vector<NodeId> switches;
  if (const auto it = fabric.links.find(id); it != fabric.links.end()) {
    for (const NodeId& peer : it->second) {
      if (peer.kind == 'S') switches.push_back(peer);
    }
  }
  return switches;
}

std::string first_word(const std::string& description) {
  const std::string_view text = text::trimmed(description);
  std::size_t end = 0;
  while (end < text.size() && !text::is_blank(text[end])) ++end;
  return std::string(text.substr(0, end));
}

std::string ca_where(const NodeId& ca, const Node& node) {
  return "the CA " + ca.name() + (node.line ? " (line " + std::to_string(node.line) + ")" : "");
}

struct HostPlace {
  NodeId ca;    // the first of its CAs
  NodeId leaf;  // the switch it links to
};

// Each host under the switch its CAs link to; the CAs that cannot place a host are noted.
std::optional<std::map<std::string, HostPlace>> place_hosts(const Fabric& fabric, std::string& error,
                                                            std::vector<std::string>& notes) {
  std::map<std::string, HostPlace> hosts;
  for (const auto& [id, node] : fabric.nodes) {
    if (id.kind != 'H') continue;
    const std::string host = first_word(node.description);
    const std::vector<NodeId> switches = linked_switches(fabric, id);
    if (node.line == 0) {
      notes.push_back(ca_where(id, node) + " has no Ca line, so no host name: left out");
    } else if (host.empty()) {
      notes.push_back(ca_where(id, node) + " has an empty node description, so no host name: left out");
    } else if (switches.empty()) {
      notes.push_back(ca_where(id, node) + " of host '" + host + "' links to no switch: left out");
    }
    if (node.line == 0 || host.empty()) continue;
    for (const NodeId& leaf : switches) {
      const auto [it, fresh] = hosts.try_emplace(host, HostPlace{id, leaf});
      if (!fresh && it->second.leaf != leaf) {
        const HostPlace& first = it->second;
        error = "host '" + host + "' is under two switches: " + first.leaf.name() + " through " +
                ca_where(first.ca, fabric.nodes.at(first.ca)) + " and " + leaf.name() + " through " +
                ca_where(id, node) + " (a host must be under one leaf switch)";
        return std::nullopt;
      }
    }
  }
  return hosts;
}

// Each switch's distance from the hosts: 1 for the leaves, one more per switch-to-switch link.
std::map<NodeId, std::size_t> switch_levels(const Fabric& fabric, const std::map<std::string, HostPlace>& hosts) {
  std::map<NodeId, std::size_t> level;
  std::deque<NodeId> queue;
  for (const auto& [host, place] : hosts) {
    if (level.emplace(place.leaf, 1).second) queue.push_back(place.leaf);
  }
  for (; !queue.empty(); queue.pop_front()) {
    const std::size_t next = level.at(queue.front()) + 1;
    for (const NodeId& peer : linked_switches(fabric, queue.front())) {
      if (level.emplace(peer, next).second) queue.push_back(peer);
    }
  }
  return level;
}

// The switches from `leaf` up, each the parent of the one before (the lowest-GUID switch it links
// to one level up), outermost first.
std::vector<std::string> switch_path(const Fabric& fabric, const std::map<NodeId, std::size_t>& level, NodeId leaf) {
  std::vector<std::string> path{leaf.name()};
  while (true) {
    const std::size_t up = level.at(leaf) + 1;
    const std::vector<NodeId> peers = linked_switches(fabric, leaf);
    const auto parent = std::find_if(peers.begin(), peers.end(), [&](const NodeId& p) { return level.at(p) == up; });
    if (parent == peers.end()) return path;
    leaf = *parent;
    path.insert(path.begin(), leaf.name());
  }
}

}  // namespace

std::optional<HostGroups> parse_ibnetdiscover(std::string_view text, std::string* error,
                                              std::vector<std::string>* notes) {
  std::string scratch_error;
  std::vector<std::string> scratch_notes;
  if (!error) error = &scratch_error;
  if (!notes) notes = &scratch_notes;
  const auto fabric = read_fabric(text, *error);
  if (!fabric) return std::nullopt;
  const auto hosts = place_hosts(*fabric, *error, *notes);
  if (!hosts) return std::nullopt;
  if (hosts->empty()) {
    *error = "no host: no CA with a node description links to a switch";
    return std::nullopt;
  }
  const auto level = switch_levels(*fabric, *hosts);
  std::map<std::string, std::string> leaf_of_host;
  std::map<std::string, std::vector<std::string>> path_of_leaf;
  for (const auto& [host, place] : *hosts) {
    const auto [it, fresh] = path_of_leaf.try_emplace(place.leaf.name());
    if (fresh) it->second = switch_path(*fabric, level, place.leaf);
    leaf_of_host.emplace(host, place.leaf.name());
  }
  return host_groups_under_switches(leaf_of_host, std::move(path_of_leaf), PadAt::outer);
}

}  // namespace topocoll
