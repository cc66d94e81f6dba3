// Loading a Topology from the JSON topology file of DESIGN.md, or from any topology spec (a
// shorthand, a host-name pattern or a file path). MPI-free: the caller supplies the host name of
// every rank.
//
//   {"levels": ["cluster", "node"], "ranks": [["c1", "n0"], ["c1", "n0"], ["c2", "n5"]]}
//   {"levels": ["cluster", "switch"], "hosts": {"host-a": ["c1", "s0"], "host-b": ["c2", "s1"]}}
//
// "ranks" entry r describes rank r (outermost level first); "hosts" is keyed by the name
// MPI_Get_processor_name returns. A group is identified by its path from the outermost level,
// so inner names need only be unique within their parent ("n0" in c1 and "n0" in c2 differ).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topology/host_groups.hpp"
#include "topology/topology.hpp"

namespace topocoll {

// Where the ranks of a communicator run: for each of its ranks, its rank in the world
// (MPI_COMM_WORLD) and its host name.
struct RankPlacement {
  int world_size = 0;
  std::vector<int> world_rank;
  std::vector<std::string> host;
  // A world of hosts.size() ranks in which the communicator is the world.
  static RankPlacement whole_world(std::vector<std::string> hosts);
};

// A topology file as read, before any communicator's ranks are picked from it: its levels and
// either every world rank's groups ("ranks") or every host's ("hosts", in `groups`).
struct TopologyFileContent {
  HostGroups groups;  // levels, and the hosts' groups when !by_rank
  bool by_rank = false;
  std::vector<std::vector<std::string>> world;  // by_rank: world rank -> its group names
};

// Parses topology JSON text; nullopt with `error` naming the field or entry at fault.
std::optional<TopologyFileContent> parse_topology_file(std::string_view text, std::string* error);
// The topology of the communicator `placement` describes, picked from a file's content.
std::optional<Topology> topology_of_file(const TopologyFileContent& content, const RankPlacement& placement,
                                         std::string* error);

// Parses topology JSON text into the topology of the communicator `placement` describes:
// "ranks" lists every world rank, of which the members are picked; "hosts" is looked up by
// each member's host name. On error returns nullopt and sets `error` to a message naming the
// field or entry at fault.
std::optional<Topology> parse_topology_json(std::string_view text, const RankPlacement& placement,
                                            std::string* error);

// The topology of ranks named by their group at each level (`paths[r]`, outermost first, one name
// per level): group ids are dense per level, in order of first appearance.
Topology topology_for_group_names(std::vector<std::string> levels, const std::vector<std::vector<std::string>>& paths);

// The topology of the communicator `placement` describes, each rank in the groups of its host.
// Fails, naming the rank and host, when `groups` does not list a rank's host.
std::optional<Topology> topology_for_hosts(const HostGroups& groups, const RankPlacement& placement,
                                           std::string* error);

// A spec is a shorthand (clusters:N1,N2,... or flat:N, describing the world's ranks), a host-name
// pattern (pattern:REGEX, host_pattern.hpp) or the path of a topology file, which is read and
// parsed once per process (again when its size or modification time changes), whatever number of
// communicators ask.
std::optional<Topology> load_topology_for(std::string_view spec, const RankPlacement& placement,
                                          std::string* error);

}  // namespace topocoll
