#include "model/fluid_flows.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "schedule/link_loads.hpp"
#include "schedule/staging_rule.hpp"

namespace topocoll::fluid {

namespace {

std::size_t total(std::span<const Segment> segments) {
  std::size_t bytes = 0;
  for (const Segment& s : segments) bytes += s.length;
  return bytes;
}

// SimGrid divides a flow's share by its penalty; a route of no latency and no link would have
// none.
constexpr double kLeastPenalty = 1e-12;
// network/crosstraffic: the share of a flow that loads its way back.
constexpr double kCrossTraffic = 0.05;

}  // namespace

void RankRoundTally::start(std::size_t& staged_so_far) {
  staged_so_far_ = &staged_so_far;
  sent.clear();
  received.clear();
  received_mixes_.clear();
  copied_before = copied_after = 0;
  staged_received_bytes = 0;
}

void RankRoundTally::send(int peer, std::span<const Segment> segments, std::size_t overlap_rounds) {
  const std::size_t bytes = total(segments);
  sent.push_back({peer, bytes, overlap_rounds, stage(bytes, mixes_buffers(segments)) ? bytes : 0});
}

void RankRoundTally::recv(int peer, std::span<const Segment> segments, std::size_t overlap_rounds) {
  received.push_back({peer, total(segments), overlap_rounds, 0});
  received_mixes_.push_back(mixes_buffers(segments) ? 1 : 0);
}

void RankRoundTally::finish() {
  for (std::size_t i = 0; i < received.size(); ++i) {
    if (stage(received[i].bytes, received_mixes_[i] != 0)) {
      received[i].staged_bytes = received[i].bytes;
      staged_received_bytes += received[i].bytes;
    }
  }
}

bool RankRoundTally::stage(std::size_t bytes, bool mixes) {
  if (!is_staged(bytes, mixes, *staged_so_far_)) return false;
  *staged_so_far_ += bytes;
  return true;
}

void read_rank_round_cpu(const FluidParameters& parameters, const RankRoundTally& tally, double round_start_us,
                         RankRoundCpu& cpu) {
  cpu.posting_us = round_start_us + copy_us(parameters, tally.copied_before);
  const std::size_t n = tally.sent.size();
  cpu.posted_by.assign(n, 0.0);
  double posts = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    posts += copy_us(parameters, tally.sent[k].staged_bytes) + parameters.send_overhead_us;
    cpu.posted_by[k] = posts;
  }
  // SMPI charges a receive's overhead (detached receives only) as it completes, one after the
  // other: the last one in takes its own after the round's flows, the others wait for the CPU.
  const auto detached = std::count_if(tally.received.begin(), tally.received.end(),
                                      [&](const auto& m) { return is_detached(parameters, m.bytes); });
  const double copy_out = copy_us(parameters, tally.staged_received_bytes);
  cpu.copying_out_us = copy_out + (detached > 0 ? parameters.recv_overhead_us : 0.0);
  cpu.done_us = cpu.posting_us + posts + copy_us(parameters, tally.copied_after) +
                parameters.recv_overhead_us * static_cast<double>(detached) + copy_out;
}

FluidLinks::FluidLinks(const network::Network& network, const FluidParameters& parameters, bool alike,
                       FluidNetwork& fluid)
    : network_(&network), parameters_(&parameters), alike_(alike), fluid_(&fluid), routes_(network.host_count()) {
  host_link_cluster_.assign(network.links.size(), -1);
  for (std::size_t c = 0; c < network.clusters.size(); ++c) {
    const network::Cluster& cluster = network.clusters[c];
    for (int h = 0; h < cluster.hosts; ++h) {
      host_link_cluster_[static_cast<std::size_t>(cluster.first_host_link + h)] = static_cast<int>(c);
    }
  }
  capacity_of_id_.assign(2 * network.links.size(), -1);
}

const FluidRoute& FluidLinks::route(int from_host, int to_host) {
  return routes_.get(from_host, to_host, [&] { return make_route(from_host, to_host); });
}

