// topocoll-plan --svg: a schedule drawn as an SVG picture a browser shows. Ranks are rows,
// grouped by the topology's levels (a band per group of the outermost level, a rule between
// groups of the next); rounds are columns, left to right; every message is one arrow from its
// sender's row to its receiver's across the round (across the rounds it stays in flight), its
// width growing with its bytes, its colour the outermost level it crosses. With the network's
// link loads, a strip under the schedule shades every loaded link by its flows in each round.
// Plain SVG 1.1 written by hand: no dependency, a file of a few hundred kilobytes for 64 ranks.
#pragma once

#include <ostream>
#include <string>

#include "schedule/link_loads.hpp"
#include "schedule/schedule.hpp"
#include "topology/topology.hpp"

namespace topocoll::tools {

// What the picture's title says: "alltoall lg on 2 clusters..., 1024 bytes per block".
struct SvgCaption {
  std::string title;
};

// Writes the picture of `schedule` on `topology` (its size ranks); `loads` may be null (no
// network strip). Each message is one <line class="message"> element with a <title> naming it.
void write_schedule_svg(std::ostream& out, const Schedule& schedule, const Topology& topology,
                        const LinkLoads* loads, const SvgCaption& caption);

// Messages past which a picture is refused (a browser would not show it usefully).
inline constexpr std::size_t kMostSvgMessages = 200000;

}  // namespace topocoll::tools
