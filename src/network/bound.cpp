// Lower bound of a total exchange from a network's cuts (see bound.hpp).
#include "network/bound.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace topocoll::network {

namespace {

// One capacity of a link: both directions of a SHARED link, one of a SPLITDUPLEX one. The
// bytes of the blocks through it, per route latency (integers: sums are exact).
struct Cut {
  std::map<double, unsigned long long> bytes_by_latency;
};

// A cut's time, and the route latency in front of the bytes that set it.
struct CutTime {
  double seconds = 0.0;
  double latency = 0.0;
};

CutTime cut_time(const Cut& cut, double bandwidth) {
  CutTime time;
  unsigned long long at_least = 0;  // bytes of the routes whose latency is at least the current one
  for (auto it = cut.bytes_by_latency.rbegin(); it != cut.bytes_by_latency.rend(); ++it) {
    at_least += it->second;
    const double seconds = it->first + static_cast<double>(at_least) / bandwidth;
    if (seconds > time.seconds) time = {seconds, it->first};
  }
  return time;
}

int role_rank(const std::string& role) {
  if (role == "node-link") return 0;
  if (role == "wan") return 1;
  if (role == "switch") return 2;
  return 3;
}

// The bound of blocks sent between hosts; `for_each_block(add)` calls add(a, b, bytes) once per
// block of `bytes` bytes from host a to another host b (a flow, with its latency, even empty).
template <typename ForEachBlock>
AlltoallBound bound_of_blocks(const Network& network, ForEachBlock&& for_each_block) {
  // Index 2 * link + direction (direction 0 for a SHARED link's single capacity).
  std::vector<Cut> cuts(2 * network.links.size());
  AlltoallBound bound;
  std::vector<Hop> hops;
  for_each_block([&](int a, int b, std::size_t bytes) {
    network.route(a, b, hops);
    const double latency = network.latency(hops);
    bound.latency = std::max(bound.latency, latency);
    for (const Hop& h : hops) {
      const Link& link = network.links[static_cast<std::size_t>(h.link)];
      if (!link.is_cut()) continue;
      const int direction = link.sharing == Sharing::splitduplex && h.down ? 1 : 0;
      cuts[2 * static_cast<std::size_t>(h.link) + direction].bytes_by_latency[latency] += bytes;
    }
  });
  std::map<std::string, double> latency_of_role;  // in front of each role's worst cut
  for (std::size_t i = 0; i < cuts.size(); ++i) {
    if (cuts[i].bytes_by_latency.empty()) continue;
    const Link& link = network.links[i / 2];
    const CutTime time = cut_time(cuts[i], link.bandwidth);
    const double seconds = time.seconds;
    auto it = std::find_if(bound.by_role.begin(), bound.by_role.end(),
                           [&](const auto& entry) { return entry.first == link.role; });
    if (it == bound.by_role.end()) {
      bound.by_role.push_back({link.role, seconds});
      latency_of_role[link.role] = time.latency;
    } else if (seconds > it->second) {
      it->second = seconds;
      latency_of_role[link.role] = time.latency;
    }
    if (seconds > bound.seconds) {
      bound.seconds = seconds;
      bound.worst_link = link.id;
    }
  }
  std::stable_sort(bound.by_role.begin(), bound.by_role.end(),
                   [](const auto& x, const auto& y) { return role_rank(x.first) < role_rank(y.first); });
  bound.seconds = bound.latency;
  bound.limited_by = "latency";
  double latency_in_front = bound.latency;
  for (const auto& [role, seconds] : bound.by_role) {
    if (seconds > bound.seconds) {
      bound.seconds = seconds;
      bound.limited_by = role;
      latency_in_front = latency_of_role[role];
    }
  }
  // A cut whose bytes take less time than the latency in front of them (that of the routes
  // whose bytes set the cut's time, not the longest route's): latency-bound.
  if (bound.seconds < 2 * latency_in_front) bound.limited_by = "latency";
  return bound;
}

}  // namespace

