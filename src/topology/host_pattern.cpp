#include "topology/host_pattern.hpp"

#include <re2/re2.h>

#include <algorithm>

namespace topocoll {

namespace {

// A pattern in RE2's terms: each level's group `(?<name>` renamed `(?P<level_K>` (RE2's spelling,
// and a name RE2 accepts whatever the level's is), and the levels' names in order.
struct RenamedPattern {
  std::string regex;
  std::vector<std::string> levels;
};

std::string re2_group_name(std::size_t level) { return "topocoll_level_" + std::to_string(level); }

bool name_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool name_char(char c) { return name_start(c) || (c >= '0' && c <= '9') || c == '-'; }

// Copies `pattern`, renaming each "(?<name>" outside escapes and bracket expressions; an error
// message when a name is bad. Which group each level is, RE2 says once it has compiled the
// copy (a group this scan misreads is then missing there, an error, never a wrong group).
std::optional<RenamedPattern> rename_levels(std::string_view pattern, std::string& why) {
  RenamedPattern out;
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
    const std::string_view opening = pattern.substr(i, 4);
    if (!opening.starts_with("(?<") || opening == "(?<=" || opening == "(?<!") {
      out.regex += c;
      continue;
    }
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
    out.regex += "(?P<" + re2_group_name(out.levels.size()) + ">";
    out.levels.emplace_back(name);
    i = close;
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
  auto renamed = rename_levels(pattern, why);
  std::optional<RE2> regex;
  std::vector<int> group_of_level;
  if (renamed) {
    RE2::Options options;
    options.set_log_errors(false);  // the error goes into the message, not on standard error
    regex.emplace(renamed->regex, options);
    if (!regex->ok()) why = "not a regular expression RE2 accepts: " + regex->error();
    for (std::size_t l = 0; l < renamed->levels.size() && why.empty(); ++l) {
      const auto& named = regex->NamedCapturingGroups();
      const auto it = named.find(re2_group_name(l));
      if (it == named.end()) {
        why = "the level '" + renamed->levels[l] + "' is not a group of the expression (inside \\Q...\\E?)";
      } else {
        group_of_level.push_back(it->second);
      }
    }
    if (!why.empty()) renamed.reset();
  }
  if (!renamed) {
    if (error) *error = "host pattern '" + std::string(pattern) + "': " + why;
    return std::nullopt;
  }
  HostGroups groups{renamed->levels, {}};
  // Group 0 (the whole match) and every capturing group.
  std::vector<re2::StringPiece> match(static_cast<std::size_t>(regex->NumberOfCapturingGroups()) + 1);
  for (std::size_t r = 0; r < hosts.size() && why.empty(); ++r) {
    if (groups.hosts.count(hosts[r]) != 0) continue;
    const std::string& host = hosts[r];
    if (!regex->Match(host, 0, host.size(), RE2::ANCHOR_BOTH, match.data(), static_cast<int>(match.size()))) {
      why = "rank " + std::to_string(r) + " runs on host \"" + host + "\", which the pattern does not match";
      break;
    }
    std::vector<std::string> path;
    for (std::size_t l = 0; l < renamed->levels.size() && why.empty(); ++l) {
      const re2::StringPiece& part = match[static_cast<std::size_t>(group_of_level[l])];
      path.emplace_back(part.data() == nullptr ? "" : std::string(part.data(), part.size()));
      if (path.back().empty()) {
        why = "rank " + std::to_string(r) + " runs on host \"" + host + "\", in which the level '" +
              renamed->levels[l] + "' matches nothing";
      }
    }
    groups.hosts.emplace(host, std::move(path));
  }
  if (why.empty()) return groups;
  if (error) *error = "host pattern '" + std::string(pattern) + "': " + why;
  return std::nullopt;
}

}  // namespace topocoll
