// topocoll-calibrate: measures, on the machine it runs on (a real MPI, or SMPI on a simulated
// platform), the parameters of topocoll's hierarchical cost model and writes them as a
// calibration file (src/select/calibration.hpp; docs/algorithms.md, section "auto"):
//  - the send overhead: time to post an 8-byte MPI_Isend;
//  - per topology level (and "same group"): a ping-pong between two ranks first separated at that
//    level, fitted to latency + bytes / bandwidth;
//  - the receive overhead: the time to complete a received message once it has arrived (many
//    from up to 16 ranks), which the model charges up to --eager-limit;
//  - a node's injection and ejection bandwidth: one rank sending to (receiving from) several
//    peers at once;
//  - per level, the capacity of rank 0's group: one rank of each group of the next level inward
//    (every rank at the innermost) all sending to each other at once, kept where the group passes
//    well below what those ranks' links would (a node's memory shared by its ranks);
//  - per level below the backbone's, the link of rank 0's group: the same ranks each sending to
//    one rank of a neighbouring group at once, kept where it passes well below what their links
//    would (a host's adapter shared by its ranks);
//  - the backbone between the first two groups of the outermost level: one flow per rank of the
//    smaller group, then many (each rank of the first to up to 32 of the second), then those
//    flows and their reverses at once; a limit of its own unless every probe passed nearly what
//    the two groups' own links do (then it measured those, and the model widens it with them);
//  - beside those, the share of a rank's link that one flow inside its group takes while the
//    rank sends flows across to up to 32 ranks at once (latency-weighted sharing);
//  - the local copy bandwidth: memcpy, or under SMPI the value given with --copy-bandwidth (what
//    topocoll charges there; the library's default when not given);
//  - rank 0's node, its ranks all busy running direct, 100 calls in a row: with 8-byte blocks
//    (busy_messages), and with --eager-limit at half and twice the limit (eager_messages,
//    rendezvous_messages), each fitted to the model where it prices the call more than 10% under;
// then a validation pass (calibration_validation.hpp): every algorithm the model prices for the
// total exchange, and native, timed at a few sizes beside its prediction (stored in the file).
// The topology comes from the spec (clusters:N1,N2,..., flat:N, or a topology file); a "node"
// level is added from the host names unless the spec has one.
// Arguments are parsed by hand: smpicxx's exit() macro breaks CLI11.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "calibration_limits.hpp"
#include "calibration_probes.hpp"
#include "calibration_validation.hpp"
#include "exec/copy_cost.hpp"
#include "select/calibration.hpp"
#include "select/probe_fits.hpp"
#include "select/validation_check.hpp"
#include "topology/topology_file.hpp"

namespace {

using namespace topocoll;
using namespace topocoll::calibrate;

#ifdef TOPOCOLL_SMPI
constexpr bool kSimulated = true;
#else
constexpr bool kSimulated = false;
#endif

const std::vector<std::size_t> kOneWaySizes = {8, 1024, 65536, 1 << 20, 4 << 20};
constexpr std::size_t kAggregateSmall = 256 << 10;
constexpr std::size_t kAggregateLarge = 1 << 20;
// The backbone's probes move more: with 256 KiB flows across a WAN, ranks leaving the start
// barrier milliseconds apart overlap too little, and the difference over-estimated the capacity
// (1.62 GB/s on a 1.25 GB/s backbone under SMPI).
constexpr std::size_t kBackboneSmall = 1 << 20;
constexpr std::size_t kBackboneLarge = 4 << 20;
constexpr int kMaxBackboneFan = 32;
// A group's probe takes up to this many ranks (n (n - 1) flows); the group is a limit of its own
// where it passes below kLimitOfItsOwnShare of what their links pass.
constexpr std::size_t kMaxGroupProbe = 64;
// The envelope's probe: this many messages of this size per flow (SMPI's 16-byte envelope
// makes 256 x 16 flows of 8 B take 7.8 us more than one each through a 12.5 GB/s link).
constexpr int kEnvelopeMessages = 256;
constexpr std::size_t kEnvelopeBytes = 8;

constexpr const char* kUsage = R"(Usage: topocoll-calibrate --topology SPEC [options]

Measures the parameters of topocoll's hierarchical cost model on this machine and writes a
calibration file (JSON) for `auto` (docs/algorithms.md, section "auto").

