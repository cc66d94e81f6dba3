// A machine's network as data: switched clusters of hosts, the links between them and the route
// of every host pair. One value serves the simulated machine (the SimGrid platform written from
// it), topocoll's view of it (hostfile and topology file), the lower bound of an operation on it
// (from its cuts, bound.hpp) and the load a schedule puts on each link. Generators build it from
// a short description (clusters.hpp). No MPI, no SimGrid: text and numbers only.
//
// A cluster is SimGrid's <cluster>: every host has its own link to the cluster's switch, and the
// switch is one link (SimGrid's backbone) that every route entering, leaving or staying in the
// cluster crosses once. Routes between clusters leave through the cluster's gateway router over
// the links `between` lists. A switch tree's leaves and a multi-layer mesh's routers are such
// clusters too, the links between them its uplinks or mesh links. A multi-layer full mesh
// (mlfm.hpp) makes each server a cluster of its own, so that `between` holds a route per ordered
// pair of servers: its routes within a column depend on the sender's slot, not only on the leaves.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topocoll::network {

// SimGrid's link sharing policies, and NONBLOCKING for a cluster switch: written as one SHARED
// capacity equal to all its ports (2 x nodes x node link), which no set of flows can exceed
// since every flow through the switch also crosses one of those links. It allocates what a
// FATPIPE switch does, and SimGrid 3.32 solves it far faster: its max-min solver recomputes a
// FATPIPE link's usage over all of the link's flows each time it fixes one (docs/platforms.md).
enum class Sharing { shared, splitduplex, fatpipe, nonblocking };
std::string_view sharing_name(Sharing sharing);  // SHARED, SPLITDUPLEX, FATPIPE, NONBLOCKING
std::optional<Sharing> parse_sharing(std::string_view text);

// How a topology file names the ranks: by host name (any number of ranks the hostfile places)
// or one entry per rank in hostfile order.
enum class TopologyFormat { hosts, ranks };

// Host `index` of a cluster (or leaf) named `cluster`: CLUSTER-INDEX, as SimGrid's <cluster>
// names them (prefix CLUSTER-).
std::string host_name(std::string_view cluster, int index);
// Whether `name` can name a cluster, a leaf or a file: letters, digits, '_', '.', and '-' when
// `dashes`.
bool is_valid_name(std::string_view name, bool dashes);

struct Link {
  std::string id;
  double bandwidth = 0.0;  // bytes/s
  double latency = 0.0;    // seconds
  Sharing sharing = Sharing::shared;
  std::string role;  // what the link is ("node-link", "switch", "wan"): the name of its cut in a bound
  // Whether flows can fill it: a FATPIPE link caps each flow only, and a NONBLOCKING switch has
  // the capacity of all its ports.
  bool is_cut() const { return sharing == Sharing::shared || sharing == Sharing::splitduplex; }
};

// A link on a route, and which way: a SPLITDUPLEX link has a capacity each way (UP from the side
// that declares it, DOWN back); other links have one capacity for both.
struct Hop {
  int link = 0;
  bool down = false;
};

struct Cluster {
  std::string name;  // hosts are NAME-0, NAME-1, ...; the gateway router NAME-router
  int first_host = 0;
  int hosts = 0;
  int first_host_link = 0;  // host first_host + i's link to the switch is link first_host_link + i
  int switch_link = 0;
  std::vector<std::string> groups;  // the cluster's group at each topology level, outermost first
  int ranks_per_host = 1;  // ranks of a job on each host (cores); those of one host talk through its loopback
};

class Network {
 public:
  std::vector<std::string> levels;  // topology levels, outermost first
  std::vector<Cluster> clusters;
  std::vector<Link> links;
  double host_speed = 4e9;  // flop/s (only charged local copies use it)
  // Within a host (ranks_per_host > 1): the loopback's bandwidth (bytes/s) and latency.
  double loopback_bandwidth = 0.0;
  double loopback_latency = 0.0;
  // between[a][b]: the hops from cluster a's gateway to cluster b's (a != b).
  std::vector<std::vector<std::vector<Hop>>> between;

  int host_count() const;
  std::string host_name(int host) const;
  std::vector<std::string> hosts() const;  // every host once, in rank order
  std::vector<std::string> rank_hosts() const;  // the host of every rank, in rank order: the hostfile
  bool one_rank_per_host() const;
  int cluster_of(int host) const;
  // The route from host a to host b (a != b): a's link up, a's switch, then, between clusters,
  // the hops between and b's switch, then b's link down.
  void route(int a, int b, std::vector<Hop>& hops) const;
  double latency(const std::vector<Hop>& hops) const;
};

// What topocoll sees of a network: the hostfile (hosts in rank order) and the topology file
// (each host's groups, keyed by host name or by rank).
std::string hostfile_text(const Network& network);
std::string topology_json(const Network& network, TopologyFormat format);

}  // namespace topocoll::network
