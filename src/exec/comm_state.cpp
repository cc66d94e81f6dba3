// The attribute keyval, its delete callback, and lazy creation of the private duplicate.
#include "exec/comm_state.hpp"

#include "exec/outstanding.hpp"
#include "exec/topology_discovery.hpp"

#include <memory>
#include <mutex>
#include <utility>

namespace topocoll::exec {

namespace {

int delete_comm_state(MPI_Comm, int, void* attribute_value, void*) {
  auto* state = static_cast<CommState*>(attribute_value);
  state->finish_outstanding();
  delete state;
  return MPI_SUCCESS;
}

// Created once per process (per simulated rank under SMPI, whose privatisation gives each
// rank its own copy of the statically linked library's data) and never freed.
int comm_state_keyval() {
  static const int keyval = [] {
    int created = MPI_KEYVAL_INVALID;
    if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_comm_state, &created, nullptr) !=
        MPI_SUCCESS) {
      created = MPI_KEYVAL_INVALID;
    }
    return created;
  }();
  return keyval;
}

// Threads of an MPI_THREAD_MULTIPLE program, each on its own communicator, still meet on
// MPI_COMM_SELF's state (datatype probes, error reports): finding or creating a state, and
// SELF's private duplicate, happen under this lock (two threads that both created SELF's state
// freed the one the other was using: MPI_Comm_set_attr deletes the value it replaces).
std::mutex& state_creation_lock() {
  static std::mutex lock;
  return lock;
}

}  // namespace

MaybeFailure CommState::adopt_duplicate() {
  OwnedComm owned(std::exchange(pending_duplicate_, MPI_COMM_NULL));
  const int set = MPI_Comm_set_errhandler(owned.get(), MPI_ERRORS_RETURN);
  if (set != MPI_SUCCESS) return mpi_call_failure("MPI_Comm_set_errhandler", set);
  private_comm_ = std::move(owned);
  return std::nullopt;
}

MaybeFailure CommState::private_comm(MPI_Comm& out) {
  if (duplicating_ != MPI_REQUEST_NULL) {  // a nonblocking call started it: now it must be made
    touching_duplicate_ = true;
    const int rc = MPI_Wait(&duplicating_, MPI_STATUS_IGNORE);
    touching_duplicate_ = false;
    if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Comm_idup (waited for)", rc);
    if (auto failure = adopt_duplicate()) return failure;
  }
  if (private_comm_.get() == MPI_COMM_NULL) {
    if (auto failure = duplicate_returning_errors(user_comm_, "MPI_Comm_dup", private_comm_)) return failure;
  }
  out = private_comm_.get();
  return std::nullopt;
}

MaybeFailure CommState::private_comm_without_waiting(MPI_Comm& out) {
#if defined(MPICH)
  // MPICH deletes a freed communicator's attributes (this state) only when MPI_Comm_idup's hold
  // on it goes, which is inside a test of the idup's own request, from where the state cannot
  // be torn down: no MPI_Comm_idup there (set_up_for says the duplicate needs every rank).
  return private_comm(out);
#endif
  out = private_comm_.get();
  if (out != MPI_COMM_NULL || touching_duplicate_) return std::nullopt;
  if (duplicating_ == MPI_REQUEST_NULL) {
    // This process's own duplicate first (local_probe_comm: the nonblocking call packs with it
    // while the duplicate is on its way). Open MPI makes one communicator at a time per process:
    // a local MPI_Comm_dup asked for after the MPI_Comm_idup would wait for every rank's start.
    MPI_Comm probe = MPI_COMM_NULL;
    if (auto failure = local_probe_comm(probe)) return failure;
    out = private_comm_.get();  // (on MPI_COMM_SELF, that was this state's own)
    if (out != MPI_COMM_NULL) return std::nullopt;
    if (const int rc = MPI_Comm_idup(user_comm_, &pending_duplicate_, &duplicating_); rc != MPI_SUCCESS) {
      return mpi_call_failure("MPI_Comm_idup", rc);
    }
  }
  int done = 0;
  touching_duplicate_ = true;
  const int rc = MPI_Test(&duplicating_, &done, MPI_STATUS_IGNORE);
  touching_duplicate_ = false;
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Comm_idup (tested)", rc);
  if (!done) return std::nullopt;
  if (auto failure = adopt_duplicate()) return failure;
  out = private_comm_.get();
  return std::nullopt;
}

void CommState::finish_outstanding() {
  if (!may_free_handles()) return;
  finish_outstanding_on(this);
  MPI_Comm unused = MPI_COMM_NULL;
  if (duplicating_ != MPI_REQUEST_NULL) (void)private_comm(unused);  // so that it is freed
}

CommState::SetUp CommState::set_up_for(const std::string* spec, const std::string* network_path) const {
  if (spec != nullptr && !topology_agreed(*spec)) return SetUp::needs_peers;
  if (network_path != nullptr && !network_path->empty() && networks_.count(*network_path) == 0) {
    return SetUp::needs_peers;
  }
  const bool duplicate_coming = private_comm_.get() != MPI_COMM_NULL || duplicating_ != MPI_REQUEST_NULL;
  if (duplicate_coming) return SetUp::ready;
#if defined(MPICH)
  return SetUp::needs_peers;  // (private_comm_without_waiting)
#else
  return SetUp::duplicate_missing;
#endif
}

