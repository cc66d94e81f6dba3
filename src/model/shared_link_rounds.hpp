// Rounds that share a link with a group of transfers kept in flight over them (overlap's
// messages across the leaves, posted at once, under its rounds inside the leaves). A network
// shares a link per flow, not per round: while the group's thousands of flows are on a host's
// link, a round's few flows through it get a few thousandths of it each, so the round lasts
// about as long as the group's flows of its size, and the rounds that follow wait. Priced apart,
// the group and the rounds would seem to overlap at full speed: at 1 KiB blocks on 1024 ranks
// of 16 per host the cost model took 1343 us where SimGrid and the fluid model take 1875.
//
// The link passes its bandwidth to the flows on it in proportion to their weights: a round's
// flow weighs `weight` flows of the group (latency-weighted sharing: the calibrated near weight,
// 1 where not measured). Each side's flows are alike (a round's bytes / its messages; the
// group's likewise). Round by round from the group's posting round: while the group has bytes
// left, the round's flows pass theirs at their share, and the group's flows at theirs; through
// the rest of the round (its latency, posts and copies) the group has the link alone. A round
// ends that much later than it would alone; the group ends when its last bytes have passed.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace topocoll {

// What a round or a group of transfers puts on one link: bytes and messages.
struct LinkShare {
  double bytes = 0.0;
  double messages = 0.0;
};

struct SharedLinkTimes {
  std::vector<double> extra_us;  // per round of [first, last]: how much later it ends
  double group_end_us = 0.0;     // the group's last bytes, from the start of round `first`
};

// `round_us[t]`: round t's time alone; `round_use[t]`: what it puts on the link. The group,
// posted at the start of round `first`, is due by the end of round `last`.
SharedLinkTimes share_link_with_group(std::span<const double> round_us, std::span<const LinkShare> round_use,
                                      std::size_t first, std::size_t last, LinkShare group, double bytes_per_us,
                                      double weight);

}  // namespace topocoll
