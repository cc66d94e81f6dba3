#include "exec/collective.hpp"

#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>

#include "exec/algorithm_setup.hpp"
#include "exec/auto_shortcut.hpp"
#include "exec/call_blocks.hpp"
#include "exec/call_checks.hpp"
#include "exec/call_steps.hpp"
#include "exec/comm_state.hpp"
#include "exec/error_report.hpp"
#include "exec/executor.hpp"
#include "exec/liu_exchange.hpp"
#include "exec/mpi_handles.hpp"
#include "exec/outstanding.hpp"
#include "exec/reused.hpp"
#include "exec/staging.hpp"
#include "exec/stand_in.hpp"

namespace topocoll::exec {

namespace {

MaybeFailure run_schedule(const CallArguments& arguments, CheckedCall& call, CallBlocks& blocks) {
  CallSetup setup;
  if (auto failure = set_up_call(arguments, call, setup)) return failure;
  if (call.native) return std::nullopt;  // auto's decision table named the MPI library's own: run_checked runs it
  // A hollow run (a stand-in, stand_in.hpp) has no buffers: nothing is staged in or out.
  const bool hollow = call.settings.hollow;
  if (call.algorithm->self_describing) {
    StagedBuffers buffers;
    if (!hollow) {
      if (auto failure = buffers.stage_in(arguments, call, 0, setup.private_comm)) return failure;
    }
    // The stand-in's blocks are all empty: the exchange reads and writes none of its buffers.
    if (auto failure = run_liu_exchange(call.problem, call.rank, buffers.bytes(), setup.private_comm,
                                        setup.tags.schedule, call.settings.copy_bandwidth)) {
      return failure;
    }
    return hollow ? std::nullopt : buffers.stage_out(arguments, call, setup.private_comm);
  }
  std::shared_ptr<const ExecutionPlan> plan;
  StagedBuffers buffers;
  if (auto failure = prepare_walk(arguments, call, blocks, setup, plan, buffers)) return failure;
  if (auto failure = execute_plan(*plan, buffers.bytes(), setup.private_comm, setup.tags.schedule, call.settings)) {
    return failure;
  }
  return hollow ? std::nullopt : buffers.stage_out(arguments, call, setup.private_comm);
}

// auto's traffic summary of a v form (traffic_summary_exchange.hpp): its row stage went with the
// call, its column stage goes on its way now, to be completed by the next call. After a failed
// exchange too: every rank whose call posted the row stage posts the column stage.
MaybeFailure summary_between_calls(MPI_Comm comm, const CheckedCall& call) {
  if (!call.auto_select || !is_variable(call.operation)) return std::nullopt;
  CommState* state = nullptr;
  if (auto failure = find_comm_state(comm, state)) return failure;
  return state->traffic_summaries(call.operation).after_call();
}

// This rank's arguments failed their checks, but its peers, whose arguments may be fine, begin
// the exchange: it takes part with a stand-in (stand_in.hpp), so that none of them waits for
// it and the communicator's tags stay in step for later calls. What the stand-in meets (empty
// messages where data was due, a message longer than its empty receive) is this rank's own
// call failing, already reported: it is dropped. A stand-in that auto hands to the MPI library
// is not run: the peers then call the library too, which answers a bad argument itself.
void take_part_despite_failure(const CallArguments& failed, const CollectiveOptions& options,
                               const EnvironmentDefaults& defaults, const CheckedCall& checked) {
  int size = 0;
  if (MPI_Comm_size(failed.comm, &size) != MPI_SUCCESS) return;
  StandInCall stand_in;
  make_stand_in(failed, checked.rank, size, stand_in);
  CheckedCall call;
  CallBlocks blocks;
  if (check_call(stand_in.arguments, options, call)) return;
  blocks.attach(call);
  if (call.native || (!call.auto_select && !call.algorithm->needs_topology && check_applies(call))) return;
  call.settings.hollow = true;
  take_machine_files(options, defaults, call);
  const WorldErrorsReturned errors_come_back;  // its receives fail by design (mpi_handles.hpp)
  (void)run_schedule(stand_in.arguments, call, blocks);
  (void)summary_between_calls(failed.comm, call);
}

// auto has handed a call of this shape to the MPI library before: the same again, at once.
bool hand_on_as_before(const CallArguments& arguments, const CollectiveOptions& options,
                       const EnvironmentDefaults& defaults, int& rc) {
  if (options.algorithm != "auto" || arguments.comm == MPI_COMM_NULL) return false;
  CommState* state = nullptr;
  if (find_comm_state(arguments.comm, state)) return false;
  const HandedOnShape* shape = state->auto_shortcuts().find(arguments, options, defaults);
  if (shape == nullptr) return false;
  rc = run_library_call(arguments, options, nullptr);
  if (rc == MPI_SUCCESS && options.chosen_by != nullptr) *options.chosen_by = shape->chosen_by;
  return true;
}

int run_checked(const CallArguments& arguments, const CollectiveOptions& options,
                const EnvironmentDefaults& defaults) {
  const std::string op(operation_name(arguments));
  if (!mpi_is_active()) {
    return report_failure(arguments.comm, Failure{MPI_ERR_OTHER, op + ": called before MPI_Init or after MPI_Finalize"});
  }
  advance_outstanding();  // nonblocking calls on their way move on (one atomic load when there is none)
  if (int rc = MPI_SUCCESS; hand_on_as_before(arguments, options, defaults, rc)) return rc;
  Reused<CheckedCall> reused_call;  // the per-peer vectors of the thread's previous call
  CheckedCall& call = *reused_call;
  CallBlocks blocks;
  MaybeFailure failure = check_call(arguments, options, call);
  if (!failure) {
    blocks.attach(call);
    // Whether an algorithm that needs no topology applies is known now, before any communication.
    if (call.algorithm != nullptr && !call.native && !call.algorithm->needs_topology) failure = check_applies(call);
  }
  if (failure && failure->inapplicable && options.inapplicable_reason != nullptr) {
    return run_library_call_instead(arguments, options, *failure, nullptr);
  }
  if (failure) {
    if (call.can_take_part && !call.native) take_part_despite_failure(arguments, options, defaults, call);
    failure->message = op + ": " + failure->message;
    return report_failure(arguments.comm, *failure);
  }
  if (call.native) return run_library_call(arguments, options, nullptr);
  take_machine_files(options, defaults, call);
  MaybeFailure run_failure, summary_failure;
  {
    const WorldErrorsReturned errors_come_back;  // as topocoll's own, raised below (mpi_handles.hpp)
    run_failure = run_schedule(arguments, call, blocks);
    summary_failure = summary_between_calls(arguments.comm, call);
  }
  if (!run_failure) run_failure = std::move(summary_failure);
  if (run_failure && run_failure->inapplicable && options.inapplicable_reason != nullptr) {
    return run_library_call_instead(arguments, options, *run_failure, nullptr);
  }
  if (run_failure) {
    const std::string requested =
        options.algorithm.empty() ? std::string(default_algorithm(arguments.operation)) : options.algorithm;
    run_failure->message = op + " (" + requested + "): " + run_failure->message;
    return report_failure(arguments.comm, *run_failure);
  }
  if (call.native) {  // auto, from the decision table
    if (CommState* state = nullptr; !find_comm_state(arguments.comm, state)) state->auto_shortcuts().remember(call);
    const int rc = run_library_call(arguments, options, nullptr);
    if (rc == MPI_SUCCESS && options.chosen_by != nullptr) *options.chosen_by = call.auto_chosen_by;
    return rc;
  }
  if (options.chosen_by != nullptr) *options.chosen_by = call.auto_chosen_by;
  if (options.chosen_algorithm != nullptr) *options.chosen_algorithm = call.algorithm->name;
  return MPI_SUCCESS;
}

}  // namespace

int run_collective(const CallArguments& arguments, const CollectiveOptions& options,
                   const EnvironmentDefaults* defaults) {
  const std::string op(operation_name(arguments));
  try {
    return run_checked(arguments, options, defaults != nullptr ? *defaults : EnvironmentDefaults::read());
  } catch (const std::bad_alloc&) {
    return report_failure(arguments.comm, Failure{MPI_ERR_NO_MEM, op + ": out of memory"});
  } catch (const std::exception& e) {
    return report_failure(arguments.comm, Failure{MPI_ERR_INTERN, op + ": " + e.what()});
  }
}

}  // namespace topocoll::exec
