// Bandwidths, latencies and speeds written the way SimGrid platform files write them
// ("1Gbps", "125MBps", "20us", "5ms", "4Gf"): parsed into SI numbers (bytes per second,
// seconds, flop/s) for computations, and formatted back into SimGrid's syntax for the XML.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace topocoll::network {

// Each returns nullopt and sets `error` when the text is not a positive number followed by a
// known unit (the unit is required: "1000" alone is ambiguous between bits and bytes).
std::optional<double> parse_bandwidth(std::string_view text, std::string* error);  // bytes/s
std::optional<double> parse_latency(std::string_view text, std::string* error);    // seconds
std::optional<double> parse_speed(std::string_view text, std::string* error);      // flop/s

// Shortest exact-looking SimGrid spelling: 125e6 B/s -> "1Gbps", 5e-3 s -> "5ms",
// 4e9 flop/s -> "4Gf". Values round-trip through the parsers to 12 significant digits.
std::string format_bandwidth(double bytes_per_second);
std::string format_latency(double seconds);
std::string format_speed(double flops);

}  // namespace topocoll::network