  --topology SPEC        clusters:N1,N2,..., flat:N, or a topology file (required); a "node"
                         level is added from the host names unless SPEC has one
  --output FILE          where to write the calibration (default: standard output)
  --platform NAME        the platform's name, recorded in the file
  --copy-bandwidth B/S   local copy bandwidth in bytes per second: recorded as given; without
                         it, memcpy is measured (real MPI) or topocoll's default for simulation
                         is recorded (SMPI, where topocoll charges copies at that bandwidth)
  --eager-limit BYTES    the largest message the MPI library sends eagerly (Open MPI: the
                         btl's eager limit less ob1's 16-byte header): received messages above
                         it pay no per-message completion overhead in the model but a
                         rendezvous, and messages up to it the CPUs' copies, both measured on
                         the node's busy ranks (recorded as recv_overhead_until_bytes; default:
                         none, every size pays the completion, nothing else)
  --repetitions N        timed runs per point, the median is kept (default 5)
  --node-flows K         peers of the injection and ejection probes (default 8)
  --validate-sizes LIST  block sizes in bytes of the validation pass, comma-separated, or none
                         (default 1024,65536): every algorithm the model prices for alltoall,
                         and native, timed there beside its prediction; the errors and whether
                         auto's pick is the fastest are printed and stored in the file
  --validate-bisections N
                         rounds of bisection after those sizes (default 3; 0: none): where the
                         winners of neighbouring sizes more than 2x apart differ, their geometric
                         midpoint is validated too (a gap of 64x narrows to 8x, 16x to 2x), since
                         strictly between two validated sizes only what won at both ends runs
  --validate FILE        measure nothing: run the validation pass on the calibration FILE (made
                         here or elsewhere) and write it with the new points (--output)
  -h                     this help (smpirun takes --help for itself)
)";

struct Options {
  std::string topology;
  std::string output;
  std::string platform;
  std::optional<double> copy_bandwidth;
  std::optional<std::size_t> eager_limit;
  int repetitions = 5;
  int node_flows = 8;
  std::vector<std::size_t> validate_sizes = {1024, 65536};
  int validate_bisections = 3;
  std::string validate_file;  // --validate: check this calibration instead of measuring
  std::string command;
};

// "1024,65536" or "none"; false on anything else.
bool parse_sizes(const std::string& text, std::vector<std::size_t>& sizes) {
  sizes.clear();
  if (text == "none") return true;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    std::size_t used = 0;
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos) return false;
    const unsigned long long value = std::stoull(item, &used);
    if (value == 0 || value > static_cast<unsigned long long>(std::numeric_limits<int>::max())) return false;
    sizes.push_back(static_cast<std::size_t>(value));
    start = comma + 1;
  }
  return !sizes.empty();
}

// Nullopt after -h or an error (printed on rank 0); `status` says which.
std::optional<Options> parse(int argc, char** argv, bool print, int* status) {
  Options o;
  o.command = "topocoll-calibrate";
  auto fail = [&](const std::string& why) {
    if (print) std::cerr << "topocoll-calibrate: " << why << "\nRun topocoll-calibrate -h for the options.\n";
    *status = 2;
    return std::nullopt;
  };
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    o.command += " " + arg;
    if (arg == "-h" || arg == "--help") {
      if (print) std::cout << kUsage;
      *status = 0;
      return std::nullopt;
    }
    if (const auto eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    } else if (arg.rfind("--", 0) == 0) {
      if (i + 1 >= argc) return fail(arg + " needs a value");
      value = argv[++i];
      o.command += " " + value;
    } else {
      return fail("unexpected argument '" + arg + "'");
    }
    try {
      std::size_t used = 0;
      if (arg == "--topology") {
        o.topology = value;
      } else if (arg == "--output") {
        o.output = value;
      } else if (arg == "--platform") {
        o.platform = value;
      } else if (arg == "--copy-bandwidth") {
        o.copy_bandwidth = std::stod(value, &used);
        if (used != value.size() || !(*o.copy_bandwidth > 0)) return fail("--copy-bandwidth must be a positive number");
      } else if (arg == "--eager-limit") {
        const long long limit = std::stoll(value, &used);
        if (used != value.size() || limit < 0) return fail("--eager-limit must be a whole number of bytes, 0 or more");
        o.eager_limit = static_cast<std::size_t>(limit);
      } else if (arg == "--repetitions") {
        o.repetitions = std::stoi(value, &used);
        if (used != value.size() || o.repetitions < 1) return fail("--repetitions must be a whole number, 1 or more");
      } else if (arg == "--validate") {
        o.validate_file = value;
      } else if (arg == "--validate-sizes") {
        if (!parse_sizes(value, o.validate_sizes)) {
          return fail("--validate-sizes takes block sizes in bytes (1 to 2^31-1), comma-separated, or none");
        }
      } else if (arg == "--validate-bisections") {
        o.validate_bisections = std::stoi(value, &used);
        if (used != value.size() || o.validate_bisections < 0 || o.validate_bisections > 20) {
          return fail("--validate-bisections must be a whole number from 0 to 20");
        }
      } else if (arg == "--node-flows") {
        o.node_flows = std::stoi(value, &used);
        if (used != value.size() || o.node_flows < 1) return fail("--node-flows must be a whole number, 1 or more");
      } else {
        return fail("unknown option '" + arg + "'");
      }
    } catch (const std::exception&) {
      return fail(arg + " takes a number, not '" + value + "'");
    }
  }
  if (o.topology.empty()) return fail("--topology is required");
  if (!o.validate_file.empty() && o.validate_sizes.empty()) return fail("--validate with --validate-sizes none checks nothing");
  return o;
}

