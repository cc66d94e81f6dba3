// The SimGrid platform of a network (network.hpp): one zone with Full routing holding a
// <cluster> for each cluster, every link that is not a cluster's own, and a zoneRoute for every
// pair of clusters through their gateway routers. A pair whose route crosses a SPLITDUPLEX link
// gets one route each way, naming the link's direction; otherwise one symmetrical route.
#pragma once

#include <string>
#include <string_view>

#include "network/network.hpp"

namespace topocoll::network {

// `comment` goes into the file's opening XML comment (it must not hold "--"); `generated_by`,
// the command that regenerates the file, into the zone's generated-by property.
std::string simgrid_platform_xml(const Network& network, std::string_view comment, std::string_view generated_by);

// The gateway router of a cluster: NAME-router.
std::string router_name(std::string_view cluster);

}  // namespace topocoll::network
