// What stands in for an empty options.topology, options.calibration or options.network: the
// TOPOCOLL_TOPOLOGY, TOPOCOLL_CALIBRATION and TOPOCOLL_NETWORK variables, read at each call by
// the API (a program may set them between calls), or values its caller read once (the drop-in
// library reads its environment once: getenv on every call cost more than the rest of a
// handed-on call).
#pragma once

#include <string_view>

namespace topocoll::exec {

struct EnvironmentDefaults {
  std::string_view topology, calibration, network;
  // The process environment now.
  static EnvironmentDefaults read();
};

}  // namespace topocoll::exec
