// The steps of a call before its schedule's rounds, shared by the blocking call (collective.cpp)
// and the nonblocking one (nonblocking.cpp): the algorithm's verdict, the call's set-up on its
// communicator, and its plan with the buffers staged for it.
#pragma once

#include <mpi.h>

#include <memory>

#include "exec/auto_choice.hpp"
#include "exec/block_size_exchange.hpp"
#include "exec/call.hpp"
#include "exec/call_blocks.hpp"
#include "exec/comm_state.hpp"
#include "exec/execution_plan.hpp"
#include "exec/failure.hpp"
#include "exec/staging.hpp"

namespace topocoll::exec {

// MPI_ERR_ARG marked inapplicable, naming the algorithm and why, when it does not apply.
MaybeFailure check_applies(const CheckedCall& call);

// The MPI library's own call with the user's arguments, blocking (request null) or started
// (`request` set: MPI_Ialltoall ...): its failure is recorded under the operation's name
// ("alltoall (native): MPI_Alltoall"), and "native" reported as the algorithm that answered.
int run_library_call(const CallArguments& arguments, const CollectiveOptions& options, MPI_Request* request);
// The same in place of an algorithm that does not apply (`verdict`, reported as the reason),
// where the caller asked for the MPI library then (options.inapplicable_reason set).
int run_library_call_instead(const CallArguments& arguments, const CollectiveOptions& options, const Failure& verdict,
                             MPI_Request* request);

struct CallSetup {
  CommState* state = nullptr;
  CallTags tags;
  MPI_Comm private_comm = MPI_COMM_NULL;
};

// Takes the call's tags, resolves auto (call.native when its table named the MPI library's own),
// attaches the topology and finds the private communicator. Collective on the first use of a
// communicator (its duplicate, its topology) and for auto's summary of a v form. Without
// `wait_for_duplicate` (a nonblocking call), a duplicate still being made leaves
// setup.private_comm null (CommState::private_comm_without_waiting).
// `traffic`: which summary auto chooses a v form by (auto_choice.hpp). A call that may wait for
// peers first settles the calls set up after their start (CommState::settle_deferred_set_ups).
MaybeFailure set_up_call(const CallArguments& arguments, CheckedCall& call, CallSetup& setup,
                         bool wait_for_duplicate = true, AutoTraffic traffic = AutoTraffic::with_the_call,
                         bool may_wait_for_peers = true);
// Its steps, for a call set up after its start: the communicator's state and the call's tags (at
// the start), then (once the topology is known, setup.private_comm made) auto's choice, the
// topology attached and the algorithm's verdict on it.
MaybeFailure begin_set_up(const CallArguments& arguments, CallSetup& setup);
MaybeFailure choose_algorithm(CheckedCall& call, const CallSetup& setup, AutoTraffic traffic);

// Whether the call is a v form whose algorithm learns block sizes from other ranks before its
// plan (Algorithm::size_questions), over setup.private_comm, which must then be made.
bool asks_block_sizes(const CheckedCall& call);
// Posts that exchange (block_size_exchange.hpp), under the call's tag for it.
void start_block_sizes(CheckedCall& call, CallBlocks& blocks, const CallSetup& setup, BlockSizeExchange& exchange);

// The plan (the uniform operations' cached per communicator, the v forms' built for the call's
// sizes, which must be known), then the buffers staged for it (none for a hollow call).
MaybeFailure plan_and_stage(const CallArguments& arguments, CheckedCall& call, const CallSetup& setup,
                            std::shared_ptr<const ExecutionPlan>& plan, StagedBuffers& buffers);

// The buffers staged for `scratch_bytes` of scratch (none for a hollow call), packing with the
// private communicator or, while its duplicate is on its way, this process's own.
MaybeFailure stage_buffers(const CallArguments& arguments, const CheckedCall& call, const CallSetup& setup,
                           std::size_t scratch_bytes, StagedBuffers& buffers);

// The blocking call's: the sizes asked, waited for, then plan_and_stage.
MaybeFailure prepare_walk(const CallArguments& arguments, CheckedCall& call, CallBlocks& blocks,
                          const CallSetup& setup, std::shared_ptr<const ExecutionPlan>& plan, StagedBuffers& buffers);

}  // namespace topocoll::exec
