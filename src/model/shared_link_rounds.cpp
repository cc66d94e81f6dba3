// Rounds sharing a link with a group kept in flight over them (shared_link_rounds.hpp).
#include "model/shared_link_rounds.hpp"

#include <algorithm>

namespace topocoll {

SharedLinkTimes share_link_with_group(std::span<const double> round_us, std::span<const LinkShare> round_use,
                                      std::size_t first, std::size_t last, LinkShare group, double bytes_per_us,
                                      double weight) {
  SharedLinkTimes out;
  last = std::min(last, round_us.size() - 1);
  if (round_us.empty() || first > last) return out;
  out.extra_us.assign(last - first + 1, 0.0);
  if (!(group.messages > 0.0 && group.bytes > 0.0 && bytes_per_us > 0.0 && weight > 0.0)) return out;
  const double flows = group.messages;
  double left = group.bytes / flows;  // per flow of the group
  double now = 0.0;
  // The group alone on the link for `us`.
  const auto alone = [&](double us) {
    if (left * flows <= us * bytes_per_us) {
      out.group_end_us = now + left * flows / bytes_per_us;
      left = 0.0;
    } else {
      left -= us * bytes_per_us / flows;
    }
  };
  for (std::size_t t = first; t <= last; ++t) {
    const LinkShare& use = round_use[t];
    const double link_us = use.bytes / bytes_per_us;  // the round's bytes, alone on the link
    // Its latency, posts and copies first: the group has the link meanwhile.
    const double before_us = std::max(0.0, round_us[t] - link_us);
    if (left > 0.0) alone(before_us);
    if (left > 0.0 && use.messages > 0.0 && use.bytes > 0.0) {
      const double mine = use.bytes / use.messages;  // per flow of the round
      const double weights = weight * use.messages + flows;
      double shared_us = 0.0;
      if (left * weight >= mine) {  // the round's flows end first (or with the group's)
        shared_us = mine * weights / (weight * bytes_per_us);
        left -= mine / weight;
        if (left <= 0.0) out.group_end_us = now + before_us + shared_us;
      } else {  // the group's end first, then the round's flows have the link
        const double together_us = left * weights / bytes_per_us;
        out.group_end_us = now + before_us + together_us;
        shared_us = together_us + (mine - weight * left) * use.messages / bytes_per_us;
        left = 0.0;
      }
      out.extra_us[t - first] = std::max(0.0, shared_us - link_us);
    }
    now += round_us[t] + out.extra_us[t - first];
  }
  if (left > 0.0) out.group_end_us = now + left * flows / bytes_per_us;
  return out;
}

}  // namespace topocoll
