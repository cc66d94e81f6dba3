// A lower bound on the time of one total exchange (MPI_Alltoall, blocks of B bytes, one rank
// per node) on a two-cluster platform, whatever the algorithm:
//  - the WAN cut: the n1*n2 blocks from cluster 1 to cluster 2 cross the backbone (and as many
//    the other way; with SPLITDUPLEX each direction has its own bandwidth);
//  - a node's link: (p-1) blocks leave every node and (p-1) arrive, n_other of them from or to
//    the other cluster;
//  - a SHARED switch: all of its cluster's local and crossing traffic (a FATPIPE switch has no
//    shared capacity and bounds nothing);
// each cut's bytes divided by its bandwidth, plus the latency of the fastest route that such
// bytes can take (SimGrid's flow model delivers nothing of a message before its route latency
// has elapsed). The bound is the largest term. It ignores what only some algorithms pay: the
// per-flow TCP-gamma cap, the 16-byte SMPI envelope, local copies.
#pragma once

#include <cstddef>
#include <string_view>

#include "platform_two_clusters.hpp"

namespace topocoll::platform {

struct AlltoallBound {
  double seconds = 0.0;         // the largest of the terms below
  // The cut of the largest term: "node-link", "wan" or "switch"; "latency" when no cut's bytes
  // take as long as the latency between the clusters.
  std::string_view limited_by;
  double latency = 0.0;         // one route between the clusters
  double node_link = 0.0;
  double wan = 0.0;             // 0 when the WAN is FATPIPE
  double switch_cut = 0.0;      // 0 unless the switches are SHARED
};

AlltoallBound alltoall_lower_bound(const TwoClusterSpec& spec, std::size_t block_bytes);

}  // namespace topocoll::platform
