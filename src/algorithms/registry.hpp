// The registry of alltoall algorithms: a name, a one-line summary, whether it applies to a
// problem (with the reason when not), its schedule builder and its Tam-Wang cost formula.
// `native` (the MPI library's own MPI_Alltoall) is listed but has no schedule.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "algorithms/problem.hpp"
#include "algorithms/tam_wang_params.hpp"
#include "schedule/schedule.hpp"

namespace topocoll {

struct AlltoallAlgorithm {
  std::string_view name;
  std::string_view summary;
  Applicability (*supports)(const AlltoallProblem&);
  RankSchedule (*build)(const AlltoallProblem&, int rank);            // null for native
  // The paper's closed form (flat algorithms); null where the time is read off the schedule
  // (model/tam_wang.hpp) and for native.
  double (*predict_us)(const AlltoallProblem&, const TamWangParams&);
  bool needs_topology = false;  // applies only once the problem carries the machine's topology
  // Alltoallv: the blocks (peer -> dst) whose sizes `rank` must learn from `peer` before it can
  // build its schedule (the executor exchanges them). Null: none beyond its own blocks.
  std::vector<std::pair<int, int>> (*sizes_from)(const AlltoallProblem&, int rank, int peer) = nullptr;
};

std::span<const AlltoallAlgorithm> alltoall_algorithms();
const AlltoallAlgorithm* find_alltoall_algorithm(std::string_view name);
// "direct, shift, ..." for error messages and help texts.
std::string alltoall_algorithm_names();

// Every rank's schedule (for the verifier, statistics and printer).
Schedule build_full_schedule(const AlltoallAlgorithm& algorithm, const AlltoallProblem& problem);
// The same from a builder.
Schedule build_full_schedule(RankSchedule (*build)(const AlltoallProblem&, int rank), const AlltoallProblem& problem);

}  // namespace topocoll
