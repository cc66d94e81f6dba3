// topocoll-platform's description options (see platform_description.hpp).
#include "network/platform_description.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "network/units.hpp"

namespace topocoll::network {

namespace {

template <typename Parse>
double parse_or_throw(Parse parse, const std::string& text, const std::string& option) {
  std::string error;
  const auto value = parse(text, &error);
  if (!value) throw CLI::ValidationError(option, error);
  return *value;
}

}  // namespace

void add_description_options(CLI::App& command, DescriptionOptions& d, Counts counts) {
  if (counts != Counts::any) {
    auto* n1 = command.add_option("--n1", d.n1, "Nodes (one rank each) of cluster 1: ranks 0..n1-1");
    auto* n2 = command.add_option("--n2", d.n2, "Nodes of cluster 2: ranks n1..n1+n2-1");
    if (counts == Counts::two) {
      n1->required();
      n2->required();
    }
  }
  if (counts != Counts::two) {
    auto* nodes = command.add_option("--nodes", d.nodes, "Nodes (one rank each) per cluster, in rank order: N1,N2,...")
                      ->delimiter(',');
    if (counts == Counts::any) nodes->required();
    command.add_option("--wan", d.wan,
                       "pairs: a backbone link between every pair of clusters; core: one link from every cluster "
                       "to a WAN core that joins them all")
        ->check(CLI::IsMember({"pairs", "core"}))
        ->capture_default_str();
  }
  command.add_option("--names", d.names, "Cluster ids; hosts are NAME-0, NAME-1, ... (default c1,c2,...)")
      ->delimiter(',');
  command.add_option("--host-speed", d.host_speed, "Host speed (charged local copies only)")->capture_default_str();
  command.add_option("--node-bw", d.node_bw, "Each node's link to its switch (full duplex)")->capture_default_str();
  command.add_option("--node-lat", d.node_lat, "Latency of each node's link")->capture_default_str();
  command.add_option("--switch-bw", d.switch_bw,
                     "Each cluster's switch (SimGrid cluster backbone): a SHARED switch's capacity, a FATPIPE "
                     "switch's per-flow cap; unused by NONBLOCKING")
      ->capture_default_str();
  command.add_option("--switch-lat", d.switch_lat, "Latency through a switch")->capture_default_str();
  command.add_option("--switch-sharing", d.switch_sharing,
                     "NONBLOCKING (a SHARED capacity of all its ports, 2 x nodes x --node-bw), FATPIPE (the "
                     "same allocations, much slower to simulate) or SHARED (one capacity, --switch-bw)")
      ->check(CLI::IsMember({"NONBLOCKING", "FATPIPE", "SHARED"}))
      ->capture_default_str();
  command.add_option("--wan-bw", d.wan_bw, "The backbone between the clusters")->capture_default_str();
  command.add_option("--wan-lat", d.wan_lat, "One-way latency of the backbone")->capture_default_str();
  command.add_option("--wan-sharing", d.wan_sharing, "SPLITDUPLEX (each direction), SHARED or FATPIPE")
      ->check(CLI::IsMember({"SPLITDUPLEX", "SHARED", "FATPIPE"}))
      ->capture_default_str();
}

ClustersSpec make_spec(const DescriptionOptions& d) {
  ClustersSpec spec;
  if (!d.nodes.empty() && (d.n1 != 0 || d.n2 != 0)) {
    throw CLI::ValidationError("--nodes", "give either --nodes or --n1 and --n2");
  }
  spec.nodes = d.nodes.empty() ? std::vector<int>{d.n1, d.n2} : d.nodes;
  spec.wan = d.wan == "core" ? WanDesign::core : WanDesign::pairs;
  spec.names = d.names;
  if (spec.names.empty()) {
    for (std::size_t c = 0; c < spec.nodes.size(); ++c) spec.names.push_back("c" + std::to_string(c + 1));
  }
  spec.host_speed = parse_or_throw(parse_speed, d.host_speed, "--host-speed");
  spec.node_bandwidth = parse_or_throw(parse_bandwidth, d.node_bw, "--node-bw");
  spec.node_latency = parse_or_throw(parse_latency, d.node_lat, "--node-lat");
  spec.switch_bandwidth = parse_or_throw(parse_bandwidth, d.switch_bw, "--switch-bw");
  spec.switch_latency = parse_or_throw(parse_latency, d.switch_lat, "--switch-lat");
  spec.switch_sharing = *parse_sharing(d.switch_sharing);
  spec.wan_bandwidth = parse_or_throw(parse_bandwidth, d.wan_bw, "--wan-bw");
  spec.wan_latency = parse_or_throw(parse_latency, d.wan_lat, "--wan-lat");
  spec.wan_sharing = *parse_sharing(d.wan_sharing);
  if (const auto problem = check_spec(spec)) throw CLI::ValidationError("the description", *problem);
  return spec;
}


void add_switch_tree_options(CLI::App& command, SwitchTreeOptions& o) {
  command.add_option("--leaves", o.leaves, "Leaf switches")->required();
  command.add_option("--hosts-per-leaf", o.hosts_per_leaf, "Hosts under each leaf: one count for all, or one per leaf (8,32)")
      ->delimiter(',')
      ->required();
  command.add_option("--ranks-per-host", o.ranks_per_host,
                     "Ranks on each host (its cores): one count for all, or one per leaf (16,8)")
      ->delimiter(',')
      ->capture_default_str();
  command.add_option("--loopback-bw", o.loopback_bw, "Between the ranks of one host (with --ranks-per-host above 1)")
      ->capture_default_str();
  command.add_option("--loopback-lat", o.loopback_lat, "Latency between the ranks of one host")->capture_default_str();
  command.add_option("--spines", o.spines, "Spine switches")->capture_default_str();
  command.add_option("--uplinks", o.uplinks, "Links from each leaf up (uplink U to spine U mod spines)")
      ->capture_default_str();
  command.add_option("--prefix", o.prefix, "Leaf i is PREFIXi, its hosts PREFIXi-0, PREFIXi-1, ...")
      ->capture_default_str();
  command.add_option("--host-speed", o.host_speed, "Host speed (charged local copies only)")->capture_default_str();
  command.add_option("--node-bw", o.node_bw, "Each host's link to its leaf (full duplex)")->capture_default_str();
  command.add_option("--node-lat", o.node_lat, "Latency of each host's link")->capture_default_str();
  command.add_option("--switch-lat", o.switch_lat, "Latency through a leaf switch (non-blocking)")
      ->capture_default_str();
  command.add_option("--uplink-bw", o.uplink_bw, "Each uplink (full duplex)")->capture_default_str();
  command.add_option("--uplink-lat", o.uplink_lat, "Latency of each uplink")->capture_default_str();
}

SwitchTreeSpec make_switch_tree_spec(const SwitchTreeOptions& o) {
  SwitchTreeSpec spec;
  spec.leaves = o.leaves;
  spec.hosts_per_leaf = o.hosts_per_leaf;
  spec.ranks_per_host = o.ranks_per_host;
  spec.loopback_bandwidth = parse_or_throw(parse_bandwidth, o.loopback_bw, "--loopback-bw");
  spec.loopback_latency = parse_or_throw(parse_latency, o.loopback_lat, "--loopback-lat");
  spec.spines = o.spines;
  spec.uplinks = o.uplinks;
  spec.prefix = o.prefix;
  spec.host_speed = parse_or_throw(parse_speed, o.host_speed, "--host-speed");
  spec.node_bandwidth = parse_or_throw(parse_bandwidth, o.node_bw, "--node-bw");
  spec.node_latency = parse_or_throw(parse_latency, o.node_lat, "--node-lat");
  spec.switch_latency = parse_or_throw(parse_latency, o.switch_lat, "--switch-lat");
  spec.uplink_bandwidth = parse_or_throw(parse_bandwidth, o.uplink_bw, "--uplink-bw");
  spec.uplink_latency = parse_or_throw(parse_latency, o.uplink_lat, "--uplink-lat");
  if (const auto problem = check_spec(spec)) throw CLI::ValidationError("the description", *problem);
  return spec;
}

void add_mlfm_options(CLI::App& command, MlfmOptions& o) {
  command.add_option("--d", o.d, "Switches of 2D ports: D layers of D+1 leaves, D servers per leaf, D(D+1)/2 spines")
      ->required();
  command.add_option("--last-layer-servers", o.last_layer_servers,
                     "Servers on each leaf of the last layer (default D; the paper's testbed: 2)");
  command.add_option("--host-speed", o.host_speed, "Host speed (charged local copies only)")->capture_default_str();
  command.add_option("--leaf-bandwidth", o.leaf_bw, "Each server's link to its leaf (full duplex)")
      ->capture_default_str();
  command.add_option("--spine-bandwidth", o.spine_bw, "Each leaf's link to a spine (full duplex)")
      ->capture_default_str();
  command.add_option("--latency", o.latency, "Latency of each link")->capture_default_str();
  command.add_option("--switch-latency", o.switch_latency, "Latency through a leaf or spine switch (non-blocking)")
      ->capture_default_str();
}

MlfmSpec make_mlfm_spec(const MlfmOptions& o) {
  MlfmSpec spec;
  spec.d = o.d;
  spec.last_layer_servers = o.last_layer_servers;
  spec.host_speed = parse_or_throw(parse_speed, o.host_speed, "--host-speed");
  spec.leaf_bandwidth = parse_or_throw(parse_bandwidth, o.leaf_bw, "--leaf-bandwidth");
  spec.spine_bandwidth = parse_or_throw(parse_bandwidth, o.spine_bw, "--spine-bandwidth");
  spec.latency = parse_or_throw(parse_latency, o.latency, "--latency");
  spec.switch_latency = parse_or_throw(parse_latency, o.switch_latency, "--switch-latency");
  if (const auto problem = check_spec(spec)) throw CLI::ValidationError("the description", *problem);
  return spec;
}

Network network_of_platform(const std::string& platform_xml) {
  std::ifstream in(platform_xml, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + platform_xml);
  std::ostringstream text;
  text << in.rdbuf();
  const std::string xml = text.str();
  // The recorded command: <prop id="generated-by" value="topocoll-platform SUBCOMMAND ARGS..."/>
  const std::string head = "<prop id=\"generated-by\" value=\"topocoll-platform ";
  const auto at = xml.find(head);
  const auto end = at == std::string::npos ? at : xml.find('"', at + head.size());
  std::istringstream command(at == std::string::npos || end == std::string::npos
                                 ? std::string()
                                 : xml.substr(at + head.size(), end - at - head.size()));
  std::string subcommand;
  command >> subcommand;
  if (subcommand != "two-clusters" && subcommand != "clusters" && subcommand != "switch-tree" &&
      subcommand != "mlfm") {
    throw std::runtime_error(platform_xml + " records no topocoll-platform two-clusters, clusters, switch-tree or "
                             "mlfm command (only platforms made by topocoll-platform describe their network)");
  }
  std::vector<std::string> words;
  for (std::string word; command >> word;) words.push_back(word);
  std::reverse(words.begin(), words.end());  // CLI11 parses a vector from its back
  CLI::App app;
  DescriptionOptions clusters;
  SwitchTreeOptions tree;
  MlfmOptions mesh;
  std::string unused;
  const bool is_tree = subcommand == "switch-tree", is_mesh = subcommand == "mlfm";
  if (is_tree) {
    add_switch_tree_options(app, tree);
  } else if (is_mesh) {
    add_mlfm_options(app, mesh);
  } else {
    add_description_options(app, clusters, subcommand == "two-clusters" ? Counts::two : Counts::any);
  }
  app.add_option("--name", unused);
  app.add_option("--topology-format", unused);
  try {
    app.parse(words);
    if (is_mesh) return mlfm_network(make_mlfm_spec(mesh));
    return is_tree ? switch_tree_network(make_switch_tree_spec(tree)) : clusters_network(make_spec(clusters));
  } catch (const CLI::Error& error) {
    throw std::runtime_error(platform_xml + ": its recorded command does not parse: " + error.what());
  }
}

}  // namespace topocoll::network