std::vector<std::string> host_names(MPI_Comm comm) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  char mine[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(mine, &length);
  std::vector<char> all(static_cast<std::size_t>(size) * MPI_MAX_PROCESSOR_NAME);
  MPI_Allgather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, comm);
  std::vector<std::string> hosts;
  for (int r = 0; r < size; ++r) hosts.emplace_back(all.data() + static_cast<std::size_t>(r) * MPI_MAX_PROCESSOR_NAME);
  return hosts;
}

// The spec's topology with a "node" level from the host names, unless it has one.
std::optional<Topology> calibration_topology(const std::string& spec, const std::vector<std::string>& hosts,
                                             std::string* error) {
  auto topology = load_topology_for(spec, RankPlacement::whole_world(hosts), error);
  if (!topology) return std::nullopt;
  const auto& levels = topology->levels();
  if (std::find(levels.begin(), levels.end(), "node") != levels.end()) return topology;
  std::map<std::string, int> ids;
  std::vector<int> node;
  for (const std::string& h : hosts) node.push_back(ids.try_emplace(h, static_cast<int>(ids.size())).first->second);
  return topology->with_inner_level("node", node);
}

// A pair of ranks first separated at `level` (-1: sharing every group), rank 0 first if it can.
std::optional<Flow> pair_at(const Topology& t, int level) {
  for (int a = 0; a < t.size(); ++a)
    for (int b = 0; b < t.size(); ++b)
      if (a != b && t.separating_level(a, b) == level) return Flow{a, b};
  return std::nullopt;
}

