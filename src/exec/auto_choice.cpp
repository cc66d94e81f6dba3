#include "exec/auto_choice.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exec/algorithm_setup.hpp"
#include "exec/traffic_summary_exchange.hpp"
#include "select/auto_select.hpp"
#include "select/traffic_summary.hpp"

namespace topocoll::exec {

MaybeFailure resolve_auto(CommState& state, CheckedCall& call, MPI_Comm private_comm, AutoTraffic traffic) {
  if (call.calibration_path.empty()) {
    return Failure{MPI_ERR_ARG, "auto needs the machine's calibration: set CollectiveOptions::calibration or "
                                "TOPOCOLL_CALIBRATION to a file made by topocoll-calibrate (scripts/calibrate.sh)"};
  }
  const Calibration* calibration = nullptr;
  if (auto failure = state.calibration(call.calibration_path, calibration)) return failure;
  const Topology* topology = nullptr;
  if (auto failure = state.topology(call.topology_spec, topology)) return failure;
  call.problem.topology = topology;
  // With a network named, the cost model charges its links, and auto may choose an algorithm
  // that reads its routes (linkaware).
  if (auto failure = attach_network(state, call)) return failure;

  const Operation op = call.operation;
  const bool variable = is_variable(op);
  std::size_t block_bytes = call.block_bytes;
  std::optional<TrafficShape> skewed;
  if (variable) {
    TrafficSummary summary;
    const TrafficSummary mine = TrafficSummary::of_rank(call.rank, call.send.bytes, call.recv.bytes);
    TrafficSummaries& summaries = state.traffic_summaries(op);
    if (traffic == AutoTraffic::latest_known) {
      if (!summaries.latest()) return Failure{MPI_ERR_INTERN, "auto: no traffic summary known yet"};
      summary = *summaries.latest();
    } else if (auto failure = traffic == AutoTraffic::settled ? summaries.settled(mine, private_comm, summary)
                                                              : summaries.for_call(mine, private_comm, summary)) {
      return failure;
    }
    const auto p = static_cast<std::uint64_t>(call.problem.size);
    const std::uint64_t blocks = is_rooted(op) ? p : p * p;
    block_bytes = static_cast<std::size_t>((summary.total_bytes + blocks - 1) / blocks);
    if (op == Operation::alltoallv) skewed = skewed_shape(summary, call.problem.size, topology);
    if (skewed) block_bytes = skewed->average_block_bytes;
    block_bytes = average_block_class(block_bytes);
  }
  const std::string shape = skewed ? skewed->key() : std::string();
  const AutoChoiceKeyView key{op,
                              call.problem.root,
                              block_bytes,
                              call.problem.knobs,
                              call.topology_spec,
                              call.calibration_path,
                              call.network_path,
                              shape};
  auto cached = state.auto_choices().find(key);
  if (cached == state.auto_choices().end()) {
    // Bounded: a code that calls with ever new sizes starts the cache afresh now and then.
    if (state.auto_choices().size() >= kMostAutoChoices) state.auto_choices().clear();
    // The stand-in every rank can price alike: equal blocks in MPI_Alltoall's layout, or the
    // root's row (column) of them; for an alltoallv whose traffic is skewed or sparse, its shape.
    Problem uniform = call.problem;
    std::optional<RootedBlocks> rooted;
    std::optional<TrafficStandIn> stand_in;
    if (is_rooted(op)) {
      rooted.emplace(
          RootedBlocks::uniform(RootedBlocks::flow_of(op), call.problem.root, call.problem.size, block_bytes));
      uniform = Problem::rooted(flows_from_root(op) ? Operation::scatter : Operation::gather, *rooted, topology);
      uniform.knobs = call.problem.knobs;
    } else if (skewed) {
      stand_in.emplace(*skewed);
      uniform.blocks = &*stand_in;
      uniform.block_bytes = block_bytes;
    } else {
      // Even traffic: blocks of the average size, priced as the call's operation, so that an
      // alltoallv's size exchange (lg's) is paid as the call will pay it.
      uniform.blocks = nullptr;
      uniform.block_bytes = block_bytes;
    }
    std::vector<Algorithm> candidates;
    for (const Algorithm& a : algorithms_for(op)) {
      // For the v forms only the algorithms that take blocks of different sizes.
      if (a.has_schedule() && (!variable || a.supports(call.problem).ok)) candidates.push_back(a);
    }
    cached = state.auto_choices()
                 .emplace(AutoChoiceKey(key), choose_for_call(op, block_bytes, uniform, *calibration, candidates))
                 .first;
  }
  call.algorithm = find_algorithm(op, cached->second.algorithm);
  call.problem.knobs = cached->second.knobs;
  call.auto_chosen_by = cached->second.chosen_by;
  if (call.algorithm == nullptr) return Failure{MPI_ERR_INTERN, "auto chose an unknown algorithm"};
  call.native = !call.algorithm->has_schedule();  // the decision table may name the MPI library's own
  return std::nullopt;
}

}  // namespace topocoll::exec
