// The description of a cluster platform as topocoll-platform's command line gives it: the
// options of `two-clusters`, `clusters` and `bound`, their parsing into a network description
// (src/network/clusters.hpp), and the same from the command a generated platform records (its
// generated-by property), which topocoll-plan reads to know the network a platform describes.
#pragma once

// smpicxx force-includes smpi_helpers.h, whose exit(x) macro would rewrite CLI11's App::exit;
// nothing here calls the C library's exit.
#ifdef exit
#undef exit
#endif
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "network/clusters.hpp"
#include "network/mlfm.hpp"
#include "network/switch_tree.hpp"
#include "network/units.hpp"

namespace topocoll::network {

// The description as typed: quantities stay text until they are parsed with their units.
struct DescriptionOptions {
  int n1 = 0;
  int n2 = 0;
  std::vector<int> nodes;
  std::vector<std::string> names;
  std::string wan = "pairs";
  std::string host_speed = format_speed(ClustersSpec{}.host_speed);
  std::string node_bw = format_bandwidth(ClustersSpec{}.node_bandwidth);
  std::string node_lat = format_latency(ClustersSpec{}.node_latency);
  std::string switch_bw = format_bandwidth(ClustersSpec{}.switch_bandwidth);
  std::string switch_lat = format_latency(ClustersSpec{}.switch_latency);
  std::string switch_sharing{sharing_name(ClustersSpec{}.switch_sharing)};
  std::string wan_bw = format_bandwidth(ClustersSpec{}.wan_bandwidth);
  std::string wan_lat = format_latency(ClustersSpec{}.wan_latency);
  std::string wan_sharing{sharing_name(ClustersSpec{}.wan_sharing)};
};

// Two clusters (--n1, --n2: two-clusters, and bound without --nodes) or any number (--nodes).
enum class Counts { two, any, either };

void add_description_options(CLI::App& command, DescriptionOptions& d, Counts counts);
// The description, checked; throws CLI::ValidationError naming the option at fault.
ClustersSpec make_spec(const DescriptionOptions& d);

// A switch tree as typed.
struct SwitchTreeOptions {
  int leaves = 0;
  std::vector<int> hosts_per_leaf;
  std::vector<int> ranks_per_host{1};
  std::string loopback_bw = format_bandwidth(SwitchTreeSpec{}.loopback_bandwidth);
  std::string loopback_lat = format_latency(SwitchTreeSpec{}.loopback_latency);
  int spines = SwitchTreeSpec{}.spines;
  int uplinks = SwitchTreeSpec{}.uplinks;
  std::string prefix = SwitchTreeSpec{}.prefix;
  std::string host_speed = format_speed(SwitchTreeSpec{}.host_speed);
  std::string node_bw = format_bandwidth(SwitchTreeSpec{}.node_bandwidth);
  std::string node_lat = format_latency(SwitchTreeSpec{}.node_latency);
  std::string switch_lat = format_latency(SwitchTreeSpec{}.switch_latency);
  std::string uplink_bw = format_bandwidth(SwitchTreeSpec{}.uplink_bandwidth);
  std::string uplink_lat = format_latency(SwitchTreeSpec{}.uplink_latency);
};

void add_switch_tree_options(CLI::App& command, SwitchTreeOptions& o);
SwitchTreeSpec make_switch_tree_spec(const SwitchTreeOptions& o);

// A multi-layer full mesh as typed.
struct MlfmOptions {
  int d = 0;
  int last_layer_servers = 0;
  std::string host_speed = format_speed(MlfmSpec{}.host_speed);
  std::string leaf_bw = "3770MiBps";
  std::string spine_bw = "3770MiBps";
  std::string latency = format_latency(MlfmSpec{}.latency);
  std::string switch_latency = format_latency(MlfmSpec{}.switch_latency);
};

void add_mlfm_options(CLI::App& command, MlfmOptions& o);
MlfmSpec make_mlfm_spec(const MlfmOptions& o);

// The network a platform file written by topocoll-platform describes, from the command it
// records; throws std::runtime_error saying why when the file cannot be read or records no
// such command. The tools (topocoll-plan --network) and the executor (CollectiveOptions::network,
// TOPOCOLL_NETWORK) read platforms with it.
Network network_of_platform(const std::string& platform_xml);

}  // namespace topocoll::network
