#include "topology/host_pattern.hpp"

#include <algorithm>
#include <regex>

namespace topocoll {

namespace {

// A pattern in std::regex's terms: named groups turned into plain ones, and which numbered group
// each level is.
struct NumberedPattern {
  std::string regex;
  std::vector<std::string> levels;
  std::vector<std::size_t> group_of_level;
};

bool name_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool name_char(char c) { return name_start(c) || (c >= '0' && c <= '9') || c == '-'; }

// Copies `pattern`, replacing each "(?<name>" by "(" and counting capturing groups on the way
// (escaped characters and bracket expressions hold none); an error message when a name is bad.
std::optional<NumberedPattern> number_groups(std::string_view pattern, std::string& why) {
  NumberedPattern out;
  std::size_t groups = 0;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      out.regex += pattern.substr(i++, 2);
      continue;
    }
    if (c == '[') {  // to the unescaped ']' that closes it
      std::size_t end = i + 1;
      while (end < pattern.size() && pattern[end] != ']') end += pattern[end] == '\\' ? 2 : 1;
      end = std::min(end, pattern.size() - 1);
      out.regex += pattern.substr(i, end - i + 1);
      i = end;
      continue;
    }
    out.regex += c;
    if (c != '(') continue;
    if (pattern.substr(i + 1, 1) != "?") {
      ++groups;
    } else if (const std::string_view opening = pattern.substr(i + 1, 3);
               opening.starts_with("?<") && opening != "?<=" && opening != "?<!") {
      const std::size_t start = i + 3;
      const std::size_t close = pattern.find('>', start);
      const std::string_view name = pattern.substr(start, close == std::string_view::npos ? 0 : close - start);
      if (close == std::string_view::npos || name.empty() || !name_start(name.front()) ||
          !std::all_of(name.begin(), name.end(), name_char)) {
        why = "a group name must follow (?< as letters, digits, '_' or '-' (starting with a letter or '_'), "
              "closed by '>'";
        return std::nullopt;
      }
      if (std::find(out.levels.begin(), out.levels.end(), name) != out.levels.end()) {
        why = "the level '" + std::string(name) + "' is named twice";
        return std::nullopt;
      }
      out.levels.emplace_back(name);
      out.group_of_level.push_back(++groups);
      i = close;
    }
  }
  if (out.levels.empty()) {
    why = "names no level: give each level a named group, (?<name>...), outermost first";
    return std::nullopt;
  }
  return out;
}

}  // namespace

std::optional<HostGroups> match_host_pattern(std::string_view pattern, const std::vector<std::string>& hosts,
                                             std::string* error) {
  std::string why;
  auto numbered = number_groups(pattern, why);
  std::regex regex;
  if (numbered) {
    try {
      regex = std::regex(numbered->regex, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      why = std::string("not a regular expression std::regex accepts: ") + e.what();
      numbered.reset();
    }
  }
  if (!numbered) {
    if (error) *error = "host pattern '" + std::string(pattern) + "': " + why;
    return std::nullopt;
  }
  HostGroups groups{numbered->levels, {}};
  for (std::size_t r = 0; r < hosts.size() && why.empty(); ++r) {
    if (groups.hosts.count(hosts[r]) != 0) continue;
    std::smatch match;
    if (!std::regex_match(hosts[r], match, regex)) {
      why = "rank " + std::to_string(r) + " runs on host \"" + hosts[r] + "\", which the pattern does not match";
      break;
    }
    std::vector<std::string> path;
    for (std::size_t l = 0; l < numbered->levels.size() && why.empty(); ++l) {
      path.push_back(match.str(numbered->group_of_level[l]));
      if (path.back().empty()) {
        why = "rank " + std::to_string(r) + " runs on host \"" + hosts[r] + "\", in which the level '" +
              numbered->levels[l] + "' matches nothing";
      }
    }
    groups.hosts.emplace(hosts[r], std::move(path));
  }
  if (why.empty()) return groups;
  if (error) *error = "host pattern '" + std::string(pattern) + "': " + why;
  return std::nullopt;
}

}  // namespace topocoll
