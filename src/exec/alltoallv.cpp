// topocoll::alltoallv: check the arguments, then either hand the call to the MPI library's own
// MPI_Alltoallv (`native`), or learn the block sizes the algorithm needs, build this rank's
// schedule for this call's sizes (not cached: they change from call to call), stage the
// buffers and walk the plan on the communicator's private duplicate.
#include <new>
#include <string>

#include "exec/algorithm_setup.hpp"
#include "exec/alltoallv_checks.hpp"
#include "exec/auto_choice.hpp"
#include "exec/block_size_exchange.hpp"
#include "exec/comm_state.hpp"
#include "exec/error_report.hpp"
#include "exec/execution_plan.hpp"
#include "exec/executor.hpp"
#include "exec/staging_v.hpp"
#include "topocoll/topocoll.hpp"

namespace topocoll {

namespace {

using exec::Failure;
using exec::MaybeFailure;

MaybeFailure run_schedule(const exec::AlltoallvArguments& arguments, exec::CheckedAlltoallv& call) {
  exec::CheckedAlltoall& c = call.common;
  exec::LocalBlocks blocks(call.rank, call.send, call.recv);
  c.problem.blocks = &blocks;
  c.problem.operation = Operation::alltoallv;
  exec::CommState* state = nullptr;
  if (auto failure = exec::find_comm_state(arguments.comm, state)) return failure;
  const exec::CallTags tags = state->next_call_tags();
  if (c.auto_select) {
    MPI_Comm comm = MPI_COMM_NULL;
    if (auto failure = state->private_comm(comm)) return failure;
    std::size_t sent = 0;
    for (std::size_t bytes : call.send.bytes) sent += bytes;
    if (auto failure = exec::resolve_auto(*state, c, comm, sent)) return failure;
  }
  if (!c.algorithm->needs_topology) {
    const Applicability applicability = c.algorithm->supports(c.problem);
    if (!applicability.ok) {
      return Failure{MPI_ERR_ARG, "algorithm '" + std::string(c.algorithm->name) +
                                      "' does not apply: " + applicability.reason};
    }
  }
  if (auto failure = exec::attach_topology(*state, c)) return failure;
  MPI_Comm private_comm = MPI_COMM_NULL;
  if (auto failure = state->private_comm(private_comm)) return failure;
  if (auto failure = exec::exchange_block_sizes(*c.algorithm, c.problem, call.rank, call.send, blocks,
                                                private_comm, tags.block_sizes)) {
    return failure;
  }

  const RankSchedule schedule = c.algorithm->build(c.problem, call.rank);
  exec::ExecutionPlan plan;
  if (auto failure = exec::build_execution_plan(schedule, call.send.total, call.recv.total, plan)) {
    failure->message = "the " + std::string(c.algorithm->name) + " schedule is invalid: " + failure->message;
    return failure;
  }
  exec::StagedBlocks buffers;
  if (auto failure = buffers.stage_in(arguments, call, plan.scratch_bytes, private_comm)) return failure;
  if (auto failure = exec::execute_plan(plan, buffers.bytes(), private_comm, tags.schedule, c.settings)) return failure;
  return buffers.stage_out(arguments, call, private_comm);
}

int run_alltoallv(const exec::AlltoallvArguments& arguments, const AlltoallOptions& options) {
  if (!exec::mpi_is_active()) {
    return exec::report_failure(arguments.comm,
                                Failure{MPI_ERR_OTHER, "alltoallv: called before MPI_Init or after MPI_Finalize"});
  }
  exec::CheckedAlltoallv call;
  if (auto failure = exec::check_alltoallv(arguments, options, call)) {
    failure->message = "alltoallv: " + failure->message;
    return exec::report_failure(arguments.comm, *failure);
  }
  if (call.common.native) {
    const int rc = MPI_Alltoallv(arguments.sendbuf, arguments.sendcounts, arguments.sdispls, arguments.sendtype,
                                 arguments.recvbuf, arguments.recvcounts, arguments.rdispls, arguments.recvtype,
                                 arguments.comm);
    if (rc != MPI_SUCCESS) exec::record_failure(exec::mpi_call_failure("alltoallv (native): MPI_Alltoallv", rc));
    if (rc == MPI_SUCCESS && options.chosen_algorithm != nullptr) *options.chosen_algorithm = "native";
    return rc;
  }
  call.common.topology_spec = exec::topology_spec_of(options);
  call.common.calibration_path = exec::calibration_path_of(options);
  if (auto failure = run_schedule(arguments, call)) {
    failure->message = "alltoallv (" + options.algorithm + "): " + failure->message;
    return exec::report_failure(arguments.comm, *failure);
  }
  if (options.chosen_algorithm != nullptr) *options.chosen_algorithm = call.common.algorithm->name;
  return MPI_SUCCESS;
}

}  // namespace

int alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
              const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
              const AlltoallOptions& options) {
  const exec::AlltoallvArguments arguments{sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                           recvcounts, rdispls, recvtype, comm};
  try {
    return run_alltoallv(arguments, options);
  } catch (const std::bad_alloc&) {
    return exec::report_failure(comm, Failure{MPI_ERR_NO_MEM, "alltoallv: out of memory"});
  } catch (const std::exception& e) {
    return exec::report_failure(comm, Failure{MPI_ERR_INTERN, std::string("alltoallv: ") + e.what()});
  }
}

}  // namespace topocoll
