// The description of a cluster platform as topocoll-platform's command line gives it: the
// options of `two-clusters`, `clusters` and `bound`, their parsing into a network description
// (src/network/clusters.hpp), and the same from the command a generated platform records (its
// generated-by property), which topocoll-plan reads to know the network a platform describes.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "network/clusters.hpp"
#include "network/mlfm.hpp"
#include "network/switch_tree.hpp"
#include "network/units.hpp"

namespace topocoll::tools {

// The description as typed: quantities stay text until they are parsed with their units.
struct DescriptionOptions {
  int n1 = 0;
  int n2 = 0;
  std::vector<int> nodes;
  std::vector<std::string> names;
  std::string wan = "pairs";
  std::string host_speed = network::format_speed(network::ClustersSpec{}.host_speed);
  std::string node_bw = network::format_bandwidth(network::ClustersSpec{}.node_bandwidth);
  std::string node_lat = network::format_latency(network::ClustersSpec{}.node_latency);
  std::string switch_bw = network::format_bandwidth(network::ClustersSpec{}.switch_bandwidth);
  std::string switch_lat = network::format_latency(network::ClustersSpec{}.switch_latency);
  std::string switch_sharing{network::sharing_name(network::ClustersSpec{}.switch_sharing)};
  std::string wan_bw = network::format_bandwidth(network::ClustersSpec{}.wan_bandwidth);
  std::string wan_lat = network::format_latency(network::ClustersSpec{}.wan_latency);
  std::string wan_sharing{network::sharing_name(network::ClustersSpec{}.wan_sharing)};
};

// Two clusters (--n1, --n2: two-clusters, and bound without --nodes) or any number (--nodes).
enum class Counts { two, any, either };

void add_description_options(CLI::App& command, DescriptionOptions& d, Counts counts);
// The description, checked; throws CLI::ValidationError naming the option at fault.
network::ClustersSpec make_spec(const DescriptionOptions& d);

// A switch tree as typed.
struct SwitchTreeOptions {
  int leaves = 0;
  std::vector<int> hosts_per_leaf;
  std::vector<int> ranks_per_host{1};
  std::string loopback_bw = network::format_bandwidth(network::SwitchTreeSpec{}.loopback_bandwidth);
  std::string loopback_lat = network::format_latency(network::SwitchTreeSpec{}.loopback_latency);
  int spines = network::SwitchTreeSpec{}.spines;
  int uplinks = network::SwitchTreeSpec{}.uplinks;
  std::string prefix = network::SwitchTreeSpec{}.prefix;
  std::string host_speed = network::format_speed(network::SwitchTreeSpec{}.host_speed);
  std::string node_bw = network::format_bandwidth(network::SwitchTreeSpec{}.node_bandwidth);
  std::string node_lat = network::format_latency(network::SwitchTreeSpec{}.node_latency);
  std::string switch_lat = network::format_latency(network::SwitchTreeSpec{}.switch_latency);
  std::string uplink_bw = network::format_bandwidth(network::SwitchTreeSpec{}.uplink_bandwidth);
  std::string uplink_lat = network::format_latency(network::SwitchTreeSpec{}.uplink_latency);
};

void add_switch_tree_options(CLI::App& command, SwitchTreeOptions& o);
network::SwitchTreeSpec make_switch_tree_spec(const SwitchTreeOptions& o);

// A multi-layer full mesh as typed.
struct MlfmOptions {
  int d = 0;
  int last_layer_servers = 0;
  std::string host_speed = network::format_speed(network::MlfmSpec{}.host_speed);
  std::string leaf_bw = "3770MiBps";
  std::string spine_bw = "3770MiBps";
  std::string latency = network::format_latency(network::MlfmSpec{}.latency);
  std::string switch_latency = network::format_latency(network::MlfmSpec{}.switch_latency);
};

void add_mlfm_options(CLI::App& command, MlfmOptions& o);
network::MlfmSpec make_mlfm_spec(const MlfmOptions& o);

// The network a platform file written by topocoll-platform describes, from the command it
// records; throws std::runtime_error saying why when the file cannot be read or records no
// such command.
network::Network network_of_platform(const std::string& platform_xml);

}  // namespace topocoll::tools
