// A host-keyed topology: the levels (outermost first) and, for every host, its group name at
// each level. It is what the "hosts" form of the topology file holds, what the converters of
// other tools' descriptions produce (ibnetdiscover.hpp, slurm_topology.hpp) and what a host-name
// pattern gives (host_pattern.hpp). MPI-free.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace topocoll {

struct HostGroups {
  std::vector<std::string> levels;                        // outermost first
  std::map<std::string, std::vector<std::string>> hosts;  // host name -> one group name per level
};

// The topology file text of `groups` ({"levels": [...], "hosts": {...}}), one host per line in
// name order, every name escaped as JSON requires; parse_topology_json reads it back.
std::string host_topology_json(const HostGroups& groups);

// The names of `count` levels of switches, outermost first: "leaf" innermost, then "spine",
// "core", and "tier-4", "tier-5"... above those.
std::vector<std::string> switch_level_names(std::size_t count);

// Where paths of switches that differ in length (a short branch of the tree) are made equal: at
// the root end (`outer`: the missing outer levels repeat the path's outermost switch, so the
// innermost switches line up) or at the leaf end (`inner`: the missing inner levels repeat its
// innermost switch, so the roots line up).
enum class PadAt : unsigned char { outer, inner };

// Makes `path` (switch names, outermost first, not empty) `length` long by repeating the switch
// at its `pad` end; a path of that length or longer is left as it is.
void pad_switch_path(std::vector<std::string>& path, std::size_t length, PadAt pad);

// The host groups of hosts under leaf switches: `leaf_of_host` names each host's leaf, which
// `path_of_leaf` maps to its switches (outermost first, ending with the leaf). The paths are
// padded at `pad` to the longest, whose length is the number of levels, named by
// switch_level_names.
HostGroups host_groups_under_switches(const std::map<std::string, std::string>& leaf_of_host,
                                      std::map<std::string, std::vector<std::string>> path_of_leaf, PadAt pad);

}  // namespace topocoll
