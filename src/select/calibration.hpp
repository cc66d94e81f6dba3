// A calibration: the hierarchical cost model's parameters as measured on one platform by
// topocoll-calibrate, with what they were measured from. Stored as JSON (docs/algorithms.md,
// section "auto", describes every field):
//
//   {"format": "topocoll-calibration 1", "platform": "...", "topology": "clusters:30,30",
//    "ranks": 60, "mpi_library": "...", "created_by": "topocoll-calibrate ...",
//    "levels": [{"name": "cluster", "ranks": [0, 30], "latency_us": 5060.0,
//                "bandwidth_bytes_per_s": 1.25e8, "one_way_us": [{"bytes": 8, "us": 5060.1}, ...]},
//               {"name": "node", ...}],
//    "send_overhead_us": 0.0, "recv_overhead_us": 0.0, "recv_overhead_until_bytes": 65536,
//    "node": {"flows": 8, "injection_bytes_per_s": 1.25e8, "ejection_bytes_per_s": 1.25e8},
//    "backbone": {"level": "cluster", "groups": [0, 1],
//                 "one_direction": [{"flows": 30, "bytes_per_s": 1.25e9},
//                                   {"flows": 900, "bytes_per_s": 1.25e9}],
//                 "both_directions": {"flows": 1800, "bytes_per_s": 2.5e9},
//                 "groups_links_bytes_per_s": null},
//    "group_capacities": [{"level": "node", "group": 0, "ranks": 16, "flows": 240,
//                          "bytes_per_s": 3.6e10}],
//    "group_links": [{"level": "node", "group": 0, "ranks": 16, "flows": 16, "bytes_per_s": 1.25e10}],
//    "message_envelope": {"level": "node", "flows": 16, "messages": 256, "bytes": 8, "one_us": 12.6,
//                         "many_us": 20.4, "envelope_bytes": 16.0},
//    "busy_messages": {"level": "node", "ranks": 16, "bytes": 8, "exchange_us": 11.9},
//    "eager_messages": {"level": "node", "ranks": 16, "bytes": 2048, "exchange_us": 44.0,
//                       "copy_bytes_per_s": 2.9e9},
//    "rendezvous_messages": {"level": "node", "ranks": 16, "bytes": 8192, "exchange_us": 70.0,
//                            "per_message_us": 1.5},
//    "copy": {"bytes_per_s": 5e9, "source": "given"},
//    "validation": [{"operation": "alltoall", "bytes": 1024, "algorithm": "direct",
//                    "predicted_us": 5120.4, "measured_us": 5301.2}, ...], "validation_noise": 0.005,
//    "decisions": [{"operation": "alltoall", "ranks": 60, "shape": "cluster:2x30 node:60x1",
//                   "from_bytes": 1024, "to_bytes": 65535, "algorithm": "pairwise", ...}, ...]}
//
// "validation" (absent in files from before it was measured) is what topocoll-calibrate's
// validation pass timed beside the model's predictions on these parameters; "decisions" (absent
// until topocoll-tune adds it) is the measured decision table that auto follows where it covers a
// call (decision_table.hpp). "backbone" is null (or absent) when the topology has a single group at its outermost
// level. "group_capacities" (absent: none) lists the levels whose groups pass less among their own ranks than those
// ranks' links would: a node whose ranks share its memory bandwidth. "group_links" (absent: none) lists the levels
// whose groups pass less to the rest of the machine than their ranks' links would: a host whose ranks share its network
// adapter. "message_envelope" (absent: none measured, no group link) is the bytes each message adds on a link.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/machine_cost.hpp"
#include "select/decision_table.hpp"

