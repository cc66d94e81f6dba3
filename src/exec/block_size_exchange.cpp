#include "exec/block_size_exchange.hpp"

#include <cstdint>
#include <vector>

#include "exec/request_window.hpp"

namespace topocoll::exec {

namespace {

PointToPoint sizes_message(PointToPoint::Direction direction, std::vector<std::uint64_t>& sizes, int peer) {
  return PointToPoint{direction, sizes.data(), static_cast<int>(sizes.size()), MPI_UINT64_T, peer,
                      sizes.size() * sizeof(std::uint64_t)};
}

}  // namespace

MaybeFailure exchange_block_sizes(const Algorithm& algorithm, const Problem& problem, int rank,
                                  LocalBlocks& blocks, MPI_Comm comm, int tag) {
  if (algorithm.size_questions == nullptr) return std::nullopt;
  const int p = problem.size;
  SizeQuestions questions;
  algorithm.size_questions(problem, rank, questions);
  std::vector<std::vector<std::uint64_t>> incoming(static_cast<std::size_t>(p)), outgoing(static_cast<std::size_t>(p));
  RequestWindow window(comm, tag, 0);
  for (int peer = 0; peer < p; ++peer) {
    if (peer == rank) continue;
    const auto q = static_cast<std::size_t>(peer);
    if (!questions.learn[q].empty()) {
      incoming[q].resize(questions.learn[q].size());
      window.post(sizes_message(PointToPoint::Direction::receive, incoming[q], peer));
    }
    // A size this rank holds: of a block it sends, or (the root of gatherv) one it receives.
    for (const auto& [src, dst] : questions.tell[q]) outgoing[q].push_back(blocks.bytes(src, dst));
    if (!outgoing[q].empty()) window.post(sizes_message(PointToPoint::Direction::send, outgoing[q], peer));
  }
  if (auto failure = window.wait_all()) return failure;
  for (std::size_t q = 0; q < questions.learn.size(); ++q) {
    const auto& learnt = questions.learn[q];
    for (std::size_t i = 0; i < learnt.size(); ++i) {
      blocks.tell(learnt[i].first, learnt[i].second, static_cast<std::size_t>(incoming[q][i]));
    }
  }
  return std::nullopt;
}

}  // namespace topocoll::exec
