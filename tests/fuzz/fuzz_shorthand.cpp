// libFuzzer target: the topology shorthand (clusters:N1,N2,... and flat:N) as load_topology_for
// reads it for a world of 1 to 64 ranks. Any input gives a topology of the world's size or an
// error message; a huge count is refused before any table is built.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "topology/topology_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const int ranks = 1 + data[0] % 64;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  if (text.rfind("clusters:", 0) != 0 && text.rfind("flat:", 0) != 0) return 0;  // a file path otherwise
  std::string error;
  const auto placement =
      topocoll::RankPlacement::whole_world(std::vector<std::string>(static_cast<std::size_t>(ranks), "h"));
  const auto topology = topocoll::load_topology_for(text, placement, &error);
  if (!topology && error.empty()) __builtin_trap();
  if (topology && topology->size() != ranks) __builtin_trap();
  return 0;
}