CallTags CommState::next_call_tags() {
  if (tag_upper_bound_ == 0) {
    int* value = nullptr;
    int found = 0;
    tag_upper_bound_ = 32767;  // the least MPI_TAG_UB the standard allows
    if (MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &found) == MPI_SUCCESS && found && value != nullptr &&
        *value > tag_upper_bound_) {
      tag_upper_bound_ = *value;
    }
  }
  const std::uint64_t pairs = (static_cast<std::uint64_t>(tag_upper_bound_) + 1) / 2;
  const int first = static_cast<int>(2 * (calls_++ % pairs));
  return CallTags{first, first + 1};
}

MaybeFailure CommState::topology(const std::string& spec, const Topology*& out) {
  auto it = topologies_.find(spec);
  if (it == topologies_.end()) {
    MPI_Comm comm = MPI_COMM_NULL;
    if (auto failure = private_comm(comm)) return failure;
    Topology discovered;
    if (auto failure = discover_topology(comm, spec, discovered)) return failure;
    it = topologies_.emplace(spec, std::move(discovered)).first;
    agreed_topologies_.insert(spec);
  }
  out = &it->second;
  return std::nullopt;
}

MaybeFailure CommState::topology_without_waiting(const std::string& spec, const Topology*& out) {
  out = nullptr;
  if (const auto it = topologies_.find(spec); it != topologies_.end()) {
    out = &it->second;
    return std::nullopt;
  }
  auto& discovery = discovering_[spec];
  if (discovery == nullptr) {
    discovery = std::make_unique<TopologyDiscovery>();
    if (auto failure = discovery->start(private_comm_.get(), spec)) {
      discovering_.erase(spec);
      return failure;
    }
  }
  MaybeFailure failure;
  if (!discovery->test(failure)) return std::nullopt;
  if (!failure) out = &topologies_.emplace(spec, discovery->take()).first->second;
  discovering_.erase(spec);
  return failure;
}

void CommState::set_up_passed(std::uint64_t ticket) {
  passed_early_.insert(ticket);
  while (passed_early_.erase(next_set_up_) != 0) ++next_set_up_;
}

void CommState::settle_deferred_set_ups() {
  while (set_ups_pending()) advance_outstanding();
  for (const auto& [spec, topology] : topologies_) agreed_topologies_.insert(spec);
}

MaybeFailure CommState::network(const std::string& path, const NetworkPlacement*& out) {
  auto it = networks_.find(path);
  if (it == networks_.end()) {
    MPI_Comm comm = MPI_COMM_NULL;
    if (auto failure = private_comm(comm)) return failure;
    std::unique_ptr<CommNetwork> discovered;
    if (auto failure = discover_network(comm, path, discovered)) return failure;
    it = networks_.emplace(path, std::move(discovered)).first;
  }
  out = &it->second->placement;
  return std::nullopt;
}

const RankRoutes* CommState::routes(const std::string& spec, const std::string& network_path, const Problem& problem) {
  auto it = routes_.find({spec, network_path});
  if (it == routes_.end()) {
    it = routes_.emplace(std::make_pair(spec, network_path), rank_routes(problem, nullptr)).first;
  }
  return it->second ? &*it->second : nullptr;
}

MaybeFailure CommState::calibration(const std::string& path, const Calibration*& out) {
  auto it = calibrations_.find(path);
  if (it == calibrations_.end()) {
    std::string error;
    auto loaded = load_calibration_once(path, &error);
    if (!loaded) return Failure{MPI_ERR_ARG, "auto: " + error};
    it = calibrations_.emplace(path, std::move(loaded)).first;
  }
  out = it->second.get();
  return std::nullopt;
}

MaybeFailure find_comm_state(MPI_Comm comm, CommState*& state) {
  const std::lock_guard<std::mutex> guard(state_creation_lock());
  const int keyval = comm_state_keyval();
  if (keyval == MPI_KEYVAL_INVALID) {
    return Failure{MPI_ERR_INTERN, "could not create the communicator attribute keyval"};
  }
  void* value = nullptr;
  int found = 0;
  int rc = MPI_Comm_get_attr(comm, keyval, &value, &found);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Comm_get_attr", rc);
  if (found) {
    state = static_cast<CommState*>(value);
    return std::nullopt;
  }
  auto created = std::make_unique<CommState>(comm);
  rc = MPI_Comm_set_attr(comm, keyval, created.get());
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Comm_set_attr", rc);
  state = created.release();
  return std::nullopt;
}

MaybeFailure local_probe_comm(MPI_Comm& out) {
  CommState* self_state = nullptr;
  if (auto failure = find_comm_state(MPI_COMM_SELF, self_state)) return failure;
  const std::lock_guard<std::mutex> guard(state_creation_lock());
  return self_state->private_comm(out);
}

}  // namespace topocoll::exec
