// A host-name pattern: the spec `pattern:REGEX` (TOPOCOLL_TOPOLOGY, --topology) gives every rank
// its groups from its host name. REGEX is a regular expression in RE2's syntax (matched in time
// linear in the host name's length, whatever the pattern: a backtracking matcher took seconds
// on a 16-character name) that must match the whole host name; its named groups
// `(?<name>...)` are the levels, outermost first, and the text each matches names the host's
// group at that level:
//
//   pattern:r(?<rack>[0-9]+)n[0-9]+              r12n3 -> rack "12"
//   pattern:(?<row>[a-z]+)-r(?<rack>\d+)-n\d+    east-r2-n07 -> row "east", rack "2"
//
// Each level's group is renamed in RE2's spelling (?P<...> (RE2 before 2023 knows no (?<name>),
// and RE2 says which group it is. MPI-free.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topology/host_groups.hpp"

namespace topocoll {

// The groups of every host in `hosts` (the host of each rank, by rank) under `pattern` (the
// regular expression, without "pattern:"). On error returns nullopt and sets `error`: a pattern
// that is not a regular expression or names no level or one level twice, or the first rank whose
// host does not match (or leaves a level's group empty), naming the rank and the host.
std::optional<HostGroups> match_host_pattern(std::string_view pattern, const std::vector<std::string>& hosts,
                                             std::string* error);

}  // namespace topocoll
