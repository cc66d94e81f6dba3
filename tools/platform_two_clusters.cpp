// The two-cluster platform, hostfile and topology file (see platform_two_clusters.hpp).
#include "platform_two_clusters.hpp"

#include <algorithm>
#include <sstream>

#include "platform_units.hpp"

namespace topocoll::platform {

namespace {

bool valid_name(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '-';
  });
}

std::string host_name(std::string_view cluster, int index) { return std::string(cluster) + "-" + std::to_string(index); }

std::string router_name(std::string_view cluster) { return std::string(cluster) + "-router"; }

// "c1-0..c1-29 (ranks 0..29)"
std::string describe_hosts(std::string_view cluster, int count, int first_rank) {
  std::ostringstream text;
  text << count << (count == 1 ? " node " : " nodes ") << host_name(cluster, 0);
  if (count > 1) text << ".." << host_name(cluster, count - 1);
  text << " (rank" << (count == 1 ? " " : "s ") << first_rank;
  if (count > 1) text << ".." << first_rank + count - 1;
  text << ")";
  return text.str();
}

// NONBLOCKING is topocoll's; SimGrid gets a SHARED link of the ports' capacity.
std::string_view simgrid_policy(Sharing sharing) {
  return sharing == Sharing::nonblocking ? sharing_name(Sharing::shared) : sharing_name(sharing);
}

void write_cluster(std::ostream& xml, const TwoClusterSpec& spec, std::string_view cluster, int count) {
  xml << "    <cluster id=\"" << cluster << "\" prefix=\"" << cluster << "-\" suffix=\"\" radical=\"0-" << count - 1
      << "\" speed=\"" << format_speed(spec.host_speed) << "\"\n"
      << "             bw=\"" << format_bandwidth(spec.node_bandwidth) << "\" lat=\""
      << format_latency(spec.node_latency) << "\" sharing_policy=\"SPLITDUPLEX\"\n"
      << "             bb_bw=\"" << format_bandwidth(spec.switch_capacity(count)) << "\" bb_lat=\""
      << format_latency(spec.switch_latency) << "\" bb_sharing_policy=\"" << simgrid_policy(spec.switch_sharing)
      << "\"\n"
      << "             router_id=\"" << router_name(cluster) << "\"/>\n";
}

void write_wan_routes(std::ostream& xml, const TwoClusterSpec& spec) {
  const std::string& a = spec.name1;
  const std::string& b = spec.name2;
  auto route_head = [&](const std::string& src, const std::string& dst, bool symmetrical) {
    xml << "    <zoneRoute src=\"" << src << "\" dst=\"" << dst << "\" gw_src=\"" << router_name(src) << "\" gw_dst=\""
        << router_name(dst) << "\" symmetrical=\"" << (symmetrical ? "YES" : "NO") << "\">\n";
  };
  if (spec.wan_sharing == Sharing::splitduplex) {
    route_head(a, b, false);
    xml << "      <link_ctn id=\"wan\" direction=\"UP\"/>\n    </zoneRoute>\n";
    route_head(b, a, false);
    xml << "      <link_ctn id=\"wan\" direction=\"DOWN\"/>\n    </zoneRoute>\n";
  } else {
    route_head(a, b, true);
    xml << "      <link_ctn id=\"wan\"/>\n    </zoneRoute>\n";
  }
}

std::string sharing_meaning(Sharing sharing) {
  switch (sharing) {
    case Sharing::shared: return "SHARED (one capacity shared by all flows, both directions)";
    case Sharing::splitduplex: return "SPLITDUPLEX (each direction has the full bandwidth)";
    case Sharing::fatpipe: return "FATPIPE (non-blocking: each flow may use the full bandwidth, no shared capacity)";
    case Sharing::nonblocking:
      return "non-blocking: one SHARED capacity equal to all its ports (2 x nodes x node link), which\n"
             "       no set of flows can exceed (each also crosses one of those links)";
  }
  return "";
}

// "10Gbps", or for a NONBLOCKING switch each cluster's capacity: "SHARED 60Gbps (c1), 80Gbps (c2)".
std::string describe_switch_bandwidth(const TwoClusterSpec& spec) {
  if (spec.switch_sharing != Sharing::nonblocking) return format_bandwidth(spec.switch_bandwidth);
  return "SHARED " + format_bandwidth(spec.switch_capacity(spec.n1)) + " (" + spec.name1 + "), " +
         format_bandwidth(spec.switch_capacity(spec.n2)) + " (" + spec.name2 + ")";
}

}  // namespace

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

double TwoClusterSpec::switch_capacity(int nodes) const {
  return switch_sharing == Sharing::nonblocking ? 2.0 * nodes * node_bandwidth : switch_bandwidth;
}

std::vector<std::string> TwoClusterSpec::hosts() const {
  std::vector<std::string> names;
  for (int i = 0; i < n1; ++i) names.push_back(host_name(name1, i));
  for (int i = 0; i < n2; ++i) names.push_back(host_name(name2, i));
  return names;
}

