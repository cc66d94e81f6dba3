// Small helpers for the line-oriented files the topology layer reads (ibnetdiscover's output,
// Slurm's topology.conf): lines numbered from 1, blanks trimmed, and messages that name a line.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace topocoll::text {

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// `line` without the blanks (spaces, tabs, carriage returns) at either end.
inline std::string_view trimmed(std::string_view line) {
  while (!line.empty() && is_blank(line.front())) line.remove_prefix(1);
  while (!line.empty() && is_blank(line.back())) line.remove_suffix(1);
  return line;
}

// The lines of `text` (split at '\n'; line i + 1 of the file is element i), each trimmed.
inline std::vector<std::string_view> trimmed_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto end = text.find('\n');
    lines.push_back(trimmed(text.substr(0, end)));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

// An error message about line `line` (1-based): "line 12: why".
inline std::string at_line(std::size_t line, const std::string& why) {
  return "line " + std::to_string(line) + ": " + why;
}

}  // namespace topocoll::text
