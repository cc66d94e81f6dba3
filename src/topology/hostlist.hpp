// Slurm's hostlist expressions, expanded: `tux[0-3,12]` (ranges and single numbers in brackets),
// `a[01-10]` (a lower bound written with leading zeros gives every number that width: a01 ...
// a10), several bracket groups in one name (`a[1-2]b[3-4]`: a1b3, a1b4, a2b3, a2b4, the first
// group outermost) and comma-separated lists of such names (`tux[0-1],login,b[7]`). MPI-free.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topocoll {

// At most this many names from one expression: a larger one is refused, not expanded.
constexpr std::size_t kMaxHostlistNames = 1 << 20;

// The names `expression` stands for, in its order. On error returns nullopt and sets `error` to
// a message quoting the expression and the part at fault (an empty name, an unclosed bracket, a
// bound that is not a number, a range that runs backwards, more than kMaxHostlistNames names).
std::optional<std::vector<std::string>> expand_hostlist(std::string_view expression, std::string* error);

}  // namespace topocoll
