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
  if (algorithm.sizes_from == nullptr) return std::nullopt;
  const int p = problem.size;
  std::vector<std::vector<std::pair<int, int>>> wanted(static_cast<std::size_t>(p));
  std::vector<std::vector<std::uint64_t>> incoming(static_cast<std::size_t>(p)), outgoing(static_cast<std::size_t>(p));
  RequestWindow window(comm, tag, 0);
  for (int peer = 0; peer < p; ++peer) {
    if (peer == rank) continue;
    wanted[peer] = algorithm.sizes_from(problem, rank, peer);
    if (!wanted[peer].empty()) {
      incoming[peer].resize(wanted[peer].size());
      window.post(sizes_message(PointToPoint::Direction::receive, incoming[peer], peer));
    }
    // A size this rank holds: of a block it sends, or (the root of gatherv) one it receives.
    for (const auto& [src, dst] : algorithm.sizes_from(problem, peer, rank)) outgoing[peer].push_back(blocks.bytes(src, dst));
    if (!outgoing[peer].empty()) window.post(sizes_message(PointToPoint::Direction::send, outgoing[peer], peer));
  }
  if (auto failure = window.wait_all()) return failure;
  for (int peer = 0; peer < p; ++peer) {
    for (std::size_t i = 0; i < wanted[peer].size(); ++i) {
      blocks.tell(wanted[peer][i].first, wanted[peer][i].second, static_cast<std::size_t>(incoming[peer][i]));
    }
  }
  return std::nullopt;
}

}  // namespace topocoll::exec
