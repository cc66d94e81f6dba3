// A multi-layer full mesh (MLFM, mlfm-congestion-free-all-to-all.txt, section 1 and Fig. 2) of
// 2D-port switches as a Network, and its three files. D layers of D + 1 leaf switches; leaf
// (i, j) (layer i, column j) holds D servers (K on the leaves of the last layer, as in the
// paper's 32-server testbed), server (i, j, k) in slot k; D(D+1)/2 spine switches, spine
// {j0, j1} linked to leaf j0 and leaf j1 of every layer, so each leaf has D server ports and D
// spine ports.
//
// Routes: within a leaf through the leaf only; between columns j != j' through spine {j, j'}
// (the only one); within a column between layers through spine {j, (j + k + 1) mod (D + 1)},
// chosen by the sending server's slot k, so a route depends on its sender and not only on the
// two leaves. The Network therefore makes every server a cluster of its own (one host, its own
// link to its leaf) and `between[a][b]` is the route from server a to server b: leaf (and
// spine) hops, as explicit as the SimGrid platform's zoneRoute per ordered pair of servers.
//
// Topology: levels "column", "layer", "slot", each server's groups "columnJ", "layerI",
// "slotK". The column is outermost because a topology names a group by its path from the
// outermost level: so column J is one group in every layer, as spine {j0, j1} joins the leaves
// of columns j0 and j1 of every layer, and the `mlfm` algorithm reads a rank's coordinates from
// these three levels (algorithms/mlfm.hpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "network/network.hpp"

namespace topocoll::network {

struct MlfmSpec {
  int d = 3;                   // switches of 2d ports: d layers, d + 1 columns, d servers per leaf
  int last_layer_servers = 0;  // servers on each leaf of the last layer (0: d)
  double host_speed = 4e9;              // flop/s
  double leaf_bandwidth = 3770.0 * 1024 * 1024;   // bytes/s, each server's link to its leaf
  double spine_bandwidth = 3770.0 * 1024 * 1024;  // bytes/s, each leaf's link to a spine
  double latency = 500e-9;              // seconds, each link
  double switch_latency = 100e-9;       // seconds, through a leaf or spine switch
  TopologyFormat topology_format = TopologyFormat::hosts;

  int layers() const { return d; }
  int columns() const { return d + 1; }
  int servers_per_leaf(int layer) const { return layer == d - 1 && last_layer_servers > 0 ? last_layer_servers : d; }
  int servers() const;
};

// The most layers a generated MLFM may have (its platform lists a route per ordered pair of
// servers: 63,252 routes at D = 6).
constexpr int kMlfmMaxD = 6;

// A server's coordinates.
struct MlfmServer {
  int layer = 0;
  int column = 0;
  int slot = 0;
};

// A job's servers: the box layer < layers, column < columns, slot < slots.
struct MlfmBox {
  int layers = 1;
  int columns = 2;
  int slots = 1;
  int size() const { return layers * columns * slots; }
};

std::optional<std::string> check_spec(const MlfmSpec& spec);
// Why `box` is not a job the network can run congestion-free (1 <= slots <= columns - 1 <= D,
// 1 <= layers <= D, and the slots exist on every leaf of its layers), or nullopt.
std::optional<std::string> check_box(const MlfmSpec& spec, const MlfmBox& box);

// Host index of a server (servers in order of layer, column, slot).
int mlfm_host(const MlfmSpec& spec, const MlfmServer& server);
std::string mlfm_server_name(const MlfmServer& server);  // "server0.1.2"; its host "server0.1.2-0"
// The spine a server's route within its column (to another layer) goes through: the column
// (j + k + 1) mod (D + 1) it shares with column j.
int mlfm_same_column_spine_partner(const MlfmSpec& spec, const MlfmServer& server);

Network mlfm_network(const MlfmSpec& spec);
std::string canonical_command(const MlfmSpec& spec, std::string_view name);
std::string platform_xml(const MlfmSpec& spec, std::string_view name);
// The hostfile of a job's servers, in rank order (layer, then column, then slot).
std::string job_hostfile_text(const MlfmSpec& spec, const MlfmBox& box);

}  // namespace topocoll::network
