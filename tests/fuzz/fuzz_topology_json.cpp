// libFuzzer target: the JSON topology file (parse_topology_json), for a world of 1 to 8 ranks
// on hosts "h0".."h3". Any input must give a topology or an error message, never a crash, an
// exception, a sanitizer report or a leak.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "topology/topology_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const int ranks = 1 + data[0] % 8;
  std::vector<std::string> hosts;
  for (int r = 0; r < ranks; ++r) hosts.push_back("h" + std::to_string(r % 4));
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  std::string error;
  const auto topology = topocoll::parse_topology_json(text, topocoll::RankPlacement::whole_world(hosts), &error);
  if (!topology && error.empty()) __builtin_trap();  // every refusal must say why
  if (topology && topology->size() != ranks) __builtin_trap();
  return 0;
}
