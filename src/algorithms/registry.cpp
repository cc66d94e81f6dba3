#include "algorithms/registry.hpp"

#include <array>

#include "algorithms/flat_algorithms.hpp"
#include "algorithms/lg.hpp"
#include "algorithms/overlap.hpp"

namespace topocoll {

namespace {

Applicability always(const AlltoallProblem&) { return {}; }

constexpr std::array kAlgorithms = {
    AlltoallAlgorithm{"direct", "all sends and receives posted at once, peers (rank+i) mod p (synchronous shuffle)",
                      always, build_direct, predict_direct_us},
    AlltoallAlgorithm{"shift", "p-1 rounds, to rank+i and from rank-i", always, build_shift, predict_shift_us},
    AlltoallAlgorithm{"pairwise", "XOR pairing (p a power of two) or edge-colouring rounds", always,
                      build_pairwise, predict_pairwise_us},
    AlltoallAlgorithm{"group-shuffle", "edge-colouring rounds taken w at a time (--group-width)",
                      supports_group_shuffle, build_group_shuffle, predict_group_shuffle_us},
    AlltoallAlgorithm{"bruck", "log2(p) store-and-forward rounds, for small messages", supports_bruck, build_bruck,
                      predict_bruck_us},
    AlltoallAlgorithm{"lg", "two clusters: exchange inside each, then one aggregated message per partner pair",
                      supports_lg, build_lg, nullptr, true, lg_sizes_from},
    AlltoallAlgorithm{"overlap",
                      "exchange across the outermost level posted first and kept in flight while each group "
                      "exchanges inside (shift rounds)",
                      supports_overlap, build_overlap, nullptr, true},
    AlltoallAlgorithm{"native", "the MPI library's own MPI_Alltoall", always, nullptr, nullptr},
};

}  // namespace

std::span<const AlltoallAlgorithm> alltoall_algorithms() { return kAlgorithms; }

const AlltoallAlgorithm* find_alltoall_algorithm(std::string_view name) {
  for (const AlltoallAlgorithm& a : kAlgorithms) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

std::string alltoall_algorithm_names() {
  std::string names;
  for (const AlltoallAlgorithm& a : kAlgorithms) {
    if (!names.empty()) names += ", ";
    names += a.name;
  }
  return names;
}

Schedule build_full_schedule(const AlltoallAlgorithm& algorithm, const AlltoallProblem& problem) {
  return build_full_schedule(algorithm.build, problem);
}

Schedule build_full_schedule(RankSchedule (*build)(const AlltoallProblem&, int rank), const AlltoallProblem& problem) {
  Schedule schedule;
  schedule.size = problem.size;
  schedule.block_bytes = problem.block_bytes;
  schedule.ranks.reserve(static_cast<std::size_t>(problem.size));
  for (int r = 0; r < problem.size; ++r) schedule.ranks.push_back(build(problem, r));
  return schedule;
}

}  // namespace topocoll
