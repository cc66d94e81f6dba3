// Machines and topologies shared by the cost-model tests: literal parameters, no calibration run.
#pragma once

#include <vector>

#include "model/machine_cost.hpp"
#include "topology/topology.hpp"

namespace topocoll::test_machines {

// n1 ranks in cluster 0, then n2 in cluster 1 (level "cluster").
inline Topology two_clusters(int n1, int n2) {
  std::vector<std::vector<int>> groups;
  for (int r = 0; r < n1 + n2; ++r) groups.push_back({r < n1 ? 0 : 1});
  return Topology({"cluster"}, groups);
}

// Two clusters of nodes with 1 Gbps links (125 bytes/us), 50 us apart inside a cluster and
// 5.06 ms across, joined by a full-duplex backbone of `backbone_bytes_per_us` per direction with
// 30 flows, `crowded_bytes_per_us` with 900 (a WAN whose TCP flows collapse when many compete
// when it is lower). Copies at 5 GB/s.
inline MachineCost two_cluster_machine(double backbone_bytes_per_us, double crowded_bytes_per_us,
                                       double send_overhead_us = 0.0) {
  MachineCost m;
  m.levels = {{"cluster", 5060.0, 125.0}, {"node", 50.0, 125.0}};
  m.send_overhead_us = send_overhead_us;
  m.injection_bytes_per_us = 125.0;
  m.ejection_bytes_per_us = 125.0;
  m.backbone = BackboneCost{"cluster", {{30, backbone_bytes_per_us}, {900, crowded_bytes_per_us}}, 2.0};
  m.copy_bytes_per_us = 5000.0;
  return m;
}

// A flat crossbar of a modern cluster: 1 us, 0.5 us to post a message, 10 GB/s links.
inline MachineCost fast_crossbar() {
  MachineCost m;
  m.levels = {{"node", 1.0, 10000.0}};
  m.send_overhead_us = 0.5;
  m.injection_bytes_per_us = 10000.0;
  m.ejection_bytes_per_us = 10000.0;
  m.copy_bytes_per_us = 20000.0;
  return m;
}

// One level of 10 us and 100 bytes per us, 1 us to post a message, copies free: small
// numbers to work out by hand.
inline MachineCost by_hand() {
  MachineCost m;
  m.levels = {{"same group", 10.0, 100.0}};
  m.send_overhead_us = 1.0;
  m.injection_bytes_per_us = 100.0;
  m.ejection_bytes_per_us = 100.0;
  return m;
}

}  // namespace topocoll::test_machines
