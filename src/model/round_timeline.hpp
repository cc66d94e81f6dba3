// Rounds with transfers kept in flight across them (Transfer::overlap_rounds): the cost
// models price each group of such transfers, those posted in one round and due at the end of
// one later round, as a round of its own, alone on the machine, that starts with its posting
// round and runs beside the rounds it overlaps. This lays the groups over the rounds.
// The hierarchical model prices a group against the rounds it overlaps when the machine's
// backbone has a near_weight (hierarchical_cost.hpp); the Tam-Wang reading prices it alone.
#pragma once

#include <cstddef>
#include <vector>

namespace topocoll {

struct InFlightGroup {
  std::size_t posted = 0;     // the round that posts the group's transfers
  std::size_t completes = 0;  // the round by whose end they have completed (> posted)
  double us = 0.0;            // the group's time priced alone
  double posting_us = 0.0;    // the CPU time to post them, which delays the posting round's own
};

// Each round's time once the groups are laid over them: round t starts when round t-1 ends
// and lasts the posting time of the groups it posts (they are posted first) plus its own
// time, or longer when a group completing in it is not done by then (its posting round's
// start + its time). The sum is the schedule's time.
std::vector<double> overlapped_round_times(const std::vector<double>& round_us,
                                           const std::vector<InFlightGroup>& groups);

}  // namespace topocoll
