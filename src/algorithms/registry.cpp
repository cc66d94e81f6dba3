#include "algorithms/registry.hpp"

#include <array>

#include "algorithms/flat_algorithms.hpp"
#include "algorithms/group_level.hpp"
#include "algorithms/lg.hpp"
#include "algorithms/linkaware.hpp"
#include "algorithms/liu.hpp"
#include "algorithms/mlfm.hpp"
#include "algorithms/overlap.hpp"
#include "algorithms/rooted_algorithms.hpp"

namespace topocoll {

namespace {

Applicability always(const Problem&) { return {}; }

constexpr Algorithm kDirect{
    .name = "direct",
    .summary = "all sends and receives posted at once, peers (rank+i) mod p (synchronous shuffle)",
    .supports = always,
    .plan = plan_direct,
    .predict_us = predict_direct_us};
constexpr Algorithm kShift{.name = "shift",
                           .summary = "p-1 rounds, to rank+i and from rank-i",
                           .supports = always,
                           .plan = plan_shift,
                           .predict_us = predict_shift_us};
constexpr Algorithm kPairwise{.name = "pairwise",
                              .summary = "XOR pairing (p a power of two) or edge-colouring rounds",
                              .supports = always,
                              .plan = plan_pairwise,
                              .predict_us = predict_pairwise_us};
constexpr Algorithm kGroupShuffle{.name = "group-shuffle",
                                  .summary = "edge-colouring rounds taken w at a time (--group-width)",
                                  .supports = supports_group_shuffle,
                                  .plan = plan_group_shuffle,
                                  .predict_us = predict_group_shuffle_us};
constexpr Algorithm kBruck{.name = "bruck",
                           .summary = "log2(p) store-and-forward rounds, for small messages",
                           .supports = supports_bruck,
                           .plan = plan_bruck,
                           .predict_us = predict_bruck_us};
constexpr Algorithm kLg{.name = "lg",
                        .summary = "groups (clusters; hosts with --group-level): exchange inside each, then one "
                                   "aggregated message per partner pair",
                        .supports = supports_lg,
                        .plan = plan_lg,
                        .needs_topology = true,
                        .size_questions = lg_size_questions,
                        .auto_knobs = lg_auto_knobs,
                        .describe_knobs = describe_group_level};
constexpr Algorithm kOverlap{.name = "overlap",
                             .summary = "exchange across the outermost level (or --group-level's) posted first and "
                                        "kept in flight while each group exchanges inside (shift rounds)",
                             .supports = supports_overlap,
                             .plan = plan_overlap,
                             .needs_topology = true,
                             .auto_knobs = overlap_auto_knobs,
                             .describe_knobs = describe_overlap_knobs};
constexpr Algorithm kMlfm{.name = "mlfm",
                          .summary = "multi-layer full mesh, the ranks a box of servers: p-1 phases, no link shared "
                                     "within a phase",
                          .supports = supports_mlfm,
                          .plan = plan_mlfm,
                          .needs_topology = true};
constexpr Algorithm kLinkaware{.name = "linkaware",
                               .summary = "p-1 phases built from the routes (a network's, or the topology as a tree) "
                                          "to keep the most flows on a link low, for any allocation",
                               .supports = supports_linkaware,
                               .plan = plan_linkaware,
                               .needs_topology = true,
                               .reads_routes = true};
constexpr Algorithm kLiu{.name = "liu",
                         .summary = "four stages over a grid of the ranks: spread every rank's data evenly (rows, "
                                    "then columns), then deliver it (rows, then columns); sizes travel in headers",
                         .supports = always,
                         .plan = plan_liu,
                         .self_describing = true,
                         .auto_up_to_ranks = 1024};
constexpr Algorithm kNativeAlltoall{.name = "native", .summary = "the MPI library's own MPI_Alltoall", .supports = always};

constexpr Algorithm kLinear{.name = "linear",
                            .summary = "the root sends (scatter) or receives (gather) every block itself, all at once",
                            .supports = supports_linear,
                            .plan = plan_linear};
constexpr Algorithm kBinomial{.name = "binomial",
                              .summary = "binomial tree over ranks relative to the root, each subtree's blocks in one "
                                         "message (the MPI libraries' default)",
                              .supports = supports_binomial,
                              .plan = plan_binomial,
                              .size_questions = binomial_size_questions};
constexpr Algorithm kTopo{.name = "topo",
                          .summary = "leaders per topology level: each group's blocks through its leader, one "
                                     "aggregated message per sub-group, level by level",
                          .supports = supports_topo,
                          .plan = plan_topo,
                          .needs_topology = true,
                          .size_questions = topo_size_questions,
                          .auto_knobs = topo_auto_knobs,
                          .describe_knobs = describe_topo_knobs};
constexpr Algorithm kNativeRooted{.name = "native", .summary = "the MPI library's own algorithm", .supports = always};

constexpr std::array kTotalExchange = {kDirect, kShift, kPairwise, kGroupShuffle, kBruck,
                                       kLg, kOverlap, kMlfm, kLinkaware, kNativeAlltoall};
constexpr std::array kIrregularExchange = {kDirect, kShift, kPairwise, kGroupShuffle, kBruck,
                                           kLg, kOverlap, kMlfm, kLinkaware, kLiu, kNativeAlltoall};
constexpr std::array kRooted = {kLinear, kBinomial, kTopo, kNativeRooted};

}  // namespace

std::span<const Algorithm> algorithms_for(Operation operation) {
  if (is_rooted(operation)) return kRooted;
  if (operation == Operation::alltoallv) return kIrregularExchange;
  return kTotalExchange;
}

const Algorithm* find_algorithm(Operation operation, std::string_view name) {
  for (const Algorithm& a : algorithms_for(operation)) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

std::string_view default_algorithm(Operation operation) { return is_rooted(operation) ? "linear" : "pairwise"; }

std::string algorithm_names(Operation operation) {
  std::string names;
  for (const Algorithm& a : algorithms_for(operation)) {
    if (!names.empty()) names += ", ";
    names += a.name;
  }
  return names;
}

RankSchedule Algorithm::build(const Problem& problem, int rank) const {
  const std::unique_ptr<RoundPlan> rounds = plan(problem);
  return rounds ? record_rank(*rounds, rank) : RankSchedule{};
}

Schedule build_full_schedule(const Algorithm& algorithm, const Problem& problem) {
  Schedule schedule;
  schedule.size = problem.size;
  schedule.block_bytes = problem.block_bytes;
  schedule.ranks.reserve(static_cast<std::size_t>(problem.size));
  const std::unique_ptr<RoundPlan> rounds = algorithm.plan(problem);
  for (int r = 0; r < problem.size; ++r) schedule.ranks.push_back(rounds ? record_rank(*rounds, r) : RankSchedule{});
  return schedule;
}

}  // namespace topocoll