std::optional<std::string> check_spec(const TwoClusterSpec& spec) {
  if (spec.n1 < 1 || spec.n2 < 1) {
    return "each cluster needs at least one node (got n1 = " + std::to_string(spec.n1) +
           ", n2 = " + std::to_string(spec.n2) + ")";
  }
  for (const std::string* name : {&spec.name1, &spec.name2}) {
    if (!valid_name(*name)) {
      return "cluster name '" + *name + "' must be non-empty and use only letters, digits, '_', '.' and '-'";
    }
  }
  if (spec.name1 == spec.name2) return "the two clusters need different names (both are '" + spec.name1 + "')";
  if (spec.switch_sharing == Sharing::splitduplex) {
    return "a cluster switch (SimGrid backbone) is NONBLOCKING, SHARED or FATPIPE; SPLITDUPLEX applies to links";
  }
  if (spec.wan_sharing == Sharing::nonblocking) {
    return "NONBLOCKING applies to a cluster switch; the backbone is SPLITDUPLEX, SHARED or FATPIPE";
  }
  return std::nullopt;
}

std::string canonical_command(const TwoClusterSpec& spec, std::string_view name) {
  std::ostringstream command;
  command << "topocoll-platform two-clusters --n1 " << spec.n1 << " --n2 " << spec.n2 << " --names " << spec.name1
          << ',' << spec.name2 << " --host-speed " << format_speed(spec.host_speed) << " --node-bw "
          << format_bandwidth(spec.node_bandwidth) << " --node-lat " << format_latency(spec.node_latency)
          << " --switch-bw " << format_bandwidth(spec.switch_bandwidth) << " --switch-lat "
          << format_latency(spec.switch_latency) << " --switch-sharing " << sharing_name(spec.switch_sharing)
          << " --wan-bw " << format_bandwidth(spec.wan_bandwidth) << " --wan-lat " << format_latency(spec.wan_latency)
          << " --wan-sharing " << sharing_name(spec.wan_sharing) << " --topology-format "
          << (spec.topology_format == TopologyFormat::hosts ? "hosts" : "ranks") << " --name " << name;
  return command.str();
}

std::string platform_xml(const TwoClusterSpec& spec, std::string_view name) {
  std::ostringstream xml;
  // XML comments may not contain two hyphens in a row: the command goes into a property.
  xml << "<?xml version='1.0'?>\n"
      << "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      << "<!-- " << name << ": two clusters joined by a backbone (LG paper, Fig. 1), generated by\n"
      << "     topocoll-platform with the command in the zone's generated-by property; change the command,\n"
      << "     not this file. docs/platforms.md says where every value comes from. One rank per node.\n"
      << "     Cluster " << spec.name1 << ": " << describe_hosts(spec.name1, spec.n1, 0) << ".\n"
      << "     Cluster " << spec.name2 << ": " << describe_hosts(spec.name2, spec.n2, spec.n1) << ".\n"
      << "     Each node: " << format_speed(spec.host_speed) << ", one link to its cluster's switch: "
      << format_bandwidth(spec.node_bandwidth) << ", " << format_latency(spec.node_latency)
      << ", SPLITDUPLEX (full duplex).\n"
      << "     Each switch (the cluster's SimGrid backbone): " << describe_switch_bandwidth(spec) << ", "
      << format_latency(spec.switch_latency) << ",\n"
      << "       " << sharing_meaning(spec.switch_sharing) << ".\n"
      << "     Backbone between the gateways " << router_name(spec.name1) << " and " << router_name(spec.name2)
      << ": link wan, " << format_bandwidth(spec.wan_bandwidth) << ", " << format_latency(spec.wan_latency)
      << " one way,\n"
      << "       " << sharing_meaning(spec.wan_sharing) << ".\n"
      << "     Route latencies: inside a cluster " << format_latency(spec.local_route_latency())
      << " (node link, switch, node link); between the clusters " << format_latency(spec.cross_route_latency())
      << "\n"
      << "     (node link, switch, wan, switch, node link). SimGrid also caps every flow at\n"
      << "     network/TCP-gamma / (2 x route latency): scripts/simulate.sh pins TCP-gamma. -->\n"
      << "<platform version=\"4.1\">\n"
      << "  <zone id=\"world\" routing=\"Full\">\n"
      << "    <prop id=\"generated-by\" value=\"" << canonical_command(spec, name) << "\"/>\n";
  write_cluster(xml, spec, spec.name1, spec.n1);
  write_cluster(xml, spec, spec.name2, spec.n2);
  xml << "    <link id=\"wan\" bandwidth=\"" << format_bandwidth(spec.wan_bandwidth) << "\" latency=\""
      << format_latency(spec.wan_latency) << "\" sharing_policy=\"" << sharing_name(spec.wan_sharing) << "\"/>\n";
  write_wan_routes(xml, spec);
  xml << "  </zone>\n</platform>\n";
  return xml.str();
}

std::string hostfile_text(const TwoClusterSpec& spec) {
  std::string text;
  for (const std::string& host : spec.hosts()) text += host + "\n";
  return text;
}

std::string topology_json(const TwoClusterSpec& spec) {
  std::ostringstream json;
  const std::vector<std::string> hosts = spec.hosts();
  auto cluster_of = [&](std::size_t rank) {
    return rank < static_cast<std::size_t>(spec.n1) ? spec.name1 : spec.name2;
  };
  const bool by_host = spec.topology_format == TopologyFormat::hosts;
  json << "{\n  \"levels\": [\"cluster\"],\n  " << (by_host ? "\"hosts\": {" : "\"ranks\": [") << '\n';
  for (std::size_t r = 0; r < hosts.size(); ++r) {
    json << "    ";
    if (by_host) json << '"' << hosts[r] << "\": ";
    json << "[\"" << cluster_of(r) << "\"]" << (r + 1 < hosts.size() ? "," : "") << '\n';
  }
  json << "  " << (by_host ? '}' : ']') << "\n}\n";
  return json.str();
}

}  // namespace topocoll::platform
