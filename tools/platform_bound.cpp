// Lower bound of a total exchange on a two-cluster platform (see platform_bound.hpp).
#include "platform_bound.hpp"

#include <algorithm>
#include <utility>

namespace topocoll::platform {

namespace {

// A cut crossed by `local_bytes` that may take the cluster-local route and `cross_bytes` that
// must take the route between the clusters: neither can move before its route latency.
double cut_time(double local_bytes, double cross_bytes, double bandwidth, double local_latency,
                double cross_latency) {
  double time = cross_latency + cross_bytes / bandwidth;
  if (local_bytes > 0) time = std::max(time, local_latency + (local_bytes + cross_bytes) / bandwidth);
  return time;
}

}  // namespace

AlltoallBound alltoall_lower_bound(const TwoClusterSpec& spec, std::size_t block_bytes) {
  const double b = static_cast<double>(block_bytes);
  const double local_latency = spec.local_route_latency();
  const double cross_latency = spec.cross_route_latency();
  AlltoallBound bound;
  bound.latency = cross_latency;

  for (const auto& [own, other] : {std::pair{spec.n1, spec.n2}, std::pair{spec.n2, spec.n1}}) {
    // One node's link, each direction (full duplex): own-1 local blocks, `other` crossing ones.
    bound.node_link = std::max(bound.node_link, cut_time((own - 1) * b, other * b, spec.node_bandwidth,
                                                         local_latency, cross_latency));
    if (spec.switch_sharing == Sharing::shared) {
      // Every local block once, every crossing block twice (it leaves and enters the cluster).
      bound.switch_cut =
          std::max(bound.switch_cut, cut_time(double(own) * (own - 1) * b, 2.0 * own * other * b,
                                              spec.switch_bandwidth, local_latency, cross_latency));
    }
  }
  const double crossing_each_way = double(spec.n1) * spec.n2 * b;
  if (spec.wan_sharing == Sharing::splitduplex) {
    bound.wan = cross_latency + crossing_each_way / spec.wan_bandwidth;
  } else if (spec.wan_sharing == Sharing::shared) {
    bound.wan = cross_latency + 2 * crossing_each_way / spec.wan_bandwidth;
  }

  bound.seconds = bound.latency;
  bound.limited_by = "latency";
  const std::pair<double, std::string_view> terms[] = {
      {bound.node_link, "node-link"}, {bound.wan, "wan"}, {bound.switch_cut, "switch"}};
  for (const auto& [seconds, name] : terms) {
    if (seconds > bound.seconds) {
      bound.seconds = seconds;
      bound.limited_by = name;
    }
  }
  // A cut whose bytes take less time than the latency in front of them: latency-bound.
  if (bound.seconds < 2 * bound.latency) bound.limited_by = "latency";
  return bound;
}

}  // namespace topocoll::platform
