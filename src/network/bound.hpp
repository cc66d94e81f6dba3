// A lower bound on the time of one total exchange (MPI_Alltoall, blocks of B bytes; MPI_Alltoallv,
// any sizes), or of a scatter or gather, on a network, whatever the
// algorithm, from its cuts: every block i -> j crosses each link of the route from host i to
// host j, so a link (each direction of a SPLITDUPLEX one) must carry
// all of those blocks at its bandwidth, and none of a block's bytes arrive before its route's
// latency has passed (SimGrid's flow model). A cut's time is the largest, over the latencies L
// of the routes through it, of L + (the bytes of routes at least that long) / bandwidth. The
// bound is the largest cut's time, and at least the longest route's latency. It ignores what
// only some algorithms pay: the per-flow TCP-gamma cap, the 16-byte SMPI envelope, local copies.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "network/network.hpp"

namespace topocoll::network {

struct AlltoallBound {
  double seconds = 0.0;    // the largest of the terms below
  // The role of the link whose cut sets the bound ("node-link", "wan", "switch"); "latency"
  // when no cut exceeds the longest route's latency, or when the cut that sets the bound is
  // under twice the latency of the routes whose bytes set its time (its bytes take less time
  // than the latency in front of them).
  std::string limited_by;
  double latency = 0.0;    // the longest route
  std::string worst_link;  // the id of the link of the worst cut (empty when there is no cut)
  // The worst cut of each link role, in the order node-link, wan, switch, then the others by
  // first appearance; a role without a cut is absent.
  std::vector<std::pair<std::string, double>> by_role;
  double role(const std::string& name) const;  // 0 when absent
};

// With several ranks per host (Cluster::ranks_per_host), every rank's blocks to the ranks of
// other hosts cross the host's link, and the blocks between the ranks of one host its loopback:
// a FATPIPE in SimGrid, so no cut, but a term of its own (role "loopback": its latency plus a
// block at its bandwidth); std::invalid_argument when the network has no loopback.
AlltoallBound alltoall_lower_bound(const Network& network, std::size_t block_bytes);

// The same bound for a scatter (`from_root`) or gather of `block_bytes` per rank, the root being
// rank `root`: every other rank's block crosses the route between its host and the root's (the
// ranks on the root's own host use its loopback, which is no cut). `host_of_rank[r]`: the host
// rank r runs on (several ranks per host allowed).
AlltoallBound rooted_lower_bound(const Network& network, const std::vector<int>& host_of_rank, int root,
                                 std::size_t block_bytes, bool from_root);

// The same bound for an irregular total exchange (MPI_Alltoallv): block i -> j has bytes(i, j)
// bytes and crosses the route from rank i's host to rank j's. Empty blocks are no flow (they
// add no latency); ranks sharing a host use its loopback, which is no cut.
AlltoallBound alltoallv_lower_bound(const Network& network, const std::vector<int>& host_of_rank,
                                    const std::function<std::size_t(int, int)>& bytes);

}  // namespace topocoll::network