namespace topocoll {

inline constexpr std::string_view kCalibrationFormat = "topocoll-calibration 1";
// How far below a probe's measured time (busy_messages, eager_messages, rendezvous_messages) the model's price may
// be and still stand: the probe's noise.
inline constexpr double kProbeNoise = 0.1;

struct OneWaySample {
  std::size_t bytes = 0;
  double us = 0.0;  // half a ping-pong's round trip
};

// Ping-pong between two ranks first separated at this level ("same group": sharing every group).
struct LevelCalibration {
  std::string name;
  int rank_a = 0;
  int rank_b = 0;
  double latency_us = 0.0;             // network latency: one-way time at 0 bytes minus the send overhead
  double bandwidth_bytes_per_s = 0.0;  // one flow's, from the two largest samples
  std::vector<OneWaySample> one_way;
};

// One rank sending to (receiving from) `flows` peers at once.
struct NodeCalibration {
  int flows = 0;
  double injection_bytes_per_s = 0.0;
  double ejection_bytes_per_s = 0.0;
};

// An aggregate capacity measured with `flows` simultaneous flows.
struct FlowCapacity {
  int flows = 0;
  double bytes_per_s = 0.0;
};

// Ranks of group_a sending to ranks of group_b (and back) at once, at level `level`: one flow
// per rank of the smaller group (lg's pattern), then many (direct's pattern), then both ways.
// One rank's link shared by one flow inside its group and `far_flows` flows across the
// backbone, all started at once: the share of the link the flow inside took (latency-weighted
// sharing; 1 / (far_flows + 1) if the link were shared evenly).
struct NearShare {
  int far_flows = 0;
  double share = 0.0;
};

struct BackboneCalibration {
  std::string level;
  int group_a = 0;
  int group_b = 1;
  std::vector<FlowCapacity> one_direction;  // by increasing flows
  FlowCapacity both_directions;
  std::optional<NearShare> near_share;  // absent in files from before it was measured
  // Set where every point above passed at least kLimitOfItsOwnShare of what the probing
  // groups' own links pass (one way, the smaller direction; both directions' sum for
  // both_directions): that, in bytes per second. The probes then saw the hosts' links more than
  // the backbone (a non-blocking tree), and the model widens the backbone with the groups'
  // links (BackboneCost::groups_links_bytes_per_us). Absent (and in older files): a limit of its own.
  std::optional<double> groups_links_bytes_per_s;
};

// A measured group capacity, group link or backbone is a limit of its own where it passes below
// this share of what the probing ranks' own links pass; else the probe measured those links.
inline constexpr double kLimitOfItsOwnShare = 0.75;

// The ranks of one group of `level` (`ranks` of them) all sending to each other at once
// (`flows`): the bytes per second the group passed in all. Kept only where that is well below
// what the ranks' own links pass (ranks x injection): the group, not the links, is the limit.
// For a group link: `ranks` of the group each sending to one rank of another group of the level,
// `flows` = ranks at once (MachineCost::group_links).
struct GroupCapacityCalibration {
  std::string level;
  int group = 0;
  int ranks = 0;
  int flows = 0;
  double bytes_per_s = 0.0;
};

// The ranks of one group of `level` (rank 0's innermost group, a node; `ranks` of them) all
// running topocoll's direct with blocks of `bytes`, many calls back to back: the time of one
// call. A lone ping-pong does not see what a message costs when every rank of a node is busy
// (the shared-memory queues and caches they contend for, the MPI library's matching and
// progress, topocoll's own bookkeeping per message): where the model prices that call below its
// measured time, the latency among these ranks and the send and receive overheads are scaled up
// to it (Calibration::machine).
struct BusyMessagesCalibration {
  std::string level;
  int ranks = 0;
  std::size_t bytes = 8;  // per message
  double exchange_us = 0.0;
};

// The same ranks running direct with the largest blocks the MPI library surely sends eagerly
// (half its eager limit): where the model, busy_factor applied, prices that call more than 10%
// below its measured time, topocoll-calibrate fits the rate at which the CPUs copy eager
// messages in and out (MachineCost::eager_copy_bytes_per_us) so that the model prices it at
// the measured time; absent (null in the file) where the model stood.
struct EagerMessagesCalibration {
  BusyMessagesCalibration exchange;
  std::optional<double> copy_bytes_per_s;
};

// The same with blocks of twice the eager limit, after the eager copies: where the model
// prices that call more than 10% below its measured time, topocoll-calibrate fits the CPU time
// each message's rendezvous costs its receiver (MachineCost::rendezvous_us); absent (null in
// the file) where the model stood.
struct RendezvousMessagesCalibration {
  BusyMessagesCalibration exchange;
  std::optional<double> per_message_us;
};

// The flows of the innermost group link's probe (GroupCapacityCalibration) again, each carrying
// one message of `bytes` and then `messages` of them at once: the time of each pattern. The
// difference is (messages - 1) x flows messages through the group's link, and what they take
// beyond their bytes is each message's envelope (the MPI library's and the network's headers),
// fitted where the link, not the ranks' CPUs, sets the time (fit_envelope_bytes). Null
// envelope_bytes: the CPUs hid the link.
struct EnvelopeCalibration {
  std::string level;
  int flows = 0;
  int messages = 0;
  std::size_t bytes = 0;
  double one_us = 0.0;
  double many_us = 0.0;
  std::optional<double> envelope_bytes;
};

struct CopyCalibration {
  double bytes_per_s = 0.0;
  std::string source;  // "measured" (memcpy), "given" (--copy-bandwidth), or "simulation default"
};

// One point of the validation pass: an algorithm timed on the machine at one block size, beside
// what the model predicts for it from this calibration (none for native, which it cannot
// predict, and for an algorithm it does not model).
struct ValidationPoint {
  std::string operation;  // "alltoall"
  std::size_t bytes = 0;  // per block
  std::string algorithm;
  std::optional<double> predicted_us;
  double measured_us = 0.0;
  // (predicted - measured) / measured, when predicted.
  std::optional<double> error() const;
};

struct Calibration {
  std::string platform;
  std::string topology;  // the spec the levels were measured under
  int ranks = 0;
  std::string mpi_library;
  std::string created_by;
  std::vector<LevelCalibration> levels;  // outermost first, only those with a pair of ranks
  double send_overhead_us = 0.0;
  std::optional<double> recv_overhead_us;  // absent in files from before it was measured
  std::optional<std::size_t> recv_overhead_until_bytes;  // the eager limit given; absent: every size
  NodeCalibration node;
  std::optional<BackboneCalibration> backbone;
  std::vector<GroupCapacityCalibration> group_capacities;  // absent in files from before it was measured
  std::vector<GroupCapacityCalibration> group_links;       // the same
  std::optional<EnvelopeCalibration> message_envelope;     // the same
  std::optional<BusyMessagesCalibration> busy_messages;   // absent: not measured (one rank per group)
  std::optional<EagerMessagesCalibration> eager_messages;  // absent: not measured (no eager limit given)
  std::optional<RendezvousMessagesCalibration> rendezvous_messages;  // the same
  CopyCalibration copy;
  std::vector<ValidationPoint> validation;
  // What the validation's times may differ by and still be noise, as a fraction; absent: 5%
  // (a real machine's). A simulated machine's times repeat exactly (validation_check.hpp).
  std::optional<double> validation_noise;
  std::vector<Decision> decisions;  // topocoll-tune's table; no two entries overlap

