// Slurm's switch tree (topology.conf of the topology/tree plugin) as a host-keyed topology:
//
//   # comment
//   SwitchName=s0 Nodes=tux[0-3,12]
//   SwitchName=s1 Nodes=tux[4-7] LinkSpeed=100
//   SwitchName=s2 Switches=s[0-1]
//
// Keys are case-insensitive (switchname= is SwitchName=), LinkSpeed is ignored, a line ending in
// a backslash continues on the next, Nodes and Switches take hostlist expressions (hostlist.hpp).
// A host's groups are the switches from the root of its tree down to the switch that lists it;
// a branch shorter than the deepest repeats its last switch at the levels below it, so the roots
// line up (PadAt::inner). A switch listed under several parents takes the first one the file
// lists. MPI-free.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "topology/host_groups.hpp"

namespace topocoll {

// The hosts of `text` (topology.conf's contents) and their switches, levels named by
// switch_level_names. On error returns nullopt and sets `error` to a message that names the
// line ("line 3: ...") and the key, switch or node at fault. The Nodes= and Switches= lists of a
// file name at most kMaxHostlistNames nodes and switches in all.
std::optional<HostGroups> parse_slurm_topology(std::string_view text, std::string* error);

}  // namespace topocoll
