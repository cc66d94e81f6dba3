#include "exec/nonblocking.hpp"

#include <exception>
#include <memory>
#include <new>
#include <string>
#include <utility>

#include "exec/algorithm_setup.hpp"
#include "exec/call_blocks.hpp"
#include "exec/call_checks.hpp"
#include "exec/call_steps.hpp"
#include "exec/comm_state.hpp"
#include "exec/error_report.hpp"
#include "exec/executor.hpp"
#include "exec/mpi_handles.hpp"
#include "exec/outstanding.hpp"
#include "exec/staging.hpp"
#include "exec/stand_in.hpp"

namespace topocoll::exec {

namespace {

// One nonblocking collective from its start to its completion: everything the blocking call
// keeps on its stack, kept here until the last round (the call's blocks, its plan, its staged
// buffers; `arguments` points at the user's buffers and arrays, which MPI says stay untouched
// until the request completes).
class PendingCollective final : public Outstanding {
 public:
  explicit PendingCollective(const CallArguments& given) : arguments(given) {}

  // Called from MPI's progress engine (C): no exception leaves it; one ends the call, failed.
  bool advance() override {
    try {
      return advance_walk();
    } catch (const std::bad_alloc&) {
      MaybeFailure failure = Failure{MPI_ERR_NO_MEM, "out of memory"};
      return finish(failure);
    } catch (const std::exception& e) {
      MaybeFailure failure = Failure{MPI_ERR_INTERN, e.what()};
      return finish(failure);
    }
  }

  bool advance_walk() {
    const WorldErrorsReturned errors_come_back;  // as in the blocking call (mpi_handles.hpp)
    if (walk == nullptr) {  // the communicator's first call: its duplicate is on its way
      if (auto failure = setup.state->private_comm_without_waiting(setup.private_comm)) return finish(failure);
      if (setup.private_comm == MPI_COMM_NULL) return false;
      walk = std::make_unique<PlanWalk>(*plan, buffers.bytes(), setup.private_comm, setup.tags.schedule,
                                        call.settings, false);
    }
    if (!walk->advance()) return false;
    MaybeFailure failure = walk->take_failure();
    if (!failure && !call.settings.hollow) failure = buffers.stage_out(arguments, call, setup.private_comm);
    return finish(failure);
  }

  const void* owner() const override { return setup.state; }

  // The walk starts (once the private duplicate is made): its first round goes out now. True
  // when it has already finished.
  bool start() { return advance(); }

  CallArguments arguments;
  StandInCall stand_in;  // a stand-in's arguments point into it
  CheckedCall call;
  CallBlocks blocks;
  CallSetup setup;
  std::shared_ptr<const ExecutionPlan> plan;
  StagedBuffers buffers;
  std::unique_ptr<PlanWalk> walk;
  std::string label;                  // "ialltoall (pairwise)", for a failure's message
  RequestOutcome* outcome = nullptr;  // null for a stand-in: no user waits for it
  MPI_Request request = MPI_REQUEST_NULL;

