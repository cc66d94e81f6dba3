#include "exec/block_size_exchange.hpp"

namespace topocoll::exec {

namespace {

PointToPoint sizes_message(PointToPoint::Direction direction, std::vector<std::uint64_t>& sizes, int peer) {
  return PointToPoint{direction, sizes.data(), static_cast<int>(sizes.size()), MPI_UINT64_T, peer,
                      sizes.size() * sizeof(std::uint64_t)};
}

}  // namespace

void BlockSizeExchange::start(const Algorithm& algorithm, const Problem& problem, int rank, LocalBlocks& blocks,
                              MPI_Comm comm, int tag) {
  blocks_ = &blocks;
  window_.reopen(comm, tag, 0);
  if (algorithm.size_questions == nullptr) return;
  const int p = problem.size;
  algorithm.size_questions(problem, rank, questions_);
  incoming_.assign(static_cast<std::size_t>(p), {});
  outgoing_.assign(static_cast<std::size_t>(p), {});
  for (int peer = 0; peer < p; ++peer) {
    if (peer == rank) continue;
    const auto q = static_cast<std::size_t>(peer);
    if (!questions_.learn[q].empty()) {
      incoming_[q].resize(questions_.learn[q].size());
      window_.post(sizes_message(PointToPoint::Direction::receive, incoming_[q], peer));
    }
    // A size this rank holds: of a block it sends, or (the root of gatherv) one it receives.
    for (const auto& [src, dst] : questions_.tell[q]) outgoing_[q].push_back(blocks.bytes(src, dst));
    if (!outgoing_[q].empty()) window_.post(sizes_message(PointToPoint::Direction::send, outgoing_[q], peer));
  }
}

bool BlockSizeExchange::test(MaybeFailure& failure) {
  if (!window_.test_all(failure)) return false;
  if (!failure) tell_learnt();
  return true;
}

MaybeFailure BlockSizeExchange::wait() {
  MaybeFailure failure = window_.wait_all();
  if (!failure) tell_learnt();
  return failure;
}

void BlockSizeExchange::tell_learnt() {
  for (std::size_t q = 0; q < questions_.learn.size(); ++q) {
    const auto& learnt = questions_.learn[q];
    for (std::size_t i = 0; i < learnt.size(); ++i) {
      blocks_->tell(learnt[i].first, learnt[i].second, static_cast<std::size_t>(incoming_[q][i]));
    }
  }
}

}  // namespace topocoll::exec
