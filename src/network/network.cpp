#include "network/network.hpp"

#include <algorithm>
#include <sstream>

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

std::string host_name(std::string_view cluster, int index) { return std::string(cluster) + "-" + std::to_string(index); }

bool is_valid_name(std::string_view name, bool dashes) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [dashes](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           (dashes && c == '-');
  });
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
  return network::host_name(c.name, host - c.first_host);
}

std::vector<std::string> Network::hosts() const {
  std::vector<std::string> names;
  for (const Cluster& c : clusters)
    for (int i = 0; i < c.hosts; ++i) names.push_back(network::host_name(c.name, i));
  return names;
}

std::vector<std::string> Network::rank_hosts() const {
  std::vector<std::string> names;
  for (const Cluster& c : clusters)
    for (int i = 0; i < c.hosts; ++i) names.insert(names.end(), static_cast<std::size_t>(c.ranks_per_host),
                                                   network::host_name(c.name, i));
  return names;
}

bool Network::one_rank_per_host() const {
  return std::all_of(clusters.begin(), clusters.end(), [](const Cluster& c) { return c.ranks_per_host == 1; });
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

std::string hostfile_text(const Network& network) {
  std::string text;
  for (const std::string& host : network.rank_hosts()) text += host + "\n";
  return text;
}

std::string topology_json(const Network& network, TopologyFormat format) {
  std::ostringstream json;
  const bool by_host = format == TopologyFormat::hosts;
  json << "{\n  \"levels\": [";
  for (std::size_t l = 0; l < network.levels.size(); ++l) json << (l ? ", " : "") << '"' << network.levels[l] << '"';
  json << "],\n  " << (by_host ? "\"hosts\": {" : "\"ranks\": [") << '\n';
  // One entry per host, or per rank (each host's ranks_per_host times).
  std::vector<std::pair<std::string, const Cluster*>> entries;
  for (const Cluster& c : network.clusters) {
    for (int i = 0; i < c.hosts; ++i) {
      entries.insert(entries.end(), by_host ? 1 : static_cast<std::size_t>(c.ranks_per_host),
                     {network::host_name(c.name, i), &c});
    }
  }
  for (std::size_t e = 0; e < entries.size(); ++e) {
    json << "    ";
    if (by_host) json << '"' << entries[e].first << "\": ";
    const Cluster& c = *entries[e].second;
    json << '[';
    for (std::size_t l = 0; l < c.groups.size(); ++l) json << (l ? ", " : "") << '"' << c.groups[l] << '"';
    json << ']' << (e + 1 < entries.size() ? "," : "") << '\n';
  }
  json << "  " << (by_host ? '}' : ']') << "\n}\n";
  return json.str();
}

}  // namespace topocoll::network