// Up to k peers of rank a for the node probes: in its outermost group on other hosts first,
// then in its outermost group; elsewhere only when its outermost group has no other rank. (Flows
// across a backbone beside the others time the backbone's latency and the skew of the barriers
// across it too: on three clusters of 5, 7 and 9 nodes, four peers across 5 ms made a 1.25e8 B/s
// link measure 1.33e8.)
std::vector<int> node_peers(const Topology& t, int a, int k) {
  const int inner = t.level_count() - 1;
  std::vector<std::pair<int, int>> ranked;  // (preference, rank)
  bool near = false;
  for (int r = 0; r < t.size(); ++r) near = near || (r != a && t.group(r, 0) == t.group(a, 0));
  for (int r = 0; r < t.size(); ++r) {
    if (r == a) continue;
    const bool same_outer = t.group(r, 0) == t.group(a, 0);
    const bool other_node = t.group(r, inner) != t.group(a, inner);
    if (near && !same_outer) continue;
    ranked.push_back({same_outer ? (other_node ? 0 : 1) : 2, r});
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<int> peers;
  for (std::size_t i = 0; i < ranked.size() && static_cast<int>(i) < k; ++i) peers.push_back(ranked[i].second);
  return peers;
}

// Up to kMaxGroupProbe ranks of group `group` of `level` (rank 0's by default), one per group of
// the next level inward (every rank at the innermost level): the ranks whose messages go through
// the group.
std::vector<int> group_probe_ranks(const Topology& t, int level, int group = -1) {
  if (group < 0) group = t.group(0, level);
  const int inner = level + 1 < t.level_count() ? level + 1 : -1;
  std::vector<int> ranks;
  std::vector<int> inner_seen;
  for (int r = 0; r < t.size() && ranks.size() < kMaxGroupProbe; ++r) {
    if (t.group(r, level) != group) continue;
    if (inner >= 0) {
      if (std::find(inner_seen.begin(), inner_seen.end(), t.group(r, inner)) != inner_seen.end()) continue;
      inner_seen.push_back(t.group(r, inner));
    }
    ranks.push_back(r);
  }
  return ranks;
}

// Keeps a group's measured capacity or link (`what`) where it passes below kLimitOfItsOwnShare of
// what its probe's ranks' links would (each `link` bytes per second), and says which on `log`.
void keep_if_a_limit(GroupCapacityCalibration g, double link, const char* what,
                     std::vector<GroupCapacityCalibration>& limits, std::ostream& log) {
  const double links_pass = static_cast<double>(g.ranks) * link;
  log << g.bytes_per_s << " B/s, " << g.bytes_per_s / links_pass << " of what their links pass";
  if (g.bytes_per_s > 0 && g.bytes_per_s < kLimitOfItsOwnShare * links_pass) {
    log << ": a " << what << " of its own, charged by the model\n";
    limits.push_back(std::move(g));
  } else {
    log << ": not a limit\n";
  }
}

// The capacities of rank 0's groups that are limits of their own (GroupCapacityCalibration).
std::vector<GroupCapacityCalibration> measure_group_capacities(MPI_Comm comm, const Topology& topology,
                                                               const NodeCalibration& node,
                                                               const ProbeSettings& settings, std::ostream& log) {
  std::vector<GroupCapacityCalibration> limits;
  const double link = std::min(node.injection_bytes_per_s, node.ejection_bytes_per_s);
  for (int level = 0; level < topology.level_count(); ++level) {
    const std::vector<int> ranks = group_probe_ranks(topology, level);
    if (ranks.size() < 2) continue;
    std::vector<Flow> flows;
    for (int a : ranks)
      for (int b : ranks)
        if (a != b) flows.push_back({a, b});
    GroupCapacityCalibration g{topology.levels()[level], topology.group(0, level), static_cast<int>(ranks.size()),
                               static_cast<int>(flows.size()),
                               measure_aggregate_bytes_per_s(comm, flows, kAggregateSmall, kAggregateLarge, settings)};
    log << g.level << " " << g.group << " (" << g.ranks << " ranks, all to all): ";
    keep_if_a_limit(std::move(g), link, "capacity", limits, log);
  }
  return limits;
}

// The group of `level` that rank 0's group sends to in its link's probe: the first other group
// under the same group one level out (any other at the outermost level), or -1.
int partner_group(const Topology& t, int level) {
  for (int r = 0; r < t.size(); ++r) {
    if (t.group(r, level) != t.group(0, level) && (level == 0 || t.group(r, level - 1) == t.group(0, level - 1))) {
      return t.group(r, level);
    }
  }
  return -1;
}

// The probe of the link of rank 0's group of `level`: its probe ranks each sending to one probe
// rank of the partner group at once (none with fewer than two flows).
std::vector<Flow> group_link_flows(const Topology& topology, int level) {
  const int partner = partner_group(topology, level);
  if (partner < 0) return {};
  const std::vector<int> ours = group_probe_ranks(topology, level),
                         theirs = group_probe_ranks(topology, level, partner);
  const std::size_t n = std::min(ours.size(), theirs.size());
  if (n < 2) return {};
  std::vector<Flow> flows;
  for (std::size_t i = 0; i < n; ++i) flows.push_back({ours[i], theirs[i]});
  return flows;
}

// The links of rank 0's groups that are limits of their own (GroupCapacityCalibration), each
// through group_link_flows. Not at the outermost level where the backbone is measured and levels
// lie inside it (the backbone's own probes stand for that link).
std::vector<GroupCapacityCalibration> measure_group_links(MPI_Comm comm, const Topology& topology,
                                                          const NodeCalibration& node, const ProbeSettings& settings,
                                                          std::ostream& log) {
  std::vector<GroupCapacityCalibration> limits;
  const double link = std::min(node.injection_bytes_per_s, node.ejection_bytes_per_s);
  const bool backbone = topology.group_count(0) >= 2 && topology.level_count() > 1;
  for (int level = backbone ? 1 : 0; level < topology.level_count(); ++level) {
    const std::vector<Flow> flows = group_link_flows(topology, level);
    if (flows.empty()) continue;
    const std::string& name = topology.levels()[level];
    const auto n = static_cast<int>(flows.size());
    GroupCapacityCalibration g{name, topology.group(0, level), n, n,
                               measure_aggregate_bytes_per_s(comm, flows, kAggregateSmall, kAggregateLarge, settings)};
    log << name << " " << g.group << " (" << n << " ranks, each to one of " << name << " "
        << topology.group(flows.front().second, level) << "): ";
    keep_if_a_limit(std::move(g), link, "link", limits, log);
  }
  return limits;
}

// What the two groups' own links pass one way (their ranks' links and the group links kept
// inside them; the smaller direction), in bytes per second, where every backbone probe in `bb`
// passed at least kLimitOfItsOwnShare of it (both directions: of the two directions' sum): the
// probes then measured those links, not the backbone (BackboneCalibration). Else nullopt.
std::optional<double> backbone_groups_links(const Calibration& c, const Topology& topology,
                                            const BackboneCalibration& bb, std::ostream& log) {
  const MachineCost links = c.machine();  // the ranks' links and the group links measured so far
  const std::vector<double> out = group_links_pass_bytes_per_us(links, topology, 0, true),
                            in = group_links_pass_bytes_per_us(links, topology, 0, false);
  const auto a = static_cast<std::size_t>(bb.group_a), b = static_cast<std::size_t>(bb.group_b);
  const double forth = std::min(out[a], in[b]) * 1e6, back = std::min(out[b], in[a]) * 1e6;
  bool own = bb.both_directions.bytes_per_s < kLimitOfItsOwnShare * (forth + back);
  for (const FlowCapacity& point : bb.one_direction)
    own = own || point.bytes_per_s < kLimitOfItsOwnShare * std::min(forth, back);
  log << "backbone against what its groups' own links pass (" << std::min(forth, back) << " B/s one way): "
      << (own ? "a limit of its own\n" : "not a limit of its own, widened with the groups' links\n");
  if (own) return std::nullopt;
  return std::min(forth, back);
}

// The bytes each message adds on the innermost group link kept (EnvelopeCalibration): its probe's
// flows with one small message each, then with kEnvelopeMessages each.
void measure_message_envelope(MPI_Comm comm, const Topology& topology, const ProbeSettings& settings, Calibration& c,
                              std::ostream& log) {
  if (c.group_links.empty()) return;
  const std::string& name = c.group_links.back().level;
  const std::vector<std::string>& levels = topology.levels();
  const auto level = static_cast<int>(std::find(levels.begin(), levels.end(), name) - levels.begin());
  const std::vector<Flow> flows = group_link_flows(topology, level);
  if (flows.empty()) return;
  EnvelopeCalibration e{name,
                        static_cast<int>(flows.size()),
                        kEnvelopeMessages,
                        kEnvelopeBytes,
                        measure_flows_us(comm, flows, kEnvelopeBytes, 1, settings),
                        measure_flows_us(comm, flows, kEnvelopeBytes, kEnvelopeMessages, settings),
                        std::nullopt};
  e.envelope_bytes = fit_envelope_bytes(c, e);
  log << "message envelope (" << name << " link, " << e.flows << " flows of " << e.messages << " x " << e.bytes
      << " B against one): " << e.one_us << " -> " << e.many_us << " us, ";
  if (e.envelope_bytes) {
    log << *e.envelope_bytes << " B per message on the link\n";
  } else {
    log << "the CPUs, not the link, set the time: not charged\n";
  }
  c.message_envelope = std::move(e);
}

// The probes of the messages of rank 0's innermost group (a node), its ranks all busy running
// topocoll's direct, each fitted after the one before: busy_messages (8 B blocks),
// eager_messages (half the eager limit: surely below it once the library has added its own
// header) and rendezvous_messages (twice the limit); none with fewer than two ranks there, the
// last two only with an eager limit.
void measure_busy_probes(MPI_Comm comm, const Topology& topology, double copy_bandwidth, const ProbeSettings& settings,
                         Calibration& c, std::ostream& log) {
  const int level = topology.level_count() - 1;
  if (level < 0) return;
  const std::vector<int> probed = group_probe_ranks(topology, level);
  if (probed.size() < 2) return;
  const auto measured = [&](std::size_t bytes) {
    BusyMessagesCalibration exchange{topology.levels()[level], static_cast<int>(probed.size()), bytes,
                                     measure_busy_exchange_us(comm, probed, bytes, copy_bandwidth, settings)};
    log << exchange.level << " (" << exchange.ranks << " ranks, all busy): direct with " << exchange.bytes
        << " B blocks " << exchange.exchange_us << " us a call; ";
    return exchange;
  };
  const std::string stood =
      "the model prices it within " + std::to_string(static_cast<int>(kProbeNoise * 100)) + "% or above: ";
  c.busy_messages = measured(kBusyMessageBytes);
  log << "latency and overheads among them scaled by " << c.busy_factor() << "\n";
  if (!c.recv_overhead_until_bytes || *c.recv_overhead_until_bytes < 2) return;
  const std::size_t limit = *c.recv_overhead_until_bytes;
  const Topology ranks = topology.restricted_to(probed);
  const BusyMessagesCalibration eager = measured(limit / 2);
  c.eager_messages = EagerMessagesCalibration{eager, fit_eager_copy_bytes_per_s(c, eager, ranks)};
  if (c.eager_messages->copy_bytes_per_s) {
    log << "eager messages copied in and out at " << *c.eager_messages->copy_bytes_per_s << " B/s by the model\n";
  } else {
    log << stood << "no copies charged\n";
  }
  const BusyMessagesCalibration rendezvous = measured(2 * limit);
  c.rendezvous_messages = RendezvousMessagesCalibration{rendezvous, fit_rendezvous_us(c, rendezvous, ranks)};
  if (c.rendezvous_messages->per_message_us) {
    log << "each message's rendezvous costs its receiver " << *c.rendezvous_messages->per_message_us
        << " us in the model\n";
  } else {
    log << stood << "no rendezvous charged\n";
  }
}

std::vector<int> members(const Topology& t, int group) {
  std::vector<int> ranks;
  for (int r = 0; r < t.size(); ++r)
    if (t.group(r, 0) == group) ranks.push_back(r);
  return ranks;
}

// Every rank of `from` to up to `fan` ranks of `to`, spread so that receivers share the load.
std::vector<Flow> crossing(const std::vector<int>& from, const std::vector<int>& to, int fan) {
  std::vector<Flow> flows;
  const int width = std::min(fan, static_cast<int>(to.size()));
  for (std::size_t i = 0; i < from.size(); ++i)
    for (int j = 0; j < width; ++j) flows.push_back({from[i], to[(i + static_cast<std::size_t>(j)) % to.size()]});
  return flows;
}

std::string library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string version(text, strnlen(text, static_cast<std::size_t>(std::max(0, length))));
  if (const auto end = version.find_first_of("\r\n"); end != std::string::npos) version.resize(end);
  return version;
}

