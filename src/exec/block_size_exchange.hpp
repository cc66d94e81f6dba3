// The v forms: before building its schedule, each rank learns the sizes of the blocks its
// algorithm makes it handle without owning them (Algorithm::size_questions: lg's collectors,
// the inner ranks of a scatter or gather tree), from the ranks that hold those sizes. Point-to-point on the private
// communicator, with the call's own tag for it; only between ranks that have something to say.
// The blocking call waits for it; a nonblocking one runs it as the stage before its walk, so that
// its start waits for no other rank.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "algorithms/registry.hpp"
#include "exec/block_view.hpp"
#include "exec/failure.hpp"
#include "exec/request_window.hpp"

namespace topocoll::exec {

class BlockSizeExchange {
 public:
  // Posts what this rank asks and what it tells (nothing where the algorithm asks nothing).
  // `blocks` must outlive the exchange; `comm` must return errors.
  void start(const Algorithm& algorithm, const Problem& problem, int rank, LocalBlocks& blocks, MPI_Comm comm, int tag);
  // Without blocking: true once every message is through, the sizes learnt told to the blocks
  // and `failure` the first failure if any; false (and `failure` untouched) while on their way.
  bool test(MaybeFailure& failure);
  MaybeFailure wait();
  void requests_in_flight(std::vector<MPI_Request*>& slots) { window_.requests_in_flight(slots); }

 private:
  void tell_learnt();

  LocalBlocks* blocks_ = nullptr;
  SizeQuestions questions_;
  std::vector<std::vector<std::uint64_t>> incoming_, outgoing_;  // per peer, posted as they stand
  RequestWindow window_;
};

}  // namespace topocoll::exec
