// One registry of algorithms per operation: each entry names an algorithm, says in a line what
// it does, whether it applies to a problem (with the reason when not), its plan (the one
// description of its rounds, from which a rank's schedule is recorded and the cost model reads
// its loads) and, for the flat alltoall algorithms, the paper's Tam-Wang closed form.
// `native` (the MPI library's own algorithm) is listed for every operation but has no schedule.
// Alltoallv's registry holds the alltoall algorithms (those that apply to per-pair sizes say
// so) and liu; scatter and gather (and their v forms) share theirs.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <memory>

#include "algorithms/problem.hpp"
#include "algorithms/round_plan.hpp"
#include "algorithms/tam_wang_params.hpp"
#include "schedule/schedule.hpp"

namespace topocoll {

struct Algorithm {
  std::string_view name;
  std::string_view summary;
  Applicability (*supports)(const Problem&) = nullptr;
  // The algorithm's rounds for a problem it supports (round_plan.hpp); null for native.
  std::unique_ptr<RoundPlan> (*plan)(const Problem&) = nullptr;
  // The paper's closed form (flat alltoall algorithms); null where the time is read off the
  // schedule (model/tam_wang.hpp) and for native.
  double (*predict_us)(const Problem&, const TamWangParams&) = nullptr;
  bool needs_topology = false;  // applies only once the problem carries the machine's topology
  // Reads the network's routes (problem.network) where one is known: the executor attaches the
  // platform that CollectiveOptions::network (or TOPOCOLL_NETWORK) names, for these and for
  // auto. auto considers these only where its cost model sees the network's links (it would
  // price them as shift's otherwise, after building their phases for nothing).
  bool reads_routes = false;
  // The v forms: the sizes `rank` learns and tells before it can build its schedule (the
  // executor exchanges them), in O(p + blocks) for the rank. Null: none beyond its own blocks.
  void (*size_questions)(const Problem&, int rank, SizeQuestions& out) = nullptr;

  // The knob settings auto tries, simplest first (it takes the simplest within 0.5% of the best
  // of them); null, or none for this problem: the problem's own knobs.
  std::vector<AlgorithmKnobs> (*auto_knobs)(const Problem&) = nullptr;
  // The tuned knobs in words ("2 stripes"), for the notes and tools that show auto's choice.
  std::string (*describe_knobs)(const AlgorithmKnobs&) = nullptr;
  // Messages that carry their own sizes (liu): the executor runs the algorithm stage by stage
  // (exec/liu_exchange.hpp); `plan` needs every block's size and serves the verifier, the
  // statistics and the cost model.
  bool self_describing = false;
  // Why auto leaves it out, if it does (empty: auto considers it).
  std::string_view not_for_auto = {};
  // The most ranks at which auto prices it (0: any), for plans whose memory grows as p^2.
  int auto_up_to_ranks = 0;

  bool has_schedule() const { return plan != nullptr; }
  // `rank`'s schedule for a problem the algorithm supports.
  RankSchedule build(const Problem& problem, int rank) const;
};

// The algorithms of an operation, in the order auto breaks ties.
std::span<const Algorithm> algorithms_for(Operation operation);
const Algorithm* find_algorithm(Operation operation, std::string_view name);
// The algorithm a call runs when it names none: `pairwise` for alltoall and alltoallv (every p
// and block size, one partner per round), `linear` for the rooted operations.
std::string_view default_algorithm(Operation operation);
// "direct, shift, ..." for error messages and help texts.
std::string algorithm_names(Operation operation);

// Every rank's schedule (for the verifier, statistics and printer).
Schedule build_full_schedule(const Algorithm& algorithm, const Problem& problem);

}  // namespace topocoll
