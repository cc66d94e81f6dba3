// The platform's link caps on what topocoll-calibrate measures (calibration_limits.hpp).
#include "calibration_limits.hpp"

#include <algorithm>
#include <sstream>

#ifdef TOPOCOLL_SMPI
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#endif

namespace topocoll::calibrate {

#ifdef TOPOCOLL_SMPI
namespace {

// The links of the route from host a to host b, in order (a's loopback when a == b).
std::vector<simgrid::s4u::Link*> route_links(const std::string& a, const std::string& b) {
  std::vector<simgrid::s4u::Link*> links;
  const simgrid::s4u::Host* from = simgrid::s4u::Host::by_name_or_null(a);
  const simgrid::s4u::Host* to = simgrid::s4u::Host::by_name_or_null(b);
  if (from == nullptr || to == nullptr) return links;
  double latency = 0.0;
  from->route_to(to, links, &latency);
  return links;
}

}  // namespace

std::optional<LinkCap> platform_cap(const std::vector<std::string>& hosts, int from, const std::vector<int>& to,
                                    bool towards_from) {
  std::optional<std::vector<simgrid::s4u::Link*>> common;
  for (const int peer : to) {
    std::vector<simgrid::s4u::Link*> links =
        towards_from ? route_links(hosts.at(peer), hosts.at(from)) : route_links(hosts.at(from), hosts.at(peer));
    std::sort(links.begin(), links.end());
    if (!common) {
      common = links;
      continue;
    }
    std::vector<simgrid::s4u::Link*> both;
    std::set_intersection(common->begin(), common->end(), links.begin(), links.end(), std::back_inserter(both));
    common = both;
  }
  std::optional<LinkCap> cap;
  if (!common) return cap;
  for (const simgrid::s4u::Link* link : *common) {
    // A FATPIPE link caps each flow, not flows together.
    if (to.size() > 1 && link->get_sharing_policy() == simgrid::s4u::Link::SharingPolicy::FATPIPE) continue;
    if (!cap || link->get_bandwidth() < cap->bytes_per_s) cap = LinkCap{link->get_bandwidth(), link->get_name()};
  }
  return cap;
}
#else
std::optional<LinkCap> platform_cap(const std::vector<std::string>&, int, const std::vector<int>&, bool) {
  return std::nullopt;
}
#endif

std::optional<std::string> above_cap(const std::string& what, double measured, const std::optional<LinkCap>& cap) {
  if (!cap || !(measured > cap->bytes_per_s * (1.0 + 1e-6))) return std::nullopt;
  std::ostringstream text;
  text << what << " measured " << measured << " B/s, above the " << cap->bytes_per_s << " B/s of link '" << cap->link
       << "' that the platform declares on its route: the probe is wrong, not the platform";
  return text.str();
}

}  // namespace topocoll::calibrate
