// The library's state for one user communicator, cached on it with an MPI attribute (the
// library's globals are that attribute's keyval and the lock that creating a state takes): the private duplicate the library
// communicates on, so that its messages never match the user's point-to-point traffic; the
// ExecutionPlans built for it; the topologies and networks discovered for it; and, on MPI_COMM_SELF only, the error log. The attribute's
// delete callback frees everything when the user frees the communicator, or when
// MPI_Finalize deletes MPI_COMM_SELF's attributes. Duplicating the user's communicator does
// not copy the state (MPI_COMM_NULL_COPY_FN).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "algorithms/rank_routes.hpp"
#include "exec/auto_choice_key.hpp"
#include "exec/auto_shortcut.hpp"
#include "exec/error_log.hpp"
#include "exec/failure.hpp"
#include "exec/mpi_handles.hpp"
#include "exec/network_discovery.hpp"
#include "exec/plan_cache.hpp"
#include "exec/topology_discovery.hpp"
#include "exec/traffic_summary_exchange.hpp"
#include "select/auto_select.hpp"
#include "select/calibration.hpp"
#include "topology/topology.hpp"

namespace topocoll::exec {

// How many of auto's choices a communicator keeps before it starts afresh.
inline constexpr std::size_t kMostAutoChoices = 1024;

// The tags of one call's messages on the private communicator.
struct CallTags {
  int schedule = 0;     // the schedule's transfers
  int block_sizes = 1;  // alltoallv's exchange of block sizes (block_size_exchange.hpp)
};

class CommState {
 public:
  explicit CommState(MPI_Comm user_comm) : user_comm_(user_comm) {}

  // The private duplicate, with MPI_ERRORS_RETURN. The first call duplicates the user's
  // communicator: collective over it, like the operation that asks.
  MaybeFailure private_comm(MPI_Comm& out);
  // The nonblocking calls' way to it: the first call starts the duplicate (MPI_Comm_idup,
  // which completes once every rank has started it) and no call waits: `out` is the duplicate
  // once made, MPI_COMM_NULL until then. (Under MPICH, private_comm: see comm_state.cpp.)
  MaybeFailure private_comm_without_waiting(MPI_Comm& out);
  // The topology this communicator sees under `spec` (see discover_topology), discovered on
  // first use per spec (collective over the communicator) and cached.
  MaybeFailure topology(const std::string& spec, const Topology*& out);
  // The same without waiting, for a call set up after its start (below), once the private
  // duplicate is made: the first ask starts the discovery, each later one tests it; `out` stays
  // null until it has ended. A failed discovery is forgotten (the next ask starts it again).
  MaybeFailure topology_without_waiting(const std::string& spec, const Topology*& out);
  // Whether the topology under `spec` is known on every rank at the same point of the calls on
  // this communicator: discovered by a call that waits, or settled by one since (below).
  bool topology_agreed(const std::string& spec) const { return agreed_topologies_.count(spec) != 0; }