  // The model's parameters (us and bytes per us).
  MachineCost machine() const;
  // What busy_messages makes of the model: the factor by which the latency among those ranks
  // (the last level's) and the send and receive overheads are scaled so that the model prices
  // direct's small exchange among them at its measured time; 1 when absent, or when the model's
  // price is within 10% of it (the probe's noise) or above.
  double busy_factor() const;
};

// Reads a calibration from JSON text; on error returns nullopt and sets `error` to a message
// naming the field at fault (e.g. "levels[1].bandwidth_bytes_per_s must be a positive number").
std::optional<Calibration> parse_calibration(std::string_view text, std::string* error);
// The same from a file; errors start with the file's path.
std::optional<Calibration> load_calibration(const std::string& path, std::string* error);
// The same, parsed once per process while the file stays as it was (its size and modification
// time): every communicator of a program reads one calibration, and a program that makes many
// communicators pays one parse. Null with `error` set where load_calibration fails.
std::shared_ptr<const Calibration> load_calibration_once(const std::string& path, std::string* error);
// The JSON text of a calibration (what parse_calibration reads back).
std::string calibration_to_json(const Calibration& calibration);

// Latency and bandwidth of a level from its one-way times: the bandwidth from the two largest
// sizes (the slope), the latency from the smallest (its time less its bytes at that bandwidth,
// less the send overhead, at least 0). Nullopt with fewer than two sizes or a slope that is
// not positive.
struct LatencyBandwidth {
  double latency_us = 0.0;
  double bandwidth_bytes_per_s = 0.0;
};
std::optional<LatencyBandwidth> fit_one_way(std::vector<OneWaySample> samples, double send_overhead_us);

}  // namespace topocoll
