#include "exec/topology_discovery.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <map>
#include <optional>
#include <utility>

#include "exec/mpi_handles.hpp"
#include "topology/slurm_address.hpp"

namespace topocoll::exec {

namespace {

// This process's place in Slurm's switch tree, "ADDRESS\nPATTERN", or "" when Slurm gave none.
// Read here rather than at the entry points: like the host name, it says where the process runs
// and configures nothing. Longer values than any tree needs are cut (and then fail to parse).
std::string slurm_address_of_this_process() {
  const char* address = std::getenv("SLURM_TOPOLOGY_ADDR");
  const char* pattern = std::getenv("SLURM_TOPOLOGY_ADDR_PATTERN");
  if (address == nullptr || pattern == nullptr || *address == '\0' || *pattern == '\0') return {};
  return (std::string(address) + '\n' + pattern).substr(0, 1 << 16);
}

std::string host_name_of_this_process() {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  return std::string(name, std::find(name, name + MPI_MAX_PROCESSOR_NAME, '\0'));
}

// World ranks of `comm`'s ranks (local: the groups' translation).
MaybeFailure world_ranks(MPI_Comm comm, RankPlacement& placement) {
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
  return std::nullopt;
}

// Each rank's node: the lowest rank of its host name.
std::vector<int> node_leaders(const std::vector<std::string>& hosts) {
  std::map<std::string, int> first;
  std::vector<int> leaders;
  leaders.reserve(hosts.size());
  for (std::size_t r = 0; r < hosts.size(); ++r) leaders.push_back(first.emplace(hosts[r], int(r)).first->second);
  return leaders;
}

// The topology of Slurm's switch tree when every rank has its address (`addresses[r]`,
// "ADDRESS\nPATTERN"); nothing when some rank has none. Every rank sees every address, so all
// reach the same verdict.
MaybeFailure slurm_topology(const std::vector<std::string>& addresses, std::optional<Topology>& topology) {
  std::vector<SlurmAddress> parsed;
  for (const std::string& both : addresses) {
    const auto newline = both.find('\n');
    if (newline == std::string::npos) return std::nullopt;  // this rank has none
    parsed.push_back({both.substr(0, newline), both.substr(newline + 1)});
  }
  std::string error;
  topology = topology_from_slurm_addresses(parsed, &error);
  if (!topology) return Failure{MPI_ERR_ARG, "the topology from Slurm (SLURM_TOPOLOGY_ADDR): " + error};
  return std::nullopt;
}

}  // namespace

void StringGather::begin(MPI_Comm comm, std::string mine, const char* what) {
  comm_ = comm;
  what_ = what;
  mine_ = std::move(mine);
  int size = 0;
  MPI_Comm_size(comm, &size);
  length_ = static_cast<int>(mine_.size());
  lengths_.assign(static_cast<std::size_t>(size), 0);
  offsets_.assign(static_cast<std::size_t>(size), 0);
}

MaybeFailure StringGather::start(MPI_Comm comm, std::string mine, const char* what) {
  begin(comm, std::move(mine), what);
  const int rc = MPI_Iallgather(&length_, 1, MPI_INT, lengths_.data(), 1, MPI_INT, comm, &request_);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Iallgather", rc);
  return std::nullopt;
}

MaybeFailure StringGather::gather(MPI_Comm comm, std::string mine, const char* what) {
  begin(comm, std::move(mine), what);
  if (const int rc = MPI_Allgather(&length_, 1, MPI_INT, lengths_.data(), 1, MPI_INT, comm); rc != MPI_SUCCESS) {
    return mpi_call_failure("MPI_Allgather", rc);
  }
  if (auto failure = lay_out()) return failure;
  if (const int rc = MPI_Allgatherv(mine_.data(), length_, MPI_CHAR, chars_.data(), lengths_.data(), offsets_.data(),
                                    MPI_CHAR, comm_);
      rc != MPI_SUCCESS) {
    return mpi_call_failure("MPI_Allgatherv", rc);
  }
  gathering_chars_ = true;
  return std::nullopt;
}

bool StringGather::test(MaybeFailure& failure) {
  int done = 0;
  if (const int rc = MPI_Test(&request_, &done, MPI_STATUS_IGNORE); rc != MPI_SUCCESS) {
    failure = mpi_call_failure(gathering_chars_ ? "MPI_Iallgatherv" : "MPI_Iallgather", rc);
    return true;
  }
  return done != 0 && completed(failure);
}

MaybeFailure StringGather::lay_out() {
  long long total = 0;
  for (std::size_t r = 0; r < lengths_.size(); ++r) {
    offsets_[r] = static_cast<int>(total);
    total += lengths_[r];
    if (total > INT_MAX) {
      return Failure{MPI_ERR_COUNT, std::string("the ranks' ") + what_ + " exceed 2^31 bytes together"};
    }
  }
  chars_.assign(static_cast<std::size_t>(total) + 1, '\0');
  return std::nullopt;
}

bool StringGather::completed(MaybeFailure& failure) {
  if (gathering_chars_) return true;
  // The lengths are in: the characters follow.
  if ((failure = lay_out())) return true;
  const int rc = MPI_Iallgatherv(mine_.data(), length_, MPI_CHAR, chars_.data(), lengths_.data(), offsets_.data(),
                                 MPI_CHAR, comm_, &request_);
  if (rc != MPI_SUCCESS) {
    failure = mpi_call_failure("MPI_Iallgatherv", rc);
    return true;
  }
  gathering_chars_ = true;
  return false;
}

std::vector<std::string> StringGather::strings() const {
  std::vector<std::string> all;
  all.reserve(lengths_.size());
  for (std::size_t r = 0; r < lengths_.size(); ++r) {
    all.emplace_back(chars_.data() + offsets_[r], static_cast<std::size_t>(lengths_[r]));
  }
  return all;
}

// This rank's record: the host name, then (after a newline, which no host name holds) Slurm's
// address where no spec is given. Keeps the communicator and spec for finish().
std::string TopologyDiscovery::record(MPI_Comm comm, std::string spec) {
  comm_ = comm;
  spec_ = std::move(spec);
  std::string mine = host_name_of_this_process();
  if (spec_.empty()) {
    if (std::string slurm = slurm_address_of_this_process(); !slurm.empty()) mine += '\n' + slurm;
  }
  return mine;
}

MaybeFailure TopologyDiscovery::start(MPI_Comm comm, std::string spec) {
  return records_.start(comm, record(comm, std::move(spec)), kRecords);
}

MaybeFailure TopologyDiscovery::run(MPI_Comm comm, std::string spec) {
  if (auto failure = records_.gather(comm, record(comm, std::move(spec)), kRecords)) return failure;
  return finish();
}

bool TopologyDiscovery::test(MaybeFailure& failure) {
  if (!records_.test(failure)) return false;
  if (!failure) failure = finish();
  return true;
}

MaybeFailure TopologyDiscovery::finish() {
  RankPlacement placement;
  if (auto failure = world_ranks(comm_, placement)) return failure;
  std::vector<std::string> slurm;
  for (const std::string& record : records_.strings()) {
    const auto newline = record.find('\n');
    placement.host.push_back(record.substr(0, newline));
    slurm.push_back(newline == std::string::npos ? std::string() : record.substr(newline + 1));
  }
  const std::vector<int> leaders = node_leaders(placement.host);
  if (spec_.empty()) {
    std::optional<Topology> from_slurm;
    if (auto failure = slurm_topology(slurm, from_slurm)) return failure;
    if (from_slurm) {
      topology_ = std::move(*from_slurm);
      return std::nullopt;
    }
    // One level: the node. Ranks are grouped by node leader, ids renumbered from 0.
    std::vector<std::vector<int>> groups;
    std::vector<int> all;
    for (std::size_t r = 0; r < leaders.size(); ++r) {
      groups.push_back({leaders[r]});
      all.push_back(static_cast<int>(r));
    }
    topology_ = Topology({"node"}, groups).restricted_to(all);
    return std::nullopt;
  }
  std::string error;
  auto loaded = load_topology_for(spec_, placement, &error);
  if (!loaded) return Failure{MPI_ERR_ARG, error};
  const auto& levels = loaded->levels();
  if (std::find(levels.begin(), levels.end(), "node") == levels.end()) {
    topology_ = loaded->with_inner_level("node", leaders);
  } else {
    topology_ = std::move(*loaded);
  }
  return std::nullopt;
}

MaybeFailure discover_placement(MPI_Comm comm, RankPlacement& placement) {
  if (auto failure = world_ranks(comm, placement)) return failure;
  StringGather names;
  if (auto failure = names.gather(comm, host_name_of_this_process(), "host names")) return failure;
  placement.host = names.strings();
  return std::nullopt;
}

MaybeFailure discover_topology(MPI_Comm comm, const std::string& spec, Topology& topology) {
  TopologyDiscovery discovery;
  if (auto failure = discovery.run(comm, spec)) return failure;
  topology = discovery.take();
  return std::nullopt;
}

}  // namespace topocoll::exec
