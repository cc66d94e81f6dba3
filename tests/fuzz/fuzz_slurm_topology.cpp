// libFuzzer target: Slurm's topology.conf (parse_slurm_topology) and, when the first byte is odd,
// a hostlist expression alone (expand_hostlist). Any input gives a result or an error message,
// never a crash, an exception, a sanitizer report or a leak; the host groups have one name per
// level and a hostlist never more than kMaxHostlistNames names.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "topology/hostlist.hpp"
#include "topology/slurm_topology.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  std::string error;
  if (data[0] % 2 == 1) {
    const auto names = topocoll::expand_hostlist(text, &error);
    if (!names && error.empty()) __builtin_trap();
    if (names && (names->empty() || names->size() > topocoll::kMaxHostlistNames)) __builtin_trap();
    return 0;
  }
  const auto groups = topocoll::parse_slurm_topology(text, &error);
  if (!groups && error.empty()) __builtin_trap();
  if (groups) {
    for (const auto& [host, path] : groups->hosts) {
      if (path.size() != groups->levels.size()) __builtin_trap();
    }
  }
  return 0;
}