// Stops the calibration when a measurement is above what the platform's links allow (SMPI only).
void check_against_platform(const std::optional<std::string>& error) {
  if (error) throw std::runtime_error(*error);
}

Calibration measure_machine(MPI_Comm comm, const Options& o, const Topology& topology,
                            const std::vector<std::string>& hosts, std::ostream& log) {
  ProbeSettings settings;
  settings.repetitions = o.repetitions;
  settings.smpi_shared_buffers = kSimulated;
  Calibration c;
  c.platform = o.platform;
  c.topology = o.topology;
  c.ranks = topology.size();
  c.mpi_library = library_version();
  c.created_by = o.command;

  const auto innermost = pair_at(topology, -1) ? pair_at(topology, -1) : pair_at(topology, topology.level_count() - 1);
  const Flow overhead_pair = innermost ? *innermost : Flow{0, 1};
  c.send_overhead_us = measure_send_overhead_us(comm, overhead_pair.first, overhead_pair.second, settings);
  log << "send overhead: " << c.send_overhead_us << " us (ranks " << overhead_pair.first << ", " << overhead_pair.second
      << ")\n";

  for (int level = 0; level <= topology.level_count(); ++level) {
    const int separating = level == topology.level_count() ? -1 : level;
    const std::string name = separating < 0 ? "same group" : topology.levels()[level];
    const auto pair = pair_at(topology, separating);
    if (!pair) {
      log << name << ": no two ranks are first separated here; not measured\n";
      continue;
    }
    LevelCalibration l;
    l.name = name;
    std::tie(l.rank_a, l.rank_b) = *pair;
    l.one_way = measure_one_way(comm, l.rank_a, l.rank_b, kOneWaySizes, settings);
    const auto fit = fit_one_way(l.one_way, c.send_overhead_us);
    if (!fit) throw std::runtime_error("level " + name + ": the ping-pong time does not grow with the size");
    l.latency_us = fit->latency_us;
    l.bandwidth_bytes_per_s = fit->bandwidth_bytes_per_s;
    log << name << " (ranks " << l.rank_a << ", " << l.rank_b << "): latency " << l.latency_us << " us, bandwidth "
        << l.bandwidth_bytes_per_s << " B/s\n";
    check_against_platform(above_cap("level " + name + " (ranks " + std::to_string(l.rank_a) + ", " +
                                         std::to_string(l.rank_b) + "): one flow",
                                     l.bandwidth_bytes_per_s, platform_cap(hosts, l.rank_a, {l.rank_b})));
    c.levels.push_back(std::move(l));
  }
  if (c.levels.empty()) throw std::runtime_error("no pair of ranks to measure: run at least two ranks");
  // The messages to complete have all arrived after a wait well beyond any latency measured.
  double slowest_latency_us = 0.0;
  for (const LevelCalibration& l : c.levels) slowest_latency_us = std::max(slowest_latency_us, l.latency_us);
  c.recv_overhead_us = measure_recv_overhead_us(comm, overhead_pair.second, 1000.0 + 4 * slowest_latency_us, settings);
  c.recv_overhead_until_bytes = o.eager_limit;
  log << "receive overhead: " << *c.recv_overhead_us << " us per message completed after another (at rank "
      << overhead_pair.second << ")\n";

  const std::vector<int> peers = node_peers(topology, 0, o.node_flows);
  std::vector<Flow> out, in;
  for (int peer : peers) {
    out.push_back({0, peer});
    in.push_back({peer, 0});
  }
  c.node.flows = static_cast<int>(peers.size());
  c.node.injection_bytes_per_s = measure_aggregate_bytes_per_s(comm, out, kAggregateSmall, kAggregateLarge, settings);
  c.node.ejection_bytes_per_s = measure_aggregate_bytes_per_s(comm, in, kAggregateSmall, kAggregateLarge, settings);
  log << "node (rank 0, " << peers.size() << " peers): injection " << c.node.injection_bytes_per_s << " B/s, ejection "
      << c.node.ejection_bytes_per_s << " B/s\n";
  check_against_platform(above_cap("rank 0's injection", c.node.injection_bytes_per_s, platform_cap(hosts, 0, peers)));
  check_against_platform(
      above_cap("rank 0's ejection", c.node.ejection_bytes_per_s, platform_cap(hosts, 0, peers, true)));

  c.group_capacities = measure_group_capacities(comm, topology, c.node, settings, log);
  c.group_links = measure_group_links(comm, topology, c.node, settings, log);
  measure_message_envelope(comm, topology, settings, c, log);

  if (topology.group_count(0) >= 2) {
    BackboneCalibration bb;
    bb.level = topology.levels().front();
    const std::vector<int> a = members(topology, 0), b = members(topology, 1);
    const std::vector<Flow> paired = crossing(a.size() <= b.size() ? a : b, a.size() <= b.size() ? b : a, 1);
    const std::vector<Flow> crowded = crossing(a, b, kMaxBackboneFan);
    std::vector<Flow> both = crowded;  // the same flows each way, so that both directions carry as much
    for (const Flow& f : crowded) both.push_back({f.second, f.first});
    for (const auto* flows : {&paired, &crowded}) {
      if (!bb.one_direction.empty() && static_cast<int>(flows->size()) <= bb.one_direction.back().flows) continue;
      bb.one_direction.push_back(
          {static_cast<int>(flows->size()),
           measure_aggregate_bytes_per_s(comm, *flows, kBackboneSmall, kBackboneLarge, settings)});
    }
    bb.both_directions = {static_cast<int>(both.size()),
                          measure_aggregate_bytes_per_s(comm, both, kBackboneSmall, kBackboneLarge, settings)};
    for (const FlowCapacity& point : bb.one_direction) {
      log << "backbone (" << bb.level << " 0 -> 1), " << point.flows << " flows: " << point.bytes_per_s << " B/s\n";
    }
    log << "backbone both ways, " << bb.both_directions.flows << " flows: " << bb.both_directions.bytes_per_s
        << " B/s\n";
    bb.groups_links_bytes_per_s = backbone_groups_links(c, topology, bb, log);
    // The share of a rank's link that one flow inside its group takes beside flows across.
    const std::vector<int> near = node_peers(topology, a.front(), 1);
    if (!near.empty() && topology.group(near.front(), 0) == topology.group(a.front(), 0)) {
      const std::vector<int> far(b.begin(), b.begin() + std::min<std::ptrdiff_t>(kMaxBackboneFan, b.size()));
      const double near_bps = measure_near_flow_bytes_per_s(comm, a.front(), near.front(), far, kBackboneSmall,
                                                            kBackboneLarge, settings);
      const double share = near_bps / c.node.injection_bytes_per_s;
      log << "near flow (" << a.front() << " -> " << near.front() << ") beside " << far.size()
          << " flows across: " << near_bps << " B/s, " << share << " of the link\n";
      if (share > 0 && share < 1) bb.near_share = NearShare{static_cast<int>(far.size()), share};
    }
    c.backbone = bb;
  }

  if (o.copy_bandwidth) {
    c.copy = {*o.copy_bandwidth, "given"};
  } else if (kSimulated) {
    c.copy = {exec::kDefaultCopyBandwidth, "simulation default"};
  } else {
    c.copy = {measure_memcpy_bytes_per_s(64 << 20, 5), "measured"};
  }
  log << "copy: " << c.copy.bytes_per_s << " B/s (" << c.copy.source << ")\n";

  measure_busy_probes(comm, topology, kSimulated ? c.copy.bytes_per_s : 0.0, settings, c, log);
  return c;
}