 private:
  // The user's request completes, with the failure's code and message if any. Always true.
  bool finish(MaybeFailure& failure) {
    if (outcome == nullptr) return true;  // a stand-in's: its own failure was reported at its start
    int code = MPI_SUCCESS;
    if (failure) {
      failure->message = label + ": " + failure->message;
      record_failure(*failure);
      code = failure->code;
    }
    outcome->complete(request, code);
    return true;
  }
};

Failure inapplicable(std::string reason) { return Failure{MPI_ERR_ARG, std::move(reason), true}; }

// Whether the call can start under `rule`, before its set-up: an inapplicable failure when not,
// a verdict every rank reaches alike (the same algorithm, the same state of the communicator).
MaybeFailure check_start(const CheckedCall& call, const CallArguments& arguments, StartRule rule) {
  if (std::string missing = progress_hook_missing(); !missing.empty()) {
    return inapplicable("no nonblocking form here: " + missing);
  }
  const bool variable = is_variable(call.operation);
  const Algorithm* algorithm = call.algorithm;
  if (algorithm != nullptr && algorithm->self_describing) {
    return inapplicable("algorithm '" + std::string(algorithm->name) +
                        "' exchanges block sizes as it goes and has no nonblocking form yet");
  }
  if (rule == StartRule::may_wait_for_peers) return std::nullopt;
  if (variable && algorithm != nullptr && algorithm->size_questions != nullptr) {
    return inapplicable("algorithm '" + std::string(algorithm->name) +
                        "' learns block sizes from other ranks before its first round, and a nonblocking start "
                        "never waits for another rank");
  }
  CommState* state = nullptr;
  if (auto failure = find_comm_state(arguments.comm, state)) return failure;
  const bool topology = call.auto_select || algorithm->needs_topology;
  const bool network = call.auto_select || algorithm->reads_routes;
  // A missing duplicate is no obstacle: it is made without waiting (MPI_Comm_idup).
  if (state->set_up_for(topology ? &call.topology_spec : nullptr, network ? &call.network_path : nullptr) ==
      CommState::SetUp::needs_peers) {
    return inapplicable("the communicator's topology is not known to topocoll yet (a first blocking call discovers "
                        "it, with every rank), and a nonblocking start never waits for another rank");
  }
  // auto chooses an irregular call by a summary of its traffic, which the blocking calls of its
  // kind exchange (traffic_summary_exchange.hpp); a start that never waits takes the latest.
  if (call.auto_select && variable && !state->traffic_summaries(call.operation).latest()) {
    return inapplicable("auto chooses an irregular call by the traffic of the communicator's earlier blocking calls "
                        "of its kind, and there was none yet (the first one exchanges it, with every rank), and a "
                        "nonblocking start never waits for another rank");
  }
  return std::nullopt;
}

// After the set-up: what auto chose must have a nonblocking form too, and start under `rule`.
MaybeFailure check_chosen(const CheckedCall& call, StartRule rule) {
  if (!call.auto_select || call.native) return std::nullopt;
  const Algorithm& chosen = *call.algorithm;
  if (chosen.self_describing) {
    return inapplicable("auto chose '" + std::string(chosen.name) + "', which has no nonblocking form yet");
  }
  if (rule == StartRule::never_waits && is_variable(call.operation) && chosen.size_questions != nullptr) {
    return inapplicable("auto chose '" + std::string(chosen.name) +
                        "', which learns block sizes from other ranks before its first round, and a nonblocking start "
                        "never waits for another rank");
  }
  return std::nullopt;
}

// Set-up, plan and staged buffers; the walk is not started. The private duplicate may still be
// on its way, except where the start learns block sizes from other ranks over it (a v form
// whose algorithm asks them), or auto, whose set-up has it already under StartRule::never_waits.
// auto chooses a v form by the traffic summaries settled at the start where it may wait, by the
// latest known where it never waits (check_start made sure there is one).
MaybeFailure prepare(PendingCollective& p, StartRule rule) {
  const Algorithm* algorithm = p.call.algorithm;
  const bool asks_sizes = is_variable(p.call.operation) && algorithm != nullptr && algorithm->size_questions != nullptr;
  const AutoTraffic traffic =
      rule == StartRule::may_wait_for_peers ? AutoTraffic::settled : AutoTraffic::latest_known;
  if (auto failure = set_up_call(p.arguments, p.call, p.setup, p.call.auto_select || asks_sizes, traffic)) {
    return failure;
  }
  if (p.call.native) return std::nullopt;
  if (auto failure = check_chosen(p.call, rule)) return failure;
  return prepare_walk(p.arguments, p.call, p.blocks, p.setup, p.plan, p.buffers);
}

// As the blocking call's (collective.cpp): this rank's arguments failed, its peers may have
// started; it walks the plan they walk, hollow, in the background. Nobody waits for it.
void take_part_despite_failure(const CallArguments& failed, const CollectiveOptions& options,
                               const EnvironmentDefaults& defaults, StartRule rule, const CheckedCall& checked) {
  int size = 0;
  if (MPI_Comm_size(failed.comm, &size) != MPI_SUCCESS) return;
  auto pending = std::make_unique<PendingCollective>(CallArguments{});
  PendingCollective& p = *pending;
  make_stand_in(failed, checked.rank, size, p.stand_in);
  p.arguments = p.stand_in.arguments;
  if (check_call(p.arguments, options, p.call)) return;
  p.blocks.attach(p.call);
  if (p.call.native || (!p.call.auto_select && !p.call.algorithm->needs_topology && check_applies(p.call))) return;
  p.call.settings.hollow = true;
  take_machine_files(options, defaults, p.call);
  if (check_start(p.call, p.arguments, rule)) return;  // the peers handed the call on
  const WorldErrorsReturned errors_come_back;
  if (prepare(p, rule) || p.call.native) return;
  if (!p.start()) add_outstanding(std::move(pending));
}

int start_checked(const CallArguments& arguments, const CollectiveOptions& options, MPI_Request* request,
                  StartRule rule, const EnvironmentDefaults& defaults) {
  const std::string op = "i" + std::string(operation_name(arguments));
  if (!mpi_is_active()) {
    return report_failure(arguments.comm, Failure{MPI_ERR_OTHER, op + ": called before MPI_Init or after MPI_Finalize"});
  }
  if (request == nullptr) return report_failure(arguments.comm, Failure{MPI_ERR_REQUEST, op + ": request is null"});
  advance_outstanding();  // what is already on its way moves on first
  auto pending = std::make_unique<PendingCollective>(arguments);
  PendingCollective& p = *pending;
  MaybeFailure failure = check_call(p.arguments, options, p.call);
  if (!failure) {
    p.blocks.attach(p.call);
    if (p.call.algorithm != nullptr && !p.call.native && !p.call.algorithm->needs_topology) {
      failure = check_applies(p.call);
    }
  }
  if (!failure && !p.call.native) {
    take_machine_files(options, defaults, p.call);
    failure = check_start(p.call, p.arguments, rule);
  }
  if (failure && failure->inapplicable && options.inapplicable_reason != nullptr) {
    return run_library_call_instead(arguments, options, *failure, request);
  }
  if (failure) {
    if (p.call.can_take_part && !p.call.native) take_part_despite_failure(arguments, options, defaults, rule, p.call);
    failure->message = op + ": " + failure->message;
    return report_failure(arguments.comm, *failure);
  }
  if (p.call.native) return run_library_call(arguments, options, request);
  {
    const WorldErrorsReturned errors_come_back;  // as topocoll's own, raised below
    failure = prepare(p, rule);
    p.label = op + " (" + (p.call.algorithm != nullptr ? std::string(p.call.algorithm->name) : "auto") + ")";
    if (!failure && !p.call.native) failure = RequestOutcome::start_request(p.outcome, p.request);
  }
  if (failure && failure->inapplicable && options.inapplicable_reason != nullptr) {
    return run_library_call_instead(arguments, options, *failure, request);
  }
  if (failure) {
    const std::string requested =
        options.algorithm.empty() ? std::string(default_algorithm(arguments.operation)) : options.algorithm;
    failure->message = op + " (" + requested + "): " + failure->message;
    return report_failure(arguments.comm, *failure);
  }
  if (options.chosen_by != nullptr) *options.chosen_by = p.call.auto_chosen_by;
  if (p.call.native) return run_library_call(arguments, options, request);  // auto, from the decision table
  if (options.chosen_algorithm != nullptr) *options.chosen_algorithm = p.call.algorithm->name;
  *request = p.request;
  if (!p.start()) add_outstanding(std::move(pending));
  return MPI_SUCCESS;
}

}  // namespace

int start_collective(const CallArguments& arguments, const CollectiveOptions& options, MPI_Request* request,
                     StartRule rule, const EnvironmentDefaults* defaults) {
  const std::string op = "i" + std::string(operation_name(arguments));
  try {
    return start_checked(arguments, options, request, rule,
                         defaults != nullptr ? *defaults : EnvironmentDefaults::read());
  } catch (const std::bad_alloc&) {
    return report_failure(arguments.comm, Failure{MPI_ERR_NO_MEM, op + ": out of memory"});
  } catch (const std::exception& e) {
    return report_failure(arguments.comm, Failure{MPI_ERR_INTERN, op + ": " + e.what()});
  }
}

}  // namespace topocoll::exec
