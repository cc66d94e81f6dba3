#include "exec/block_size_exchange.hpp"

#include <cstdint>
#include <vector>

namespace topocoll::exec {

namespace {
constexpr int kBlockSizeTag = 2;  // the schedule's messages use another tag
}  // namespace

MaybeFailure exchange_block_sizes(const AlltoallAlgorithm& algorithm, const AlltoallProblem& problem, int rank,
                                  const SideLayout& send, LocalBlocks& blocks, MPI_Comm comm) {
  if (algorithm.sizes_from == nullptr) return std::nullopt;
  const int p = problem.size;
  std::vector<std::vector<std::pair<int, int>>> wanted(static_cast<std::size_t>(p));
  std::vector<std::vector<std::uint64_t>> incoming(static_cast<std::size_t>(p)), outgoing(static_cast<std::size_t>(p));
  std::vector<MPI_Request> requests;
  for (int peer = 0; peer < p; ++peer) {
    if (peer == rank) continue;
    wanted[peer] = algorithm.sizes_from(problem, rank, peer);
    if (!wanted[peer].empty()) {
      incoming[peer].resize(wanted[peer].size());
      requests.emplace_back();
      const int rc = MPI_Irecv(incoming[peer].data(), static_cast<int>(incoming[peer].size()), MPI_UINT64_T, peer,
                               kBlockSizeTag, comm, &requests.back());
      if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Irecv", rc);
    }
    for (const auto& [src, dst] : algorithm.sizes_from(problem, peer, rank)) {
      outgoing[peer].push_back(send.bytes.at(static_cast<std::size_t>(dst)));
    }
    if (!outgoing[peer].empty()) {
      requests.emplace_back();
      const int rc = MPI_Isend(outgoing[peer].data(), static_cast<int>(outgoing[peer].size()), MPI_UINT64_T, peer,
                               kBlockSizeTag, comm, &requests.back());
      if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Isend", rc);
    }
  }
  const int rc = MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Waitall", rc);
  for (int peer = 0; peer < p; ++peer) {
    for (std::size_t i = 0; i < wanted[peer].size(); ++i) {
      blocks.tell(wanted[peer][i].first, wanted[peer][i].second, static_cast<std::size_t>(incoming[peer][i]));
    }
  }
  return std::nullopt;
}

}  // namespace topocoll::exec
