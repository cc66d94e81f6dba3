#include "network/network.hpp"

#include <algorithm>

namespace topocoll::network {

std::string_view sharing_name(Sharing sharing) {
  switch (sharing) {
    case Sharing::shared: return "SHARED";
    case Sharing::splitduplex: return "SPLITDUPLEX";
    case Sharing::fatpipe: return "FATPIPE";
    case Sharing::nonblocking: return "NONBLOCKING";
  }
  return "SHARED";
}

std::optional<Sharing> parse_sharing(std::string_view text) {
  for (Sharing s : {Sharing::shared, Sharing::splitduplex, Sharing::fatpipe, Sharing::nonblocking}) {
    if (text == sharing_name(s)) return s;
  }
  return std::nullopt;
}

int Network::host_count() const {
  int count = 0;
  for (const Cluster& c : clusters) count += c.hosts;
  return count;
}

int Network::cluster_of(int host) const {
  const auto it = std::upper_bound(clusters.begin(), clusters.end(), host,
                                   [](int h, const Cluster& c) { return h < c.first_host; });
  return static_cast<int>(it - clusters.begin()) - 1;
}

std::string Network::host_name(int host) const {
  const Cluster& c = clusters[static_cast<std::size_t>(cluster_of(host))];
  return c.name + "-" + std::to_string(host - c.first_host);
}

std::vector<std::string> Network::hosts() const {
  std::vector<std::string> names;
  for (const Cluster& c : clusters)
    for (int i = 0; i < c.hosts; ++i) names.push_back(c.name + "-" + std::to_string(i));
  return names;
}

void Network::route(int a, int b, std::vector<Hop>& hops) const {
  hops.clear();
  const int ca = cluster_of(a), cb = cluster_of(b);
  const Cluster& from = clusters[static_cast<std::size_t>(ca)];
  const Cluster& to = clusters[static_cast<std::size_t>(cb)];
  hops.push_back({from.first_host_link + (a - from.first_host), false});
  hops.push_back({from.switch_link, false});
  if (ca != cb) {
    const auto& middle = between[static_cast<std::size_t>(ca)][static_cast<std::size_t>(cb)];
    hops.insert(hops.end(), middle.begin(), middle.end());
    hops.push_back({to.switch_link, false});
  }
  hops.push_back({to.first_host_link + (b - to.first_host), true});
}

double Network::latency(const std::vector<Hop>& hops) const {
  double seconds = 0.0;
  for (const Hop& h : hops) seconds += links[static_cast<std::size_t>(h.link)].latency;
  return seconds;
}

}  // namespace topocoll::network
