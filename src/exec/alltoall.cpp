// topocoll::alltoall: check the arguments, then either hand the call to the MPI library's
// own MPI_Alltoall (`native`) or find (or build and cache) this rank's ExecutionPlan, stage
// the user's buffers and walk the plan on the communicator's private duplicate.
#include <memory>
#include <new>
#include <string>

#include "exec/algorithm_setup.hpp"
#include "exec/alltoall_checks.hpp"
#include "exec/auto_choice.hpp"
#include "exec/comm_state.hpp"
#include "exec/error_report.hpp"
#include "exec/execution_plan.hpp"
#include "exec/executor.hpp"
#include "exec/mpi_handles.hpp"
#include "exec/staging.hpp"
#include "topocoll/topocoll.hpp"

namespace topocoll {

namespace {

using exec::Failure;
using exec::MaybeFailure;

MaybeFailure find_or_build_plan(exec::CommState& state, const exec::CheckedAlltoall& call, MPI_Comm comm,
                                const exec::ExecutionPlan*& plan) {
  exec::PlanKey key{std::string(call.algorithm->name), call.block_bytes, call.problem.knobs,
                    call.algorithm->needs_topology ? call.topology_spec : std::string()};
  plan = state.plans().find(key);
  if (plan != nullptr) return std::nullopt;
  int rank = 0;
  const int rc = MPI_Comm_rank(comm, &rank);
  if (rc != MPI_SUCCESS) return exec::mpi_call_failure("MPI_Comm_rank", rc);
  const RankSchedule schedule = call.algorithm->build(call.problem, rank);
  auto built = std::make_unique<exec::ExecutionPlan>();
  const std::size_t buffer_bytes = static_cast<std::size_t>(call.problem.size) * call.block_bytes;
  if (auto failure = exec::build_execution_plan(schedule, buffer_bytes, buffer_bytes, *built)) {
    failure->message = "the " + key.algorithm + " schedule is invalid: " + failure->message;
    return failure;
  }
  plan = state.plans().insert(std::move(key), std::move(built));
  return std::nullopt;
}

MaybeFailure run_schedule(const exec::AlltoallArguments& arguments, exec::CheckedAlltoall& call) {
  exec::CommState* state = nullptr;
  if (auto failure = exec::find_comm_state(arguments.comm, state)) return failure;
  const exec::CallTags tags = state->next_call_tags();
  if (call.auto_select) {
    MPI_Comm comm = MPI_COMM_NULL;
    if (auto failure = state->private_comm(comm)) return failure;
    if (auto failure = exec::resolve_auto(*state, call, comm)) return failure;
  }
  if (auto failure = exec::attach_topology(*state, call)) return failure;
  const exec::ExecutionPlan* plan = nullptr;
  if (auto failure = find_or_build_plan(*state, call, arguments.comm, plan)) return failure;
  MPI_Comm private_comm = MPI_COMM_NULL;
  if (auto failure = state->private_comm(private_comm)) return failure;

  exec::StagedBuffers buffers;
  if (auto failure = buffers.stage_in(arguments, call, plan->scratch_bytes, private_comm)) return failure;
  if (auto failure = exec::execute_plan(*plan, buffers.bytes(), private_comm, tags.schedule, call.settings)) {
    return failure;
  }
  return buffers.stage_out(arguments, call, private_comm);
}

int run_alltoall(const exec::AlltoallArguments& arguments, const AlltoallOptions& options) {
  if (!exec::mpi_is_active()) {
    return exec::report_failure(arguments.comm,
                                Failure{MPI_ERR_OTHER, "alltoall: called before MPI_Init or after MPI_Finalize"});
  }
  exec::CheckedAlltoall call;
  if (auto failure = exec::check_alltoall(arguments, options, call)) {
    failure->message = "alltoall: " + failure->message;
    return exec::report_failure(arguments.comm, *failure);
  }
  if (call.block_bytes == 0) return MPI_SUCCESS;  // every rank has nothing to send, by MPI's rules
  call.topology_spec = exec::topology_spec_of(options);
  call.calibration_path = exec::calibration_path_of(options);
  if (call.native) {
    const int rc = MPI_Alltoall(arguments.sendbuf, arguments.sendcount, arguments.sendtype, arguments.recvbuf,
                                arguments.recvcount, arguments.recvtype, arguments.comm);
    if (rc != MPI_SUCCESS) exec::record_failure(exec::mpi_call_failure("alltoall (native): MPI_Alltoall", rc));
    if (rc == MPI_SUCCESS && options.chosen_algorithm != nullptr) *options.chosen_algorithm = "native";
    return rc;
  }
  if (auto failure = run_schedule(arguments, call)) {
    failure->message = "alltoall (" + options.algorithm + "): " + failure->message;
    return exec::report_failure(arguments.comm, *failure);
  }
  if (options.chosen_algorithm != nullptr) *options.chosen_algorithm = call.algorithm->name;
  return MPI_SUCCESS;
}

}  // namespace

int alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
             MPI_Datatype recvtype, MPI_Comm comm, const AlltoallOptions& options) {
  const exec::AlltoallArguments arguments{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm};
  try {
    return run_alltoall(arguments, options);
  } catch (const std::bad_alloc&) {
    return exec::report_failure(comm, Failure{MPI_ERR_NO_MEM, "alltoall: out of memory"});
  } catch (const std::exception& e) {
    return exec::report_failure(comm, Failure{MPI_ERR_INTERN, std::string("alltoall: ") + e.what()});
  }
}

}  // namespace topocoll
