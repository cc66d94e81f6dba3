// libFuzzer target: ibnetdiscover's output (parse_ibnetdiscover). Any input gives host groups or
// an error message, never a crash, an exception, a sanitizer report or a leak; the groups have
// one name per level, and the topology file written from them reads back for their hosts.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "topology/ibnetdiscover.hpp"
#include "topology/topology_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  std::vector<std::string> notes;
  const auto groups = topocoll::parse_ibnetdiscover(text, &error, &notes);
  if (!groups) {
    if (error.empty()) __builtin_trap();  // every refusal must say why
    return 0;
  }
  std::vector<std::string> hosts;
  for (const auto& [host, path] : groups->hosts) {
    if (path.size() != groups->levels.size()) __builtin_trap();
    hosts.push_back(host);
  }
  const auto topology = topocoll::parse_topology_json(topocoll::host_topology_json(*groups),
                                                      topocoll::RankPlacement::whole_world(hosts), &error);
  // A host name that is not UTF-8 is written with replacement characters and then not found.
  if (!topology && error.find("does not list") == std::string::npos) __builtin_trap();
  return 0;
}
