// Runs liu (algorithms/liu.hpp) for one rank. Each stage: the pieces the rank holds are sorted
// by their next hop; every message of the stage is packed (header, then the payloads: local
// copies, charged under SMPI) and sent to each peer of the stage, empty or not; from each
// peer it expects one message, whose first part (at most kLiuFirstPartBytes) lands in a
// buffer posted in advance, and whose header says whether a second part follows. The
// received pieces stay where they landed until the next stage packs them; after the fourth,
// every piece is copied to its place in the receive buffer.
// The blocking call drives it to the end; a nonblocking one advances it at each progress
// without blocking (the same stages, tested instead of waited for).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "algorithms/liu.hpp"
#include "algorithms/problem.hpp"
#include "exec/executor.hpp"
#include "exec/failure.hpp"

namespace topocoll::exec {

// `problem` knows this rank's blocks only (LocalBlocks). Every stage completes on every rank
// even after a failure (a message that breaks its header, a block whose bytes disagree with
// what this rank expects), so no peer is left waiting; the first failure is kept.
// `problem` and `buffers` must outlive the exchange.
class LiuExchange {
 public:
  LiuExchange(const Problem& problem, int rank, const ByteBuffers& buffers, MPI_Comm comm, int tag,
              double copy_bandwidth);
  LiuExchange(const LiuExchange&) = delete;
  LiuExchange& operator=(const LiuExchange&) = delete;
  ~LiuExchange();

  // Goes as far as it can (to the end when `block`); true once the last stage is through and
  // every piece placed.
  bool advance(bool block);
  // The first failure met, if any (valid once advance returned true).
  MaybeFailure take_failure();

 private:
  struct HeldPiece {
    LiuPiece piece;
    const std::byte* data = nullptr;
  };
  struct StageMessages;

  void keep(MaybeFailure failure);
  void keep_rc(const char* call, int rc);
  std::vector<std::byte> pack(const std::vector<HeldPiece>& pieces);
  void post(void* buffer, std::size_t bytes, int peer, bool receive, std::vector<MPI_Request>& requests);
  void start_stage(int stage);
  bool stage_through(bool block);
  void finish_stage();
  void unpack(const std::vector<std::byte>& message, int peer);
  void place();

  const Problem& problem_;
  const LiuGrid grid_;
  const int rank_;
  const ByteBuffers& buffers_;
  const MPI_Comm comm_;
  const int tag_;
  const double bandwidth_;
  int stage_ = -1;  // -1 before the first, kLiuStages + 1 once every piece is placed
  std::vector<HeldPiece> held_, staying_;
  std::vector<std::unique_ptr<StageMessages>> stages_;  // every stage's messages: held pieces point into them
  std::vector<int> from_;                               // the stage's peers that send to this rank
  std::vector<MPI_Request> first_parts_, others_;       // of the stage under way
  std::size_t first_parts_left_ = 0;
  bool lost_receives_ = false;  // a first part could not be posted: the stage's messages are dropped
  MaybeFailure failure_;
};

// The whole exchange, blocking; returns the first failure.
MaybeFailure run_liu_exchange(const Problem& problem, int rank, const ByteBuffers& buffers, MPI_Comm comm, int tag,
                              double copy_bandwidth);

}  // namespace topocoll::exec
