// The sample files of the topology readers' tests (tests/schedule/topology-samples/), read whole.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace topocoll {

inline std::string topology_sample(const std::string& name) {
  std::ifstream file(std::string(TOPOCOLL_SOURCE_DIR) + "/tests/schedule/topology-samples/" + name);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace topocoll
