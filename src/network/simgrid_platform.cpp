// The SimGrid platform of a network (see simgrid_platform.hpp).
#include "network/simgrid_platform.hpp"

#include <set>
#include <sstream>

#include "network/units.hpp"

namespace topocoll::network {

namespace {

// NONBLOCKING is topocoll's; SimGrid gets a SHARED link of the ports' capacity.
std::string_view simgrid_policy(Sharing sharing) {
  return sharing == Sharing::nonblocking ? sharing_name(Sharing::shared) : sharing_name(sharing);
}

void write_cluster(std::ostream& xml, const Network& network, const Cluster& c) {
  const Link& node = network.links[static_cast<std::size_t>(c.first_host_link)];
  const Link& fabric = network.links[static_cast<std::size_t>(c.switch_link)];
  xml << "    <cluster id=\"" << c.name << "\" prefix=\"" << c.name << "-\" suffix=\"\" radical=\"0-" << c.hosts - 1
      << "\" speed=\"" << format_speed(network.host_speed) << '"';
  // A host runs its ranks on cores of their own: with one core (SimGrid's default) the local
  // copies topocoll charges as computation would queue behind each other's.
  if (c.ranks_per_host > 1) xml << " core=\"" << c.ranks_per_host << '"';
  xml << "\n"
      << "             bw=\"" << format_bandwidth(node.bandwidth) << "\" lat=\"" << format_latency(node.latency)
      << "\" sharing_policy=\"" << sharing_name(node.sharing) << "\"\n"
      << "             bb_bw=\"" << format_bandwidth(fabric.bandwidth) << "\" bb_lat=\""
      << format_latency(fabric.latency) << "\" bb_sharing_policy=\"" << simgrid_policy(fabric.sharing) << "\"\n"
      << "             router_id=\"" << router_name(c.name) << '"';
  // Ranks of one host talk through its loopback (a link of its own per host in SimGrid).
  if (c.ranks_per_host > 1 && network.loopback_bandwidth > 0.0) {
    xml << "\n             loopback_bw=\"" << format_bandwidth(network.loopback_bandwidth) << "\" loopback_lat=\""
        << format_latency(network.loopback_latency) << '"';
  }
  xml << "/>\n";
}

void write_route(std::ostream& xml, const Network& network, const Cluster& from, const Cluster& to,
                 const std::vector<Hop>& hops, bool symmetrical) {
  xml << "    <zoneRoute src=\"" << from.name << "\" dst=\"" << to.name << "\" gw_src=\"" << router_name(from.name)
      << "\" gw_dst=\"" << router_name(to.name) << "\" symmetrical=\"" << (symmetrical ? "YES" : "NO") << "\">\n";
  for (const Hop& h : hops) {
    const Link& link = network.links[static_cast<std::size_t>(h.link)];
    xml << "      <link_ctn id=\"" << link.id << '"';
    if (!symmetrical && link.sharing == Sharing::splitduplex) xml << " direction=\"" << (h.down ? "DOWN" : "UP") << '"';
    xml << "/>\n";
  }
  xml << "    </zoneRoute>\n";
}

}  // namespace

std::string router_name(std::string_view cluster) { return std::string(cluster) + "-router"; }

std::string simgrid_platform_xml(const Network& network, std::string_view comment, std::string_view generated_by) {
  std::ostringstream xml;
  // XML comments may not contain two hyphens in a row: the command goes into a property.
  xml << "<?xml version='1.0'?>\n"
      << "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      << "<!-- " << comment << " -->\n"
      << "<platform version=\"4.1\">\n"
      << "  <zone id=\"world\" routing=\"Full\">\n"
      << "    <prop id=\"generated-by\" value=\"" << generated_by << "\"/>\n";
  std::set<int> cluster_links;
  for (const Cluster& c : network.clusters) {
    write_cluster(xml, network, c);
    cluster_links.insert(c.switch_link);
    for (int i = 0; i < c.hosts; ++i) cluster_links.insert(c.first_host_link + i);
  }
  for (std::size_t l = 0; l < network.links.size(); ++l) {
    if (cluster_links.count(static_cast<int>(l)) != 0) continue;
    const Link& link = network.links[l];
    xml << "    <link id=\"" << link.id << "\" bandwidth=\"" << format_bandwidth(link.bandwidth) << "\" latency=\""
        << format_latency(link.latency) << "\" sharing_policy=\"" << simgrid_policy(link.sharing) << "\"/>\n";
  }
  for (std::size_t a = 0; a < network.clusters.size(); ++a) {
    for (std::size_t b = a + 1; b < network.clusters.size(); ++b) {
      const auto& there = network.between[a][b];
      bool directed = false;
      for (const Hop& h : there) directed = directed || network.links[static_cast<std::size_t>(h.link)].sharing == Sharing::splitduplex;
      write_route(xml, network, network.clusters[a], network.clusters[b], there, !directed);
      if (directed) write_route(xml, network, network.clusters[b], network.clusters[a], network.between[b][a], false);
    }
  }
  xml << "  </zone>\n</platform>\n";
  return xml.str();
}

}  // namespace topocoll::network
