// The routes between every pair of ranks as lists of capacity ids, for algorithms that spread
// flows over links (linkaware). Two sources: the network the problem carries (its routes, the
// capacities link_loads counts), or else the problem's topology read as a tree of switches: each
// group a switch joined to its parent's by one duplex link (its two directions two capacities),
// each rank joined to its innermost group's switch by one, a message climbing from its sender's
// innermost group to the outermost level where the two ranks differ and down again. The tree is
// what topocoll knows without a network (a real MPI run); for a multi-layer full mesh it is not
// the mesh (levels column, layer, slot read as switches), so flows it keeps apart may meet there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "algorithms/problem.hpp"

namespace topocoll {

class RankRoutes {
 public:
  // Every ordered pair's route; the capacity ids are dense, below `capacities`.
  RankRoutes(int size, int capacities, std::vector<std::vector<int>> routes);

  int size() const { return size_; }
  int capacities() const { return capacities_; }
  // The capacities a message from rank `from` to rank `to` fills (none when they share a host).
  std::span<const int> route(int from, int to) const {
    const std::size_t pair = static_cast<std::size_t>(from) * static_cast<std::size_t>(size_) + static_cast<std::size_t>(to);
    return {ids_.data() + first_[pair], ids_.data() + first_[pair + 1]};
  }
  // How many of the p(p-1) messages of a total exchange cross each capacity.
  std::vector<long long> crossings() const;
  // What the routes were read from, for the plan's description.
  std::string source;

  // The same routes between the same ranks (whatever they were read from), told by a 64-bit
  // fingerprint of every route: O(1), for a caller that asks on every call. (Two route sets that
  // collided would only trade one set's phases for the other's: linkaware's phases are a total
  // exchange of p ranks whatever routes they were built for.)
  bool same_routes(const RankRoutes& other) const {
    return size_ == other.size_ && capacities_ == other.capacities_ && fingerprint_ == other.fingerprint_;
  }

 private:
  int size_ = 0;
  int capacities_ = 0;
  std::uint64_t fingerprint_ = 0;
  std::vector<std::size_t> first_;  // pair -> its first id in ids_ (p*p + 1 entries)
  std::vector<int> ids_;
};

// The routes of `problem`'s ranks: from problem.network when set, else from problem.topology as a
// tree; nullopt (with `why_not`) when it has neither or they do not describe its ranks. O(p^2).
std::optional<RankRoutes> rank_routes(const Problem& problem, std::string* why_not);
// Whether rank_routes would give routes (and why not), without building them: O(p), what an
// algorithm's supports() asks on every call.
bool routes_available(const Problem& problem, std::string* why_not);

}  // namespace topocoll
