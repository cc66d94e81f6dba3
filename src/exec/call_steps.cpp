#include "exec/call_steps.hpp"

#include <string>
#include <utility>

#include "exec/algorithm_setup.hpp"
#include "exec/auto_choice.hpp"
#include "exec/block_size_exchange.hpp"
#include "exec/error_report.hpp"
#include "exec/native_call.hpp"

namespace topocoll::exec {

namespace {

MaybeFailure build_plan(const CheckedCall& call, ExecutionPlan& plan) {
  const RankSchedule schedule = call.algorithm->build(call.problem, call.rank);
  if (auto failure = build_execution_plan(schedule, call.send.total, call.recv.total, plan)) {
    failure->message = "the " + std::string(call.algorithm->name) + " schedule is invalid: " + failure->message;
    return failure;
  }
  return std::nullopt;
}

// The v forms' plan is built per call, after the sizes they ask were learnt.
MaybeFailure find_or_build_plan(CommState& state, CheckedCall& call, std::shared_ptr<const ExecutionPlan>& plan) {
  if (is_variable(call.operation)) {
    auto built = std::make_shared<ExecutionPlan>();
    if (auto failure = build_plan(call, *built)) return failure;
    plan = std::move(built);
    return std::nullopt;
  }
  PlanKey key{call.operation, call.problem.root, call.in_place && is_rooted(call.operation),
              std::string(call.algorithm->name), call.block_bytes, call.problem.knobs,
              call.algorithm->needs_topology ? call.topology_spec : std::string(),
              call.algorithm->reads_routes ? call.network_path : std::string()};
  plan = state.plans().find(key);
  if (plan != nullptr) return std::nullopt;
  auto built = std::make_shared<ExecutionPlan>();
  if (auto failure = build_plan(call, *built)) return failure;
  plan = state.plans().insert(std::move(key), std::move(built));
  return std::nullopt;
}

}  // namespace

MaybeFailure check_applies(const CheckedCall& call) {
  const Applicability applicability = call.algorithm->supports(call.problem);
  if (applicability.ok) return std::nullopt;
  return Failure{MPI_ERR_ARG,
                 "algorithm '" + std::string(call.algorithm->name) + "' does not apply: " + applicability.reason, true};
}

int run_library_call(const CallArguments& arguments, const CollectiveOptions& options, MPI_Request* request) {
  const int rc = request == nullptr ? call_native(arguments) : start_native(arguments, request);
  if (rc != MPI_SUCCESS) {
    const std::string what = (request == nullptr ? "" : "i") + std::string(operation_name(arguments)) +
                             " (native): " + (request == nullptr ? native_call_name(arguments) : native_start_name(arguments));
    record_failure(mpi_call_failure(what.c_str(), rc));
  }
  if (rc == MPI_SUCCESS && options.chosen_algorithm != nullptr) *options.chosen_algorithm = "native";
  return rc;
}

int run_library_call_instead(const CallArguments& arguments, const CollectiveOptions& options, const Failure& verdict,
                             MPI_Request* request) {
  *options.inapplicable_reason = verdict.message;
  return run_library_call(arguments, options, request);
}

MaybeFailure begin_set_up(const CallArguments& arguments, CallSetup& setup) {
  if (auto failure = find_comm_state(arguments.comm, setup.state)) return failure;
  setup.tags = setup.state->next_call_tags();
  return std::nullopt;
}

MaybeFailure choose_algorithm(CheckedCall& call, const CallSetup& setup, AutoTraffic traffic) {
  CommState& state = *setup.state;
  if (call.auto_select) {
    if (auto failure = resolve_auto(state, call, setup.private_comm, traffic)) return failure;
    if (call.native) return std::nullopt;
    if (!call.algorithm->needs_topology) {
      if (auto failure = check_applies(call)) return failure;
    }
  }
  return attach_topology(state, call);
}

MaybeFailure set_up_call(const CallArguments& arguments, CheckedCall& call, CallSetup& setup, bool wait_for_duplicate,
                         AutoTraffic traffic, bool may_wait_for_peers) {
  if (auto failure = begin_set_up(arguments, setup)) return failure;
  CommState& state = *setup.state;
  // The collectives this call may start on the private duplicate come after those of the calls
  // set up after their start.
  if (may_wait_for_peers && state.set_ups_pending()) state.settle_deferred_set_ups();
  if (call.auto_select) {
    if (auto failure = state.private_comm(setup.private_comm)) return failure;
  }
  // The first call on a communicator discovers its topology, then duplicates it: collective
  // steps, in the same order on every rank.
  if (auto failure = choose_algorithm(call, setup, traffic)) return failure;
  if (call.native) return std::nullopt;
  if (!wait_for_duplicate) return state.private_comm_without_waiting(setup.private_comm);
  return state.private_comm(setup.private_comm);
}

bool asks_block_sizes(const CheckedCall& call) {
  return is_variable(call.operation) && call.algorithm->size_questions != nullptr;
}

void start_block_sizes(CheckedCall& call, CallBlocks& blocks, const CallSetup& setup, BlockSizeExchange& exchange) {
  exchange.start(*call.algorithm, call.problem, call.rank, *blocks.local, setup.private_comm, setup.tags.block_sizes);
}

MaybeFailure plan_and_stage(const CallArguments& arguments, CheckedCall& call, const CallSetup& setup,
                            std::shared_ptr<const ExecutionPlan>& plan, StagedBuffers& buffers) {
  if (auto failure = find_or_build_plan(*setup.state, call, plan)) return failure;
  return stage_buffers(arguments, call, setup, plan->scratch_bytes, buffers);
}

MaybeFailure stage_buffers(const CallArguments& arguments, const CheckedCall& call, const CallSetup& setup,
                           std::size_t scratch_bytes, StagedBuffers& buffers) {
  if (call.settings.hollow) return std::nullopt;
  // MPI_Pack wants a communicator that returns errors: this process's own while the duplicate
  // is on its way.
  MPI_Comm pack_comm = setup.private_comm;
  if (pack_comm == MPI_COMM_NULL) {
    if (auto failure = local_probe_comm(pack_comm)) return failure;
  }
  return buffers.stage_in(arguments, call, scratch_bytes, pack_comm);
}

MaybeFailure prepare_walk(const CallArguments& arguments, CheckedCall& call, CallBlocks& blocks, const CallSetup& setup,
                          std::shared_ptr<const ExecutionPlan>& plan, StagedBuffers& buffers) {
  if (asks_block_sizes(call)) {
    BlockSizeExchange exchange;
    start_block_sizes(call, blocks, setup, exchange);
    if (auto failure = exchange.wait()) return failure;
  }
  return plan_and_stage(arguments, call, setup, plan, buffers);
}

}  // namespace topocoll::exec