// The validation pass on `c` (measured now, or read with --validate), which keeps its points.
void validate(MPI_Comm comm, const Options& o, const Topology& topology, Calibration& c, std::ostream& log) {
  ValidationSettings validation;
  validation.sizes = o.validate_sizes;
  validation.bisections = o.validate_bisections;
  validation.repetitions = o.repetitions;
  validation.smpi_shared_buffers = kSimulated;
  validation.window_start = kSimulated;
  validation.timed_loops = !kSimulated;
  validation.topology = o.topology;
  validation.copy_bandwidth = kSimulated ? c.copy.bytes_per_s : 0.0;
  // Simulated times repeat exactly: a smaller difference than a real machine's noise counts.
  if (kSimulated) c.validation_noise = kSimulatedValidationNoise;
  Validation validated = validate_calibration(comm, c, topology, validation, log);
  c.validation = std::move(validated.points);
  // A real machine's: what its repetitions spread by, at least the usual 5%.
  if (!kSimulated && validated.noise) {
    c.validation_noise = *validated.noise;
    log << "validation noise: " << 100.0 * *validated.noise
        << "% (half the range of each point's repetitions over their median, the median over the points; at least "
        << 100.0 * kValidationNoise << "%)\n";
  }
}

// --validate FILE: the calibration to check instead of measuring one (every rank reads it).
Calibration read_calibration(const std::string& path) {
  std::string error;
  auto calibration = load_calibration(path, &error);
  if (!calibration) throw std::runtime_error(error);
  return *calibration;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int status = 0;
  const auto options = parse(argc, argv, rank == 0, &status);
  if (!options) {
    MPI_Finalize();
    return status;
  }
  std::string error;
  const std::vector<std::string> hosts = host_names(MPI_COMM_WORLD);
  const auto topology = calibration_topology(options->topology, hosts, &error);
  if (!topology) {
    if (rank == 0) std::cerr << "topocoll-calibrate: " << error << '\n';
    MPI_Finalize();
    return 2;
  }
  if (topology->size() < 2) {
    if (rank == 0) std::cerr << "topocoll-calibrate: needs at least two ranks to measure anything\n";
    MPI_Finalize();
    return 2;
  }
  std::ostream silent(nullptr);
  try {
    std::ostream& log = rank == 0 ? std::cerr : silent;
    Calibration calibration = options->validate_file.empty() ? measure_machine(MPI_COMM_WORLD, *options, *topology, hosts, log)
                                                             : read_calibration(options->validate_file);
    validate(MPI_COMM_WORLD, *options, *topology, calibration, log);
    if (rank == 0) {
      const std::string text = calibration_to_json(calibration);
      if (options->output.empty()) {
        std::cout << text;
      } else {
        std::ofstream file(options->output);
        file << text;
        if (!file) {
          std::cerr << "topocoll-calibrate: cannot write " << options->output << '\n';
          status = 1;
        }
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "topocoll-calibrate: rank " << rank << ": " << e.what() << '\n';
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}
