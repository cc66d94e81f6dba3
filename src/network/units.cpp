// SimGrid unit syntax for bandwidths, latencies and speeds (see units.hpp).
#include "network/units.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string>

namespace topocoll::network {

namespace {

struct Unit {
  std::string_view suffix;
  double scale;  // SI value of one unit
};

// The spellings SimGrid accepts (a subset: no minutes, hours or picoseconds).
constexpr std::array kBandwidthUnits = {
    Unit{"Tbps", 1e12 / 8},  Unit{"Gbps", 1e9 / 8},          Unit{"Mbps", 1e6 / 8},
    Unit{"kbps", 1e3 / 8},   Unit{"bps", 1.0 / 8},           Unit{"Tibps", 1099511627776.0 / 8},
    Unit{"Gibps", 1073741824.0 / 8}, Unit{"Mibps", 1048576.0 / 8}, Unit{"Kibps", 1024.0 / 8},
    Unit{"TBps", 1e12},      Unit{"GBps", 1e9},              Unit{"MBps", 1e6},
    Unit{"kBps", 1e3},       Unit{"Bps", 1.0},               Unit{"TiBps", 1099511627776.0},
    Unit{"GiBps", 1073741824.0}, Unit{"MiBps", 1048576.0},   Unit{"KiBps", 1024.0},
};
constexpr std::array kTimeUnits = {Unit{"s", 1.0}, Unit{"ms", 1e-3}, Unit{"us", 1e-6}, Unit{"ns", 1e-9}};
constexpr std::array kSpeedUnits = {Unit{"f", 1.0}, Unit{"kf", 1e3}, Unit{"Mf", 1e6},
                                    Unit{"Gf", 1e9}, Unit{"Tf", 1e12}, Unit{"Pf", 1e15}};

template <std::size_t N>
std::string unit_list(const std::array<Unit, N>& units) {
  std::string list;
  for (const Unit& unit : units) {
    if (!list.empty()) list += ", ";
    list += unit.suffix;
  }
  return list;
}

template <std::size_t N>
std::optional<double> parse_quantity(std::string_view text, const std::array<Unit, N>& units, const char* what,
                                     const char* example, std::string* error) {
  double number = 0.0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  const auto [stop, status] = std::from_chars(begin, end, number);
  if (status != std::errc{} || stop == begin) {
    *error = std::string(what) + " '" + std::string(text) + "' does not start with a number (e.g. " + example + ")";
    return std::nullopt;
  }
  const std::string_view suffix(stop, static_cast<std::size_t>(end - stop));
  if (suffix.empty()) {
    *error = std::string(what) + " '" + std::string(text) + "' needs a unit (e.g. " + example + "; units: " +
             unit_list(units) + ")";
    return std::nullopt;
  }
  for (const Unit& unit : units) {
    if (unit.suffix == suffix) {
      const double value = number * unit.scale;
      if (!(value > 0.0) || !std::isfinite(value)) {
        *error = std::string(what) + " '" + std::string(text) + "' must be positive and finite";
        return std::nullopt;
      }
      return value;
    }
  }
  *error = std::string(what) + " '" + std::string(text) + "' has an unknown unit '" + std::string(suffix) +
           "' (units: " + unit_list(units) + ")";
  return std::nullopt;
}

// The largest unit in which the value is at least 1, printed with 12 significant digits.
std::string format_in(double value, std::initializer_list<Unit> units_largest_first) {
  const Unit* chosen = nullptr;
  for (const Unit& unit : units_largest_first) {
    chosen = &unit;
    if (value >= unit.scale) break;
  }
  char text[64];
  std::snprintf(text, sizeof text, "%.12g", value / chosen->scale);
  return std::string(text) + std::string(chosen->suffix);
}

}  // namespace

std::optional<double> parse_bandwidth(std::string_view text, std::string* error) {
  return parse_quantity(text, kBandwidthUnits, "bandwidth", "1Gbps or 125MBps", error);
}

std::optional<double> parse_latency(std::string_view text, std::string* error) {
  return parse_quantity(text, kTimeUnits, "latency", "20us or 5ms", error);
}

std::optional<double> parse_speed(std::string_view text, std::string* error) {
  return parse_quantity(text, kSpeedUnits, "speed", "4Gf", error);
}

std::string format_bandwidth(double bytes_per_second) {
  return format_in(bytes_per_second, {Unit{"Tbps", 1e12 / 8}, Unit{"Gbps", 1e9 / 8}, Unit{"Mbps", 1e6 / 8},
                                      Unit{"kbps", 1e3 / 8}, Unit{"bps", 1.0 / 8}});
}

std::string format_latency(double seconds) {
  return format_in(seconds, {Unit{"s", 1.0}, Unit{"ms", 1e-3}, Unit{"us", 1e-6}, Unit{"ns", 1e-9}});
}

std::string format_speed(double flops) {
  return format_in(flops, {Unit{"Pf", 1e15}, Unit{"Tf", 1e12}, Unit{"Gf", 1e9}, Unit{"Mf", 1e6}, Unit{"kf", 1e3},
                           Unit{"f", 1.0}});
}

}  // namespace topocoll::network
