// InfiniBand fabric discovery (rdma-core's ibnetdiscover, its plain text output) as a host-keyed
// topology. The output is read as stanzas, one per node:
//
//   vendid=0x2c9                    (also devid=, sysimgguid=, switchguid=, caguid=, rtguid=)
//   Switch  36 "S-0002c90200400e30"   # "leaf-1" enhanced port 0 lid 1 lmc 0
//   [1]     "H-7cfe900300e1a820"[1](7cfe900300e1a821)   # "node01 mlx5_0" lid 2 4xHDR
//   [35]    "S-0002c90200400f00"[1]   # "spine-1" lid 9 4xHDR
//
//   Ca      2 "H-7cfe900300e1a820"    # "node01 mlx5_0"
//   [1](7cfe900300e1a821)   "S-0002c90200400e30"[1]   # lid 2 lmc 0 "leaf-1" lid 1 4xHDR
//
// with comment lines (#), blank lines, routers (Rt, "R-..."), the extended port numbers and
// chassis lines of the grouped output (-g). Only the nodes' GUIDs, kinds and links are used:
// - a host is the first word of its CA's node description (rdma-ndd's default "%h %d"); a host
//   with several CAs must have them all under one switch;
// - a host's leaf switch is the switch its CA links to;
// - a switch's level is its distance from the hosts: 1 for a leaf, 2 for a switch linked to a
//   leaf (spine), and so on; each switch's parent is the switch one level up it links to with
//   the lowest GUID (a leaf linked to several spines goes under the lowest);
// - the levels are named by switch_level_names ("spine", "leaf" for a two-level fat tree), the
//   groups by the switches' GUIDs ("S-0002c90200400e30"); a chain of parents that stops below
//   the top repeats its last switch at the levels above it (PadAt::outer).
// MPI-free.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topology/host_groups.hpp"

namespace topocoll {

// The hosts of `text` (ibnetdiscover's output) and their switches. On error returns nullopt and
// sets `error` to a message naming the line ("line 12: ...") or the host and CAs at fault. CAs
// that cannot place a host (no Ca line, an empty node description, no link to a switch) are left
// out, each with a sentence in `notes` when it is given.
std::optional<HostGroups> parse_ibnetdiscover(std::string_view text, std::string* error,
                                              std::vector<std::string>* notes = nullptr);

}  // namespace topocoll
