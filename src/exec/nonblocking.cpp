#include "exec/nonblocking.hpp"

#include <exception>
#include <memory>
#include <new>
#include <string>
#include <utility>

#include "exec/algorithm_setup.hpp"
#include "exec/block_size_exchange.hpp"
#include "exec/call_blocks.hpp"
#include "exec/call_checks.hpp"
#include "exec/call_steps.hpp"
#include "exec/comm_state.hpp"
#include "exec/error_report.hpp"
#include "exec/executor.hpp"
#include "exec/held_datatypes.hpp"
#include "exec/liu_exchange.hpp"
#include "exec/mpi_handles.hpp"
#include "exec/native_call.hpp"
#include "exec/outstanding.hpp"
#include "exec/staging.hpp"
#include "exec/stand_in.hpp"

namespace topocoll::exec {

namespace {

Failure inapplicable(std::string reason) { return Failure{MPI_ERR_ARG, std::move(reason), true}; }

}  // namespace

#ifdef TOPOCOLL_SMPI
bool completion_calls_linked();  // smpi_completion_calls.cpp: what moves the collectives on there
#endif

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
    if (setup.private_comm == MPI_COMM_NULL) {   // the communicator's first call: its duplicate is on its way
      if (auto failure = setup.state->private_comm_without_waiting(setup.private_comm)) return finish(failure);
      if (setup.private_comm == MPI_COMM_NULL) return false;
    }
    MaybeFailure failure;
    if (set_up_after_start) {
      if (!set_up_now(failure)) return false;
      if (failure) return finish(failure);
    }
    if (library != MPI_REQUEST_NULL) {  // handed on after the start: the library's call, on the duplicate
      int done = 0;
      if (const int rc = MPI_Test(&library, &done, MPI_STATUS_IGNORE); rc != MPI_SUCCESS) {
        failure = mpi_call_failure(native_start_name(arguments), rc);
        return finish(failure);
      }
      return done != 0 && finish(failure);
    }
    if (call.algorithm->self_describing) {  // liu: its stages instead of a plan's rounds
      if (liu == nullptr) {
        liu = std::make_unique<LiuExchange>(call.problem, call.rank, buffers.bytes(), setup.private_comm,
                                            setup.tags.schedule, call.settings.copy_bandwidth);
      }
      if (!liu->advance(false)) return false;
      failure = liu->take_failure();
    } else {
      if (walk == nullptr) {
        if (plan == nullptr && !learn_block_sizes()) return false;
        if (failed_before_walk) return finish(failed_before_walk);
        walk = std::make_unique<PlanWalk>(*plan, buffers.bytes(), setup.private_comm, setup.tags.schedule,
                                          call.settings, false);
      }
      if (!walk->advance()) return false;
      failure = walk->take_failure();
    }
    if (!failure && !call.settings.hollow) failure = buffers.stage_out(arguments, call, setup.private_comm);
    return finish(failure);
  }

  // A v form whose algorithm asks block sizes: their exchange (started at the first progress
  // after the duplicate is made), then the plan and the staged buffers. False while on its way.
  bool learn_block_sizes() {
    if (sizes == nullptr) {
      sizes = std::make_unique<BlockSizeExchange>();
      start_block_sizes(call, blocks, setup, *sizes);
    }
    if (!sizes->test(failed_before_walk)) return false;
    if (!failed_before_walk) failed_before_walk = plan_and_stage(arguments, call, setup, plan, buffers);
    return true;
  }

  // A call set up after its start, at its turn (CommState's tickets): the topology discovered
  // (without waiting), the algorithm chosen and its verdict, then the library's call on the
  // private duplicate where auto or the verdict hands the call on, else the plan (as `prepare`
  // would have made it at the start). False while the turn or the discovery is to come.
  bool set_up_now(MaybeFailure& failure) {
    CommState& state = *setup.state;
    if (!state.set_up_turn(ticket)) return false;
    const Topology* topology = nullptr;
    failure = state.topology_without_waiting(call.topology_spec, topology);
    if (!failure && topology == nullptr) return false;
    set_up_after_start = false;
    if (!failure) failure = choose_algorithm(call, setup, AutoTraffic::latest_known);
    if (failure && failure->inapplicable && hands_on) {
      failure.reset();
      call.native = true;
    }
    if (!failure && call.native) {
      CallArguments on_duplicate = arguments;
      on_duplicate.comm = setup.private_comm;
      if (const int rc = start_native(on_duplicate, &library); rc != MPI_SUCCESS) {
        failure = mpi_call_failure(native_start_name(arguments), rc);
      }
    } else if (!failure) {
      failure = prepare_plan();
    }
    pass_ticket();
    return true;
  }

  // Set-up done: the plan with its staged buffers unless the call learns block sizes first (its
  // walk's first stage, learn_block_sizes; liu, which has no plan, stages its buffers alone).
  MaybeFailure prepare_plan() {
#ifdef TOPOCOLL_SMPI
    if (call.algorithm->self_describing) {
      return inapplicable(std::string(call.algorithm->name) +
                          " has no nonblocking form under SMPI: its stages are polled, and SMPI charges every test");
    }
#endif
    if (call.algorithm->self_describing) return stage_buffers(arguments, call, setup, 0, buffers);
    if (asks_block_sizes(call)) return std::nullopt;
    return plan_and_stage(arguments, call, setup, plan, buffers);
  }

  void pass_ticket() {
    if (ticket_held) setup.state->set_up_passed(ticket);
    ticket_held = false;
  }

  ~PendingCollective() override { pass_ticket(); }

  const void* owner() const override { return setup.state; }

  // The walk's, or before it the block sizes' (the duplicate, the discovery, the library's call
  // and liu's stages list none: they are only polled, and not run where nothing polls, SMPI).
  void requests_in_flight(std::vector<MPI_Request*>& slots) override {
    if (walk != nullptr) {
      walk->requests_in_flight(slots);
    } else if (sizes != nullptr) {
      sizes->requests_in_flight(slots);
    }
  }

  // The walk starts (once the private duplicate is made): its first round goes out now. True
  // when it has already finished.
  bool start() { return advance(); }

  CallArguments arguments;
  HeldDatatypes datatypes;  // arguments' own, held until the walk ends
  StandInCall stand_in;  // a stand-in's arguments point into it
  CheckedCall call;
  CallBlocks blocks;
  CallSetup setup;
  std::shared_ptr<const ExecutionPlan> plan;
  StagedBuffers buffers;
  std::unique_ptr<BlockSizeExchange> sizes;
  MaybeFailure failed_before_walk;
  std::unique_ptr<PlanWalk> walk;
  std::unique_ptr<LiuExchange> liu;
  // Set up after the start (check_start): at the turn of `ticket`, which it holds until then.
  bool set_up_after_start = false;
  std::uint64_t ticket = 0;
  bool ticket_held = false;
  bool hands_on = false;                   // an inapplicable verdict hands the call to the library
  MPI_Request library = MPI_REQUEST_NULL;  // the library's call, where it was handed on after the start
  std::string label;                  // "ialltoall (pairwise)", for a failure's message
  RequestOutcome* outcome = nullptr;  // null for a stand-in: no user waits for it
  MPI_Request request = MPI_REQUEST_NULL;

 private:
  // The user's request completes, with the failure's code and message if any. Always true.
  bool finish(MaybeFailure& failure) {
    pass_ticket();
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

// What a call set up after its start is chosen by (options.chosen_by).
constexpr const char* kChosenAfterTheStart =
    "the topology discovered after the start; where auto or the algorithm's verdict then names the MPI library's "
    "own, it runs on topocoll's duplicate of the communicator";

// Whether the call can start under `rule`, before its set-up: an inapplicable failure when not,
// a verdict every rank reaches alike (the same algorithm, the same state of the communicator).
// `after_start`: the call sets itself up after its start (a start that never waits on a
// communicator whose topology is not agreed yet: CommState's deferred set-up).
MaybeFailure check_start(const CheckedCall& call, const CallArguments& arguments, StartRule rule, bool& after_start) {
  after_start = false;
#ifdef TOPOCOLL_SMPI
  (void)completion_calls_linked();  // (the reference links them into the program)
#endif
  if (std::string missing = progress_hook_missing(); !missing.empty()) {
    return inapplicable("no nonblocking form here: " + missing);
  }
  const bool variable = is_variable(call.operation);
  const Algorithm* algorithm = call.algorithm;
  if (rule == StartRule::may_wait_for_peers) return std::nullopt;
  CommState* state = nullptr;
  if (auto failure = find_comm_state(arguments.comm, state)) return failure;
  const bool topology = call.auto_select || algorithm->needs_topology;
  const bool network = (call.auto_select || algorithm->reads_routes) && !call.network_path.empty();
  // A missing duplicate is no obstacle: it is made without waiting (MPI_Comm_idup), but under
  // MPICH (comm_state.hpp).
  if (state->set_up_for(nullptr, nullptr) == CommState::SetUp::needs_peers) {
    return inapplicable(
        "the communicator has no private duplicate yet, and under this MPI library making one "
        "waits for every rank (a first blocking call makes it), while a nonblocking start never "
        "waits for another rank");
  }
  if (network && state->set_up_for(nullptr, &call.network_path) == CommState::SetUp::needs_peers) {
    return inapplicable(
        "the communicator's ranks are not placed on the network yet (a first blocking call places "
        "them, with every rank), and a nonblocking start never waits for another rank");
  }
  // auto chooses an irregular call by a summary of its traffic, which the blocking calls of its
  // kind exchange (traffic_summary_exchange.hpp); a start that never waits takes the latest.
  if (call.auto_select && variable && !state->traffic_summaries(call.operation).latest()) {
    return inapplicable("auto chooses an irregular call by the traffic of the communicator's earlier blocking calls "
                        "of its kind, and there was none yet (the first one exchanges it, with every rank), and a "
                        "nonblocking start never waits for another rank");
  }
  after_start = topology && !state->topology_agreed(call.topology_spec);
  return std::nullopt;
}

// Set-up, and the plan with its staged buffers (PendingCollective::prepare_plan), or for a call
// set up after its start only its tags and its turn; the walk is not started. The private
// duplicate may still be on its way, except under auto, whose set-up has it already under
// StartRule::never_waits. auto chooses a v form by the traffic summaries settled at the start
// where it may wait, by the latest known where it never waits (check_start made sure there is one).
MaybeFailure prepare(PendingCollective& p, StartRule rule) {
  if (p.set_up_after_start) {  // the tags and the turn now, the rest at its turn
    if (auto failure = begin_set_up(p.arguments, p.setup)) return failure;
    p.ticket = p.setup.state->take_set_up_ticket();
    p.ticket_held = true;
    return p.setup.state->private_comm_without_waiting(p.setup.private_comm);
  }
  const bool may_wait = rule == StartRule::may_wait_for_peers;
  const AutoTraffic traffic = may_wait ? AutoTraffic::settled : AutoTraffic::latest_known;
#ifdef TOPOCOLL_SMPI
  const bool wait_for_duplicate = p.call.auto_select || may_wait;  // a duplicate on its way is only polled
#else
  const bool wait_for_duplicate = p.call.auto_select;
#endif
  if (auto failure = set_up_call(p.arguments, p.call, p.setup, wait_for_duplicate, traffic, may_wait)) return failure;
  if (p.call.native) return std::nullopt;
  return p.prepare_plan();
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
  p.hands_on = options.inapplicable_reason != nullptr;  // as its peers'
  take_machine_files(options, defaults, p.call);
  if (check_start(p.call, p.arguments, rule, p.set_up_after_start)) return;  // the peers handed the call on
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
    failure = check_start(p.call, p.arguments, rule, p.set_up_after_start);
    p.hands_on = options.inapplicable_reason != nullptr;
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
    p.datatypes.hold(p.arguments, p.call.problem.size);
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
  if (options.chosen_by != nullptr) {
    *options.chosen_by = p.set_up_after_start ? kChosenAfterTheStart : p.call.auto_chosen_by;
  }
  if (p.call.native) return run_library_call(arguments, options, request);  // auto, from the decision table
  if (options.chosen_algorithm != nullptr) {
    *options.chosen_algorithm = p.call.algorithm != nullptr ? p.call.algorithm->name : "auto";
  }
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
