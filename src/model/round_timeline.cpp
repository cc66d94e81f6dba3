#include "model/round_timeline.hpp"

#include <algorithm>

namespace topocoll {

std::vector<double> overlapped_round_times(const std::vector<double>& round_us,
                                           const std::vector<InFlightGroup>& groups) {
  std::vector<double> start(round_us.size(), 0.0);
  std::vector<double> times(round_us.size(), 0.0);
  double now = 0.0;
  for (std::size_t t = 0; t < round_us.size(); ++t) {
    start[t] = now;
    double end = now + round_us[t];
    for (const InFlightGroup& g : groups) {
      if (g.posted == t) end += g.posting_us;
    }
    for (const InFlightGroup& g : groups) {
      if (g.completes == t && g.posted <= t) end = std::max(end, start[g.posted] + g.us);
    }
    times[t] = end - now;
    now = end;
  }
  return times;
}

}  // namespace topocoll
