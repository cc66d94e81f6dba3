// What a rank knows of the blocks of a call, kept where the call's Problem can point at it.
#pragma once

#include <optional>

#include "exec/block_view.hpp"
#include "exec/call.hpp"

namespace topocoll::exec {

// What this rank knows of the blocks of the call, for the algorithm's plan: alltoall's are
// implied by the block size; the v forms' come from the rank's own arguments plus the sizes
// it is told; scatter's and gather's every rank can work out.
struct CallBlocks {
  std::optional<RootedBlocks> uniform_rooted;
  std::optional<LocalBlocks> local;

  void attach(CheckedCall& call) {
    const Operation op = call.operation;
    if (op == Operation::alltoall) return;
    if (!is_variable(op)) {
      uniform_rooted.emplace(
          RootedBlocks::uniform(RootedBlocks::flow_of(op), call.problem.root, call.problem.size, call.block_bytes));
    }
    local.emplace(call.rank, call.send, call.recv, uniform_rooted ? &*uniform_rooted : nullptr);
    call.problem.blocks = &*local;
  }
};

}  // namespace topocoll::exec
