// overlap: the exchange across the outermost level kept in flight while each group exchanges
// inside (see overlap.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <memory>

#include "algorithms/problem.hpp"
#include "algorithms/round_plan.hpp"
#include "schedule/schedule.hpp"

namespace topocoll {

// The peers of overlap's schedule: the groups of topology level `level` (the outermost by
// default, group_level.hpp), members in communicator order.
class OverlapPeers {
 public:
  OverlapPeers(const Topology& topology, int size, int level);
  // Rounds every rank runs: max over groups of (n - 1), at least 1.
  std::size_t rounds() const;
  // Calls visit(peer) for the ranks outside `rank`'s group in the order it posts its transfers
  // with them: rank order, from the (its index in its group)-th of them on, round the list
  // (so that the senders of a group start on different destinations). O(p), no allocation.
  template <class Visit>
  void for_each_across(int rank, Visit visit) const {
    const int p = static_cast<int>(group_of_.size());
    const int mine = group_of_[rank];
    const int outside = p - static_cast<int>(members_[static_cast<std::size_t>(mine)].size());
    if (outside == 0) return;
    int r = 0;
    for (int skip = index_[rank] % outside;; ++r) {
      if (group_of_[r] != mine && skip-- == 0) break;
    }
    for (int told = 0; told < outside; r = r + 1 == p ? 0 : r + 1) {
      if (group_of_[r] == mine) continue;
      visit(r);
      ++told;
    }
  }
  // Calls visit(first, count) for each run of consecutive ranks outside `rank`'s group, in
  // rank order (for a sink that does not care about the order of posting).
  template <class Visit>
  void for_each_run_across(int rank, Visit visit) const {
    const int p = static_cast<int>(group_of_.size());
    const int mine = group_of_[rank];
    for (int r = 0; r < p;) {
      if (group_of_[r] == mine) {
        ++r;
        continue;
      }
      int end = r + 1;
      while (end < p && group_of_[end] != mine) ++end;
      visit(r, end - r);
      r = end;
    }
  }
  // Whether `rank` has peers outside its group.
  bool has_across(int rank) const {
    return members_[static_cast<std::size_t>(group_of_[rank])].size() < group_of_.size();
  }
  // Its shift partners inside its group at step s (1 .. n-1): (to, from); (-1, -1) past n-1.
  std::pair<int, int> inside(int rank, int step) const;

 private:
  std::vector<int> group_of_, index_;
  std::vector<std::vector<int>> members_;
};

// overlap cuts each block across the outermost level into this many messages, all in flight at
// once (knobs.stripes; 0 means 1): parallel streams, which win a larger share of each node's
// link from the flows inside its group where sharing favours short round trips (overlap.cpp).
int overlap_stripes(const AlgorithmKnobs& knobs);
// Stripe i of `pieces` of a block of `bytes` bytes: (offset, length), equal parts to a byte.
// A block has min(stripes, bytes) pieces, at least one.
int stripe_count(int stripes, std::size_t bytes);
std::pair<std::size_t, std::size_t> stripe_of(std::size_t bytes, int pieces, int i);

// The most stripes overlap takes (auto tries 1, 2, 4 .. this).
inline constexpr int kMaxOverlapStripes = 8;
// What auto tries for the choices the caller leaves to it: 1, 2, 4 and kMaxOverlapStripes
// stripes when knobs.stripes == 0, each group level when knobs.group_level == -1 (the
// caller's own knobs alone when it chose both).
std::vector<AlgorithmKnobs> overlap_auto_knobs(const Problem& problem);
// "1 stripe", "2 stripes, groups of level 1".
std::string describe_overlap_knobs(const AlgorithmKnobs& knobs);

Applicability supports_overlap(const Problem& problem);
std::unique_ptr<RoundPlan> plan_overlap(const Problem& problem);

}  // namespace topocoll
