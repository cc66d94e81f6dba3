// What the fluid model works out once per ordered pair of hosts (a route, its loads), kept in a
// bounded cache. Unbounded, a plan in which every pair of hosts talks (direct or pairwise with
// one rank per host) would keep hosts^2 entries: about 1 GB at 2048 hosts, tens of GB at 16384.
// Once full it starts again empty, so what it hands out is valid until the next lookup.
#pragma once

#include <cstddef>
#include <unordered_map>

namespace topocoll::fluid {

template <typename Value>
class HostPairCache {
 public:
  // 2^18 entries: a few tens of MB of routes, and every pair of hosts of a job up to 512 hosts.
  static constexpr std::size_t kMostEntries = std::size_t{1} << 18;

  explicit HostPairCache(int hosts) : hosts_(hosts) {}

  // The value for (from_host, to_host), made by `make()` when it is not kept.
  template <typename Make>
  const Value& get(int from_host, int to_host, Make&& make) {
    const long long key = static_cast<long long>(from_host) * hosts_ + to_host;
    if (const auto found = entries_.find(key); found != entries_.end()) return found->second;
    if (entries_.size() >= kMostEntries) entries_.clear();
    return entries_.emplace(key, make()).first->second;
  }

  std::size_t size() const { return entries_.size(); }

 private:
  long long hosts_;
  std::unordered_map<long long, Value> entries_;
};

}  // namespace topocoll::fluid
