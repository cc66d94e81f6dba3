// Loading a Topology from the JSON topology file of DESIGN.md, or from any topology spec
// (a shorthand or a file path). MPI-free: the caller supplies the host name of every rank.
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

#include "topology/topology.hpp"

namespace topocoll {

// Parses topology JSON text for `hosts.size()` ranks whose host names are `hosts`.
// On error returns nullopt and sets `error` to a message naming the field or entry at fault.
std::optional<Topology> parse_topology_json(std::string_view text, const std::vector<std::string>& hosts,
                                            std::string* error);

// A spec is a shorthand (clusters:N1,N2,... or flat:N) or the path of a topology file.
// The resulting topology must describe exactly hosts.size() ranks.
std::optional<Topology> load_topology_spec(std::string_view spec, const std::vector<std::string>& hosts,
                                           std::string* error);

}  // namespace topocoll