double AlltoallBound::role(const std::string& name) const {
  for (const auto& [r, seconds] : by_role)
    if (r == name) return seconds;
  return 0.0;
}

AlltoallBound alltoall_lower_bound(const Network& network, std::size_t block_bytes) {
  if (network.one_rank_per_host()) {
    const int hosts = network.host_count();
    return bound_of_blocks(network, [&](auto&& add) {
      for (int a = 0; a < hosts; ++a)
        for (int b = 0; b < hosts; ++b)
          if (a != b) add(a, b, block_bytes);
    });
  }
  if (!(network.loopback_bandwidth > 0.0)) {
    throw std::invalid_argument("the bound of a total exchange with several ranks per host needs the hosts' loopback "
                                "(--loopback-bw)");
  }
  // Every rank's blocks to the ranks of other hosts cross the routes between the hosts, so a
  // host's link carries all its ranks' blocks: the cuts, as for one rank per host, with the
  // blocks of a pair of hosts (ranks of one times ranks of the other) added at once, O(hosts^2).
  std::vector<int> ranks_of_host;
  for (const Cluster& c : network.clusters)
    ranks_of_host.insert(ranks_of_host.end(), static_cast<std::size_t>(c.hosts), c.ranks_per_host);
  const int hosts = static_cast<int>(ranks_of_host.size());
  AlltoallBound bound = bound_of_blocks(network, [&](auto&& add) {
    for (int a = 0; a < hosts; ++a)
      for (int b = 0; b < hosts; ++b)
        if (a != b) {
          const auto pairs = static_cast<std::size_t>(ranks_of_host[static_cast<std::size_t>(a)]) *
                             static_cast<std::size_t>(ranks_of_host[static_cast<std::size_t>(b)]);
          add(a, b, pairs * block_bytes);
        }
  });
  // The blocks between the ranks of one host cross its loopback, a FATPIPE link in SimGrid:
  // no cut (every flow has the whole bandwidth), but each takes its latency and its bytes at
  // its bandwidth.
  const double loopback = network.loopback_latency + static_cast<double>(block_bytes) / network.loopback_bandwidth;
  bound.by_role.emplace_back("loopback", loopback);
  bound.latency = std::max(bound.latency, network.loopback_latency);
  if (loopback > bound.seconds) {
    bound.seconds = loopback;
    bound.worst_link = "loopback";
    bound.limited_by = loopback < 2 * network.loopback_latency ? "latency" : "loopback";
  }
  return bound;
}

AlltoallBound rooted_lower_bound(const Network& network, const std::vector<int>& host_of_rank, int root,
                                 std::size_t block_bytes, bool from_root) {
  if (root < 0 || root >= static_cast<int>(host_of_rank.size())) {
    throw std::invalid_argument("root " + std::to_string(root) + " is not one of the " +
                                std::to_string(host_of_rank.size()) + " ranks");
  }
  const int root_host = host_of_rank[static_cast<std::size_t>(root)];
  return bound_of_blocks(network, [&](auto&& add) {
    for (const int host : host_of_rank) {
      if (host == root_host) continue;
      if (from_root) {
        add(root_host, host, block_bytes);
      } else {
        add(host, root_host, block_bytes);
      }
    }
  });
}

AlltoallBound alltoallv_lower_bound(const Network& network, const std::vector<int>& host_of_rank,
                                    const std::function<std::size_t(int, int)>& bytes) {
  const int p = static_cast<int>(host_of_rank.size());
  return bound_of_blocks(network, [&](auto&& add) {
    for (int i = 0; i < p; ++i) {
      for (int j = 0; j < p; ++j) {
        const int a = host_of_rank[static_cast<std::size_t>(i)], b = host_of_rank[static_cast<std::size_t>(j)];
        if (a == b) continue;
        if (const std::size_t block = bytes(i, j); block > 0) add(a, b, block);
      }
    }
  });
}

}  // namespace topocoll::network
