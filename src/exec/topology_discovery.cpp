#include "exec/topology_discovery.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <vector>

#include "exec/mpi_handles.hpp"
#include "topology/slurm_address.hpp"

namespace topocoll::exec {

namespace {

// The lowest rank of `comm` sharing memory with each rank: equal values mean same node.
MaybeFailure node_leaders(MPI_Comm comm, std::vector<int>& leaders) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Comm node = MPI_COMM_NULL;
  int rc = MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Comm_split_type", rc);
  OwnedComm owned(node);
  int leader = rank;
  rc = MPI_Allreduce(&rank, &leader, 1, MPI_INT, MPI_MIN, node);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Allreduce", rc);
  leaders.assign(static_cast<std::size_t>(size), 0);
  rc = MPI_Allgather(&leader, 1, MPI_INT, leaders.data(), 1, MPI_INT, comm);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Allgather", rc);
  return std::nullopt;
}

// This process's place in Slurm's switch tree, "ADDRESS\nPATTERN", or "" when Slurm gave none.
// Read here rather than at the entry points: like the host name, it says where the process runs
// and configures nothing. Longer values than any tree needs are cut (and then fail to parse).
std::string slurm_address_of_this_process() {
  const char* address = std::getenv("SLURM_TOPOLOGY_ADDR");
  const char* pattern = std::getenv("SLURM_TOPOLOGY_ADDR_PATTERN");
  if (address == nullptr || pattern == nullptr || *address == '\0' || *pattern == '\0') return {};
  return (std::string(address) + '\n' + pattern).substr(0, 1 << 16);
}

// Every rank's `mine`, in rank order, on every rank: the lengths, then the characters, so that
// a rank holds the sum of the strings' lengths (host names: tens of bytes each), not p times the
// longest possible. `what` names them in an error.
MaybeFailure allgather_strings(MPI_Comm comm, const std::string& mine, const char* what,
                               std::vector<std::string>& all) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  const int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<std::size_t>(size)), offsets(static_cast<std::size_t>(size));
  int rc = MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Allgather", rc);
  long long total = 0;
  for (int r = 0; r < size; ++r) {
    offsets[r] = static_cast<int>(total);
    total += lengths[r];
    if (total > INT_MAX) {
      return Failure{MPI_ERR_COUNT, std::string("the ranks' ") + what + " exceed 2^31 bytes together"};
    }
  }
  std::vector<char> chars(static_cast<std::size_t>(total) + 1);
  rc = MPI_Allgatherv(mine.data(), length, MPI_CHAR, chars.data(), lengths.data(), offsets.data(), MPI_CHAR, comm);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Allgatherv", rc);
  all.clear();
  for (int r = 0; r < size; ++r) all.emplace_back(chars.data() + offsets[r], static_cast<std::size_t>(lengths[r]));
  return std::nullopt;
}

// The topology of Slurm's switch tree when every rank has its address; nothing when some rank has
// none. Every rank sees every address, so all reach the same verdict.
MaybeFailure slurm_topology(MPI_Comm comm, std::optional<Topology>& topology) {
  std::vector<std::string> gathered;
  if (auto failure = allgather_strings(comm, slurm_address_of_this_process(), "Slurm topology addresses", gathered)) {
    return failure;
  }
  std::vector<SlurmAddress> addresses;
  for (const std::string& both : gathered) {
    const auto newline = both.find('\n');
    if (newline == std::string::npos) return std::nullopt;  // this rank has none
    addresses.push_back({both.substr(0, newline), both.substr(newline + 1)});
  }
  std::string error;
  topology = topology_from_slurm_addresses(addresses, &error);
  if (!topology) return Failure{MPI_ERR_ARG, "the topology from Slurm (SLURM_TOPOLOGY_ADDR): " + error};
  return std::nullopt;
}

}  // namespace

MaybeFailure discover_placement(MPI_Comm comm, RankPlacement& placement) {
  int size = 0, world_size = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  placement.world_size = world_size;

  MPI_Group group = MPI_GROUP_NULL, world = MPI_GROUP_NULL;
  MPI_Comm_group(comm, &group);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  std::vector<int> ranks(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) ranks[r] = r;
  placement.world_rank.assign(static_cast<std::size_t>(size), MPI_UNDEFINED);
  const int rc = MPI_Group_translate_ranks(group, size, ranks.data(), world, placement.world_rank.data());
  MPI_Group_free(&group);
  MPI_Group_free(&world);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Group_translate_ranks", rc);
  if (std::find(placement.world_rank.begin(), placement.world_rank.end(), MPI_UNDEFINED) !=
      placement.world_rank.end()) {
    return Failure{MPI_ERR_COMM, "the communicator holds processes outside MPI_COMM_WORLD"};
  }

  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  const std::string mine(name, std::find(name, name + MPI_MAX_PROCESSOR_NAME, '\0'));
  return allgather_strings(comm, mine, "host names", placement.host);
}

MaybeFailure discover_topology(MPI_Comm comm, const std::string& spec, Topology& topology) {
  RankPlacement placement;
  if (auto failure = discover_placement(comm, placement)) return failure;
  std::vector<int> leaders;
  if (auto failure = node_leaders(comm, leaders)) return failure;
  if (spec.empty()) {
    std::optional<Topology> from_slurm;
    if (auto failure = slurm_topology(comm, from_slurm)) return failure;
    if (from_slurm) {
      topology = std::move(*from_slurm);
      return std::nullopt;
    }
    // One level: the node. Ranks are grouped by node leader, ids renumbered from 0.
    std::vector<std::vector<int>> groups;
    std::vector<int> all;
    for (std::size_t r = 0; r < leaders.size(); ++r) {
      groups.push_back({leaders[r]});
      all.push_back(static_cast<int>(r));
    }
    topology = Topology({"node"}, groups).restricted_to(all);
    return std::nullopt;
  }
  std::string error;
  auto loaded = load_topology_for(spec, placement, &error);
  if (!loaded) return Failure{MPI_ERR_ARG, error};
  const auto& levels = loaded->levels();
  if (std::find(levels.begin(), levels.end(), "node") == levels.end()) {
    topology = loaded->with_inner_level("node", leaders);
  } else {
    topology = std::move(*loaded);
  }
  return std::nullopt;
}

}  // namespace topocoll::exec