  // Nonblocking starts that never wait set themselves up after their start where the topology is
  // not agreed yet ("deferred": they discover it, then choose, then plan). Each takes a ticket at
  // its start, and they set up in the tickets' order, so that the collectives they start on the
  // private duplicate (the discovery; the MPI library's own call, where they hand the call on)
  // come in the same order on every rank.
  std::uint64_t take_set_up_ticket() { return set_up_tickets_++; }
  bool set_up_turn(std::uint64_t ticket) const { return ticket == next_set_up_; }
  void set_up_passed(std::uint64_t ticket);
  bool set_ups_pending() const { return next_set_up_ < set_up_tickets_; }
  // A call that may wait, before its own set-up (its collectives on the private duplicate come
  // after theirs): advances the outstanding calls until every deferred set-up has passed. The
  // topologies known then are agreed: every rank settles in the same call.
  void settle_deferred_set_ups();
  // The network of the platform at `path` with this communicator's ranks on it (see
  // discover_network), read on first use per path (collective over the communicator) and cached.
  MaybeFailure network(const std::string& path, const NetworkPlacement*& out);
  // The routes between the ranks of `problem` (its topology under `spec`, its network at
  // `network_path` if any: rank_routes.hpp), built on first use per pair and cached; null when
  // they have none. Local.
  const RankRoutes* routes(const std::string& spec, const std::string& network_path, const Problem& problem);
  // The calibration at `path` (auto), read on first use and cached; MPI_ERR_ARG naming the
  // field at fault when it cannot be used. Local.
  MaybeFailure calibration(const std::string& path, const Calibration*& out);
  // Completes the nonblocking collectives still on their way on this communicator, and its
  // duplicate if it is still being made (when the user frees it: MPI frees a communicator once
  // its operations are complete).
  void finish_outstanding();
  // How far a call's set-up here is (a nonblocking call's start never waits for a peer):
  // where asked (non-null), the topology under `spec` and the network at `network_path` must
  // have been discovered (collective steps that wait), and the duplicate made or on its way
  // (private_comm_without_waiting). Local.
  enum class SetUp { ready, duplicate_missing, needs_peers };
  SetUp set_up_for(const std::string* spec, const std::string* network_path) const;
  // The tags of the next call on this communicator. Every call has its own pair, the same on
  // every rank (all ranks make the same calls in the same order), so a message that a failed
  // call left unmatched can never be taken by a later call. Local; cycles through the tag
  // space (at least 32768 calls before a tag comes back).
  CallTags next_call_tags();
  // auto's choices, by what they depend on (auto_choice_key.hpp), at most kMostAutoChoices of them.
  using AutoChoices = std::map<AutoChoiceKey, AutoRun, AutoChoiceOrder>;
  AutoChoices& auto_choices() { return auto_choices_; }
  // The uniform calls auto hands to the MPI library, for a quick way there (auto_shortcut.hpp).
  AutoShortcuts& auto_shortcuts() { return auto_shortcuts_; }
  // The v forms' traffic summaries for auto, one set per operation (traffic_summary_exchange.hpp).
  TrafficSummaries& traffic_summaries(Operation operation) { return summaries_[operation]; }
  PlanCache& plans() { return plans_; }
  ErrorLog& errors() { return errors_; }

 private:
  MaybeFailure adopt_duplicate();

  MPI_Comm user_comm_;
  OwnedComm private_comm_;
  MPI_Comm pending_duplicate_ = MPI_COMM_NULL;  // MPI_Comm_idup's, until `duplicating_` completes
  MPI_Request duplicating_ = MPI_REQUEST_NULL;
  // Set while a test or wait of `duplicating_` runs: the progress inside it may advance this
  // communicator's nonblocking calls, which then leave the request alone (testing it there would
  // complete it under the outer call, which would adopt the duplicate a second time).
  bool touching_duplicate_ = false;
  std::uint64_t calls_ = 0;
  int tag_upper_bound_ = 0;  // MPI_TAG_UB, read on first use
  PlanCache plans_;
  std::map<std::string, Topology> topologies_;
  std::set<std::string> agreed_topologies_;
  std::map<std::string, std::unique_ptr<TopologyDiscovery>> discovering_;  // topology_without_waiting's
  std::uint64_t set_up_tickets_ = 0;                                       // taken
  std::uint64_t next_set_up_ = 0;                                          // the first ticket not passed
  std::set<std::uint64_t> passed_early_;  // tickets passed out of turn (a call that failed first)
  std::map<std::string, std::unique_ptr<CommNetwork>> networks_;
  std::map<std::pair<std::string, std::string>, std::optional<RankRoutes>> routes_;  // by spec and network
  std::map<std::string, std::shared_ptr<const Calibration>> calibrations_;  // load_calibration_once's
  AutoChoices auto_choices_;
  AutoShortcuts auto_shortcuts_;
  // After private_comm_, so that a summary still on its way is completed before it is freed.
  std::map<Operation, TrafficSummaries> summaries_;
  ErrorLog errors_;
};

// The state cached on `comm`, created on first use (local: no communication). Thread-safe: two
// threads may ask at once (for MPI_COMM_SELF, say); one state is created.
MaybeFailure find_comm_state(MPI_Comm comm, CommState*& state);

// A communicator of this process alone with MPI_ERRORS_RETURN (MPI_COMM_SELF's private
// duplicate): for local probes whose failures must come back as codes.
MaybeFailure local_probe_comm(MPI_Comm& out);

}  // namespace topocoll::exec
