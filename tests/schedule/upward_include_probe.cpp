// Compiled (never linked) by the layering test of tests/schedule/CMakeLists.txt with the include
// roots of the algorithms layer: its own headers and the layers below it are found, and, with
// TOPOCOLL_PROBE_UPWARD, a header of the model layer above it is not.
#include "algorithms/registry.hpp"
#include "schedule/verifier.hpp"
#include "topology/topology.hpp"
#ifdef TOPOCOLL_PROBE_UPWARD
#include "model/tam_wang.hpp"
#endif

int topocoll_upward_include_probe() {
  return static_cast<int>(topocoll::algorithms_for(topocoll::Operation::alltoall).size());
}
