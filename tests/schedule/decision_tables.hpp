// A calibrated machine of 7 + 9 ranks with a hand-written decision table, for the table's and
// auto's tests.
#pragma once

#include <string>
#include <vector>

#include "select/calibration.hpp"

namespace topocoll::test_tables {

inline Calibration machine_with(std::vector<Decision> decisions) {
  Calibration c;
  c.topology = "clusters:7,9";
  c.ranks = 16;
  c.levels = {{"cluster", 0, 7, 500.0, 1e8, {}}, {"node", 0, 1, 20.0, 1e9, {}}};
  c.node = {8, 1e9, 1e9};
  c.copy = {5e9, "given"};
  c.decisions = std::move(decisions);
  return c;
}

// A hand-written table for the 7 + 9 clusters: shift from 1 KiB to 4 KiB, native at 64 KiB.
inline std::vector<Decision> hand_table(const std::string& shape) {
  return {Decision{Operation::alltoall, 16, shape, 1024, 4096, "shift", {{1024, 80.5, 95.0}, {4096, 150.0, std::nullopt}}},
          Decision{Operation::alltoall, 16, shape, 65536, 65536, "native", {}}};
}

}  // namespace topocoll::test_tables
