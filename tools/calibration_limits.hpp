// Under SMPI the platform declares every link's bandwidth, and no probe can beat it: one flow
// gets at most the narrowest link of its route, a rank's flows together at most a link they
// all cross. A measurement above that is the probe's error (barrier skew once made a 10 Gbit/s
// node link 2.34 GB/s), so topocoll-calibrate stops with it instead of storing it. On a real
// machine nothing is declared and nothing is checked.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace topocoll::calibrate {

// The most bytes per second the platform lets the flows from rank `from` to each of `to` move
// together (one flow when `to` has one rank): the narrowest link all their routes cross, and
// which; nullopt on a real machine, or when no link is common to the routes. `hosts[r]` is
// rank r's host name.
struct LinkCap {
  double bytes_per_s = 0.0;
  std::string link;
};
std::optional<LinkCap> platform_cap(const std::vector<std::string>& hosts, int from, const std::vector<int>& to,
                                    bool towards_from = false);

// An error naming the measurement, the cap and the link when `measured` exceeds `cap` (with
// 1e-6 of slack for rounding), else nullopt.
std::optional<std::string> above_cap(const std::string& what, double measured, const std::optional<LinkCap>& cap);

}  // namespace topocoll::calibrate
