#include "bench_pattern.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>

namespace topocoll::bench {

namespace {

// splitmix64: a well-mixed 64-bit value from the seed and the pair, the same on every rank.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t pair_hash(std::uint64_t seed, int src, int dst) {
  return mix(mix(seed) ^ mix((static_cast<std::uint64_t>(static_cast<std::uint32_t>(src)) << 32) |
                             static_cast<std::uint32_t>(dst)));
}

double parameter_of(const std::string& text, const std::string& name) {
  const std::string value = text.substr(name.size() + 1);
  std::size_t used = 0;
  double parsed = 0.0;
  try {
    parsed = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != value.size() || !std::isfinite(parsed) || parsed <= 0.0) {
    throw std::invalid_argument("--pattern " + text + ": '" + value + "' is not a positive number");
  }
  return parsed;
}

}  // namespace

TrafficPattern TrafficPattern::parse(const std::string& text, std::uint64_t seed) {
  TrafficPattern pattern;
  pattern.text_ = text;
  pattern.seed_ = seed;
  const auto takes = [&](const char* name) { return text.rfind(std::string(name) + ":", 0) == 0; };
  if (text == "uniform") {
    pattern.kind_ = Kind::uniform;
  } else if (text == "random") {
    pattern.kind_ = Kind::random;
  } else if (takes("zipf")) {
    pattern.kind_ = Kind::zipf;
    pattern.parameter_ = parameter_of(text, "zipf");
  } else if (takes("sparse") || takes("hotspot")) {
    const bool sparse = takes("sparse");
    pattern.kind_ = sparse ? Kind::sparse : Kind::hotspot;
    pattern.parameter_ = parameter_of(text, sparse ? "sparse" : "hotspot");
    if (pattern.parameter_ != std::floor(pattern.parameter_)) {
      throw std::invalid_argument("--pattern " + text + ": the count must be a whole number");
    }
  } else {
    throw std::invalid_argument("--pattern '" + text + "': expected uniform, random, zipf:S, sparse:K or hotspot:H");
  }
  return pattern;
}

std::string TrafficPattern::describe() const { return text_ + " (seed " + std::to_string(seed_) + ")"; }

void TrafficPattern::prepare(int p) const {
  if (prepared_for_ == p) return;
  std::vector<int> order(static_cast<std::size_t>(p));
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(mix(seed_ ^ 0x5eedULL));
  for (std::size_t i = order.size(); i > 1; --i) {  // Fisher-Yates with a fixed generator
    std::swap(order[i - 1], order[static_cast<std::size_t>(rng() % i)]);
  }
  position_.assign(static_cast<std::size_t>(p), 0);
  for (int k = 0; k < p; ++k) position_[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] = k;
  weight_sum_ = 0.0;
  for (int k = 1; k <= p; ++k) weight_sum_ += std::pow(static_cast<double>(k), -parameter_);
  prepared_for_ = p;
}

std::size_t TrafficPattern::bytes(int src, int dst, int p, std::size_t m) const {
  const double row = static_cast<double>(p) * static_cast<double>(m);  // a sender's bytes, about
  switch (kind_) {
    case Kind::uniform: return m;
    case Kind::random: return static_cast<std::size_t>(pair_hash(seed_, src, dst) % (2 * m + 1));
    case Kind::sparse: {
      const double chance = p > 1 ? parameter_ / (p - 1) : 1.0;
      const double draw = static_cast<double>(pair_hash(seed_, src, dst) >> 11) * 0x1.0p-53;
      return src != dst && draw < chance ? m : 0;
    }
    case Kind::zipf: {
      prepare(p);
      const double rank = position_[static_cast<std::size_t>(dst)] + 1.0;
      return static_cast<std::size_t>(std::llround(row * std::pow(rank, -parameter_) / weight_sum_));
    }
    case Kind::hotspot: {
      prepare(p);
      const int hot = std::min(static_cast<int>(parameter_), p);
      const bool is_hot = position_[static_cast<std::size_t>(dst)] < hot;
      const double share = hot == p ? 1.0 : is_hot ? 0.75 / hot : 0.25 / (p - hot);
      return static_cast<std::size_t>(std::llround(row * share));
    }
  }
  return m;
}

}  // namespace topocoll::bench
