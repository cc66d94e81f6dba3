// libFuzzer target: a host-name pattern (pattern:REGEX) and the host names it is matched
// against. The input is the pattern, a newline, then host names one per line. Any input gives
// the groups of every host or an error message; a pattern whose level is named gives every
// host a non-empty group per level; nothing backtracks (a slow input fails by libFuzzer's
// -timeout).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "topology/host_pattern.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::size_t end_of_pattern = text.find('\n');
  if (end_of_pattern == std::string_view::npos) return 0;
  std::vector<std::string> hosts;
  for (std::size_t at = end_of_pattern + 1; at <= text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    hosts.emplace_back(text.substr(at, end - at));
    at = end + 1;
  }
  std::string error;
  const auto groups = topocoll::match_host_pattern(text.substr(0, end_of_pattern), hosts, &error);
  if (!groups && error.empty()) __builtin_trap();
  if (!groups) return 0;
  if (groups->levels.empty()) __builtin_trap();
  for (const std::string& host : hosts) {
    const auto it = groups->hosts.find(host);
    if (it == groups->hosts.end() || it->second.size() != groups->levels.size()) __builtin_trap();
    for (const std::string& part : it->second) {
      if (part.empty()) __builtin_trap();
    }
  }
  return 0;
}