FlowClass FluidLinks::flows(const FluidRoute& route, double count, double bytes, double start_us,
                            std::size_t due) const {
  FlowClass flows;
  flows.count = count;
  flows.bytes = bytes;
  flows.start_us = start_us;
  flows.penalty = route.penalty;
  flows.rate_cap = route.rate_cap;
  flows.due = due;
  const auto use = [&](int c, double weight) {
    const double per_link = weight * count / links_of_capacity_[static_cast<std::size_t>(c)];
    auto same = std::find_if(flows.uses.begin(), flows.uses.end(), [&](const FlowUse& u) { return u.capacity == c; });
    if (same != flows.uses.end()) {
      same->flows_per_link += per_link;
    } else {
      flows.uses.push_back({c, per_link});
    }
  };
  for (int c : route.capacities) use(c, 1.0);
  // SimGrid's cross-traffic: each flow also loads the links of the way back with 5% of itself.
  for (int c : route.back_capacities) use(c, kCrossTraffic);
  return flows;
}

FluidRoute FluidLinks::make_route(int from_host, int to_host) {
  FluidRoute route;
  const double weight_s = parameters_->weight_s;
  if (from_host == to_host) {
    // The host's loopback: a link of its own per flow (SimGrid's cluster loopback is a FATPIPE).
    const double bandwidth = network_->loopback_bandwidth;
    route.latency_us = network_->loopback_latency * 1e6;
    route.penalty =
        std::max(network_->loopback_latency + (bandwidth > 0.0 ? weight_s / bandwidth : 0.0), kLeastPenalty);
    if (bandwidth > 0.0) route.rate_cap = bandwidth / 1e6;
    return route;
  }
  network_->route(from_host, to_host, hops_);
  const double latency = network_->latency(hops_);
  route.latency_us = latency * 1e6;
  double penalty = latency;
  double narrowest = std::numeric_limits<double>::infinity();
  for (const network::Hop& hop : hops_) {
    const double bandwidth = network_->links[static_cast<std::size_t>(hop.link)].bandwidth;
    penalty += weight_s / bandwidth;
    narrowest = std::min(narrowest, bandwidth);
  }
  if (latency > 0.0 && parameters_->tcp_gamma_bytes > 0.0) {
    narrowest = std::min(narrowest, parameters_->tcp_gamma_bytes / (2.0 * latency));
  }
  route.penalty = std::max(penalty, kLeastPenalty);
  route.rate_cap = narrowest / 1e6;
  route_capacities(*network_, from_host, to_host, ids_, hops_);
  for (int id : ids_) route.capacities.push_back(capacity(id));
  if (parameters_->crosstraffic) {
    route_capacities(*network_, to_host, from_host, ids_, hops_);
    for (int id : ids_) route.back_capacities.push_back(capacity(id));
  }
  return route;
}

int FluidLinks::capacity(int id) {
  int& made = capacity_of_id_[static_cast<std::size_t>(id)];
  if (made >= 0) return made;
  const std::size_t link = static_cast<std::size_t>(id) / 2;
  const int cluster = host_link_cluster_[link];
  if (alike_ && cluster >= 0) {
    const auto key = std::make_pair(cluster, id % 2);
    auto found = host_links_.find(key);
    if (found == host_links_.end()) {
      const int hosts = network_->clusters[static_cast<std::size_t>(cluster)].hosts;
      found = host_links_.emplace(key, add(network_->links[link].bandwidth, hosts)).first;
    }
    made = found->second;
  } else {
    made = add(network_->links[link].bandwidth, 1);
  }
  return made;
}

int FluidLinks::add(double bytes_per_second, int links) {
  links_of_capacity_.push_back(links);
  return fluid_->add_capacity(bytes_per_second / 1e6);
}

void check_hosts_of_ranks(int size, const network::Network& network, std::span<const int> host_of_rank) {
  if (static_cast<int>(host_of_rank.size()) != size) throw std::invalid_argument("fluid model: one host per rank");
  for (int r = 0; r < size; ++r) {
    const int host = host_of_rank[static_cast<std::size_t>(r)];
    if (host < 0 || host >= network.host_count()) {
      throw std::invalid_argument("fluid model: rank " + std::to_string(r) + " runs on no host of the network");
    }
  }
}

std::vector<int> clusters_of_ranks(int size, const network::Network& network, std::span<const int> host_of_rank) {
  check_hosts_of_ranks(size, network, host_of_rank);
  std::vector<int> cluster(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) {
    cluster[static_cast<std::size_t>(r)] = network.cluster_of(host_of_rank[static_cast<std::size_t>(r)]);
  }
  return cluster;
}

double copy_us(const FluidParameters& parameters, std::size_t bytes) {
  return parameters.copy_bytes_per_us > 0.0 ? static_cast<double>(bytes) / parameters.copy_bytes_per_us : 0.0;
}

}  // namespace topocoll::fluid
