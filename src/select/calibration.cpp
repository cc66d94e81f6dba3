// Calibration files: reading (with errors naming the field at fault), writing, the fit of a
// level's latency and bandwidth, and the conversion to the cost model's parameters.
#include "select/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "select/decision_table_json.hpp"
#include "select/json_fields.hpp"

namespace topocoll {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;
using namespace json_fields;

FlowCapacity read_capacity(const json& entry, const std::string& where) {
  if (!entry.is_object()) fail(where, "must be an object with \"flows\" and \"bytes_per_s\"");
  FlowCapacity capacity{whole(entry, where, "flows"), number(entry, where, "bytes_per_s", true)};
  if (capacity.flows < 1) fail(where + ".flows", "must be at least 1");
  return capacity;
}

// The optional array `key` of `root` (absent or null: nothing), each element an object handed to
// `read` with its path ("key[i]"); errors name the array or the element.
template <typename Read>
void read_optional_objects(const json& root, const char* key, Read read) {
  const auto found = root.find(key);
  if (found == root.end() || found->is_null()) return;
  if (!found->is_array()) fail(key, "must be an array");
  for (std::size_t i = 0; i < found->size(); ++i) {
    const std::string at = std::string(key) + "[" + std::to_string(i) + "]";
    if (!(*found)[i].is_object()) fail(at, "must be an object");
    read((*found)[i], at);
  }
}

LevelCalibration read_level(const json& entry, const std::string& where) {
  if (!entry.is_object()) fail(where, "must be an object");
  LevelCalibration level;
  level.name = text(entry, where, "name", true);
  std::tie(level.rank_a, level.rank_b) = two_whole(entry, where, "ranks");
  level.latency_us = number(entry, where, "latency_us", false);
  level.bandwidth_bytes_per_s = number(entry, where, "bandwidth_bytes_per_s", true);
  if (const auto it = entry.find("one_way_us"); it != entry.end()) {
    const std::string list = path(where, "one_way_us");
    if (!it->is_array()) fail(list, "must be an array of {\"bytes\", \"us\"} objects");
    for (std::size_t i = 0; i < it->size(); ++i) {
      const std::string at = list + "[" + std::to_string(i) + "]";
      if (!(*it)[i].is_object()) fail(at, "must be an object");
      level.one_way.push_back(
          {static_cast<std::size_t>(whole((*it)[i], at, "bytes")), number((*it)[i], at, "us", false)});
    }
  }
  return level;
}

Calibration read(const json& root) {
  if (!root.is_object()) fail("the document", "must be a JSON object");
  Calibration c;
  const std::string format = text(root, "", "format", true);
  if (format != kCalibrationFormat) {
    fail("format", "is '" + format + "', expected '" + std::string(kCalibrationFormat) + "'");
  }
  c.platform = text(root, "", "platform");
  c.topology = text(root, "", "topology");
  c.ranks = whole(root, "", "ranks");
  c.mpi_library = text(root, "", "mpi_library");
  c.created_by = text(root, "", "created_by");
  const json& levels = member(root, "", "levels");
  if (!levels.is_array() || levels.empty()) fail("levels", "must be a non-empty array");
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const std::string where = "levels[" + std::to_string(i) + "]";
    c.levels.push_back(read_level(levels[i], where));
    for (std::size_t j = 0; j < i; ++j) {
      if (c.levels[j].name == c.levels[i].name) fail(where + ".name", "'" + c.levels[i].name + "' is listed twice");
    }
  }
  c.send_overhead_us = number(root, "", "send_overhead_us", false);
  if (const auto found = root.find("recv_overhead_us"); found != root.end() && !found->is_null()) {
    c.recv_overhead_us = number(root, "", "recv_overhead_us", false);
  }
  if (const auto found = root.find("recv_overhead_until_bytes"); found != root.end() && !found->is_null()) {
    c.recv_overhead_until_bytes = byte_count(root, "", "recv_overhead_until_bytes");
  }
  const json& node = member(root, "", "node");
  if (!node.is_object()) fail("node", "must be an object");
  c.node.flows = whole(node, "node", "flows");
  c.node.injection_bytes_per_s = number(node, "node", "injection_bytes_per_s", true);
  c.node.ejection_bytes_per_s = number(node, "node", "ejection_bytes_per_s", true);
  const auto found = root.find("backbone");  // absent or null: no backbone
  if (found != root.end() && !found->is_null()) {
    const json& backbone = *found;
    if (!backbone.is_object()) fail("backbone", "must be an object or null");
    BackboneCalibration bb;
    bb.level = text(backbone, "backbone", "level", true);
    const bool known = std::any_of(c.levels.begin(), c.levels.end(), [&](const auto& l) { return l.name == bb.level; });
    if (!known) fail("backbone.level", "'" + bb.level + "' is not the name of one of the levels");
    std::tie(bb.group_a, bb.group_b) = two_whole(backbone, "backbone", "groups");
    const json& points = member(backbone, "backbone", "one_direction");
    if (!points.is_array() || points.empty()) fail("backbone.one_direction", "must be a non-empty array");
    for (std::size_t i = 0; i < points.size(); ++i) {
      const std::string at = "backbone.one_direction[" + std::to_string(i) + "]";
      bb.one_direction.push_back(read_capacity(points[i], at));
      if (i > 0 && bb.one_direction[i].flows <= bb.one_direction[i - 1].flows) {
        fail(at + ".flows", "must exceed the previous entry's (list by increasing flows)");
      }
    }
    bb.both_directions = read_capacity(member(backbone, "backbone", "both_directions"), "backbone.both_directions");
    if (const auto near = backbone.find("near_share"); near != backbone.end() && !near->is_null()) {
      if (!near->is_object()) fail("backbone.near_share", "must be an object with \"far_flows\" and \"share\"");
      NearShare ns{whole(*near, "backbone.near_share", "far_flows"), number(*near, "backbone.near_share", "share", true)};
      if (ns.far_flows < 1) fail("backbone.near_share.far_flows", "must be at least 1");
      if (ns.share >= 1) fail("backbone.near_share.share", "must be below 1 (a share of the link)");
      bb.near_share = ns;
    }
    if (const auto links = backbone.find("groups_links_bytes_per_s"); links != backbone.end() && !links->is_null()) {
      bb.groups_links_bytes_per_s = number(backbone, "backbone", "groups_links_bytes_per_s", true);
    }
    c.backbone = bb;
  }
  // group_capacities and group_links: one entry per level.
  const auto read_groups = [&](const char* key, const char* why_two, std::vector<GroupCapacityCalibration>& list) {
    read_optional_objects(root, key, [&](const json& entry, const std::string& at) {
      GroupCapacityCalibration g{text(entry, at, "level", true), whole(entry, at, "group"), whole(entry, at, "ranks"),
                                 whole(entry, at, "flows"), number(entry, at, "bytes_per_s", true)};
      if (g.ranks < 2) fail(at + ".ranks", std::string("must be at least 2 (") + why_two + ")");
      for (const GroupCapacityCalibration& earlier : list) {
        if (earlier.level == g.level) fail(at + ".level", "'" + g.level + "' is listed twice");
      }
      list.push_back(std::move(g));
    });
  };
  read_groups("group_capacities", "a group with traffic inside", c.group_capacities);
  read_groups("group_links", "a group whose ranks share its link", c.group_links);
  if (const auto found = root.find("message_envelope"); found != root.end() && !found->is_null()) {
    const std::string at = "message_envelope";
    if (!found->is_object()) fail(at, "must be an object or null");
    EnvelopeCalibration e{text(*found, at, "level", true),    whole(*found, at, "flows"),
                          whole(*found, at, "messages"),      byte_count(*found, at, "bytes"),
                          number(*found, at, "one_us", true), number(*found, at, "many_us", true),
                          std::nullopt};
    if (e.flows < 1) fail(at + ".flows", "must be at least 1");
    if (e.messages < 2) fail(at + ".messages", "must be at least 2 (one message is the reference)");
    if (!member(*found, at, "envelope_bytes").is_null()) e.envelope_bytes = number(*found, at, "envelope_bytes", false);
    c.message_envelope = std::move(e);
  }
  // busy_messages, and the exchange of eager_messages and rendezvous_messages; null: absent.
  const auto busy_exchange = [&](const char* key) -> std::optional<BusyMessagesCalibration> {
    const auto found = root.find(key);
    if (found == root.end() || found->is_null()) return std::nullopt;
    const std::string at = key;
    if (!found->is_object()) fail(at, "must be an object or null");
    BusyMessagesCalibration b{text(*found, at, "level", true), whole(*found, at, "ranks"),
                              byte_count(*found, at, "bytes"), number(*found, at, "exchange_us", true)};
    if (b.ranks < 2) fail(at + ".ranks", "must be at least 2 (ranks that exchange)");
    return b;
  };
  // Its fitted parameter (null: the model stood), which applies up to (or beyond) the eager limit.
  const auto fitted = [&](const char* key, const char* field, bool positive) -> std::optional<double> {
    const std::string at = key;
    if (member(root.at(key), at, field).is_null()) return std::nullopt;
    const double value = number(root.at(key), at, field, positive);
    if (!c.recv_overhead_until_bytes) {
      fail(at + "." + field, "needs recv_overhead_until_bytes (the eager limit it applies to)");
    }
    return value;
  };
  c.busy_messages = busy_exchange("busy_messages");
  if (auto exchange = busy_exchange("eager_messages")) {
    c.eager_messages =
        EagerMessagesCalibration{std::move(*exchange), fitted("eager_messages", "copy_bytes_per_s", true)};
  }
  if (auto exchange = busy_exchange("rendezvous_messages")) {
    c.rendezvous_messages =
        RendezvousMessagesCalibration{std::move(*exchange), fitted("rendezvous_messages", "per_message_us", false)};
  }
  const json& copy = member(root, "", "copy");
  if (!copy.is_object()) fail("copy", "must be an object");
  c.copy.bytes_per_s = number(copy, "copy", "bytes_per_s", true);
  c.copy.source = text(copy, "copy", "source");
  read_optional_objects(root, "validation", [&](const json& point, const std::string& at) {
    ValidationPoint v;
    v.operation = text(point, at, "operation", true);
    v.bytes = byte_count(point, at, "bytes");
    v.algorithm = text(point, at, "algorithm", true);
    if (const json& predicted = member(point, at, "predicted_us"); !predicted.is_null()) {
      v.predicted_us = number(point, at, "predicted_us", false);
    }
    v.measured_us = number(point, at, "measured_us", true);
    c.validation.push_back(std::move(v));
  });
  if (const auto found = root.find("validation_noise"); found != root.end() && !found->is_null()) {
    c.validation_noise = number(root, "", "validation_noise", false);
    if (!(*c.validation_noise < 1.0)) fail("validation_noise", "must be a fraction below 1 (0.05: 5%)");
  }
  if (const auto found = root.find("decisions"); found != root.end() && !found->is_null()) {
    c.decisions = read_decisions(*found);
  }
  return c;
}

}  // namespace

MachineCost Calibration::machine() const {
  constexpr double kPerUs = 1e-6;  // bytes per second -> bytes per microsecond
  MachineCost m;
  const double busy = busy_factor();
  for (const LevelCalibration& level : levels) {
    const double latency_us = &level == &levels.back() ? level.latency_us * busy : level.latency_us;
    m.levels.push_back({level.name, latency_us, level.bandwidth_bytes_per_s * kPerUs});
  }
  m.send_overhead_us = send_overhead_us * busy;
  if (recv_overhead_us) m.recv_overhead_us = *recv_overhead_us * busy;
  m.recv_overhead_until_bytes = recv_overhead_until_bytes;
  if (eager_messages && eager_messages->copy_bytes_per_s) {
    m.eager_copy_bytes_per_us = *eager_messages->copy_bytes_per_s * kPerUs;
  }
  if (rendezvous_messages) m.rendezvous_us = rendezvous_messages->per_message_us;
  m.injection_bytes_per_us = node.injection_bytes_per_s * kPerUs;
  m.ejection_bytes_per_us = node.ejection_bytes_per_s * kPerUs;
  if (backbone) {
    BackboneCost bb;
    bb.level = backbone->level;
    for (const FlowCapacity& point : backbone->one_direction)
      bb.one_direction.push_back({point.flows, point.bytes_per_s * kPerUs});
    // Both directions were measured with as many flows each way as in total / 2.
    if (!bb.one_direction.empty()) {
      const double one_way = bb.capacity_bytes_per_us(backbone->both_directions.flows / 2.0);
      bb.duplex_ratio = backbone->both_directions.bytes_per_s * kPerUs / one_way;
    }
    // share = w / (w + K) for a near flow of weight w beside K flows across of weight 1.
    if (backbone->near_share) {
      const NearShare& ns = *backbone->near_share;
      bb.near_weight = ns.share * ns.far_flows / (1.0 - ns.share);
    }
    if (backbone->groups_links_bytes_per_s) bb.groups_links_bytes_per_us = *backbone->groups_links_bytes_per_s * kPerUs;
    m.backbone = bb;
  }
  for (const GroupCapacityCalibration& g : group_capacities) {
    m.group_capacities.push_back({g.level, g.bytes_per_s * kPerUs});
  }
  for (const GroupCapacityCalibration& g : group_links) m.group_links.push_back({g.level, g.bytes_per_s * kPerUs});
  m.copy_bytes_per_us = copy.bytes_per_s * kPerUs;
  if (message_envelope && message_envelope->envelope_bytes) m.envelope_bytes = *message_envelope->envelope_bytes;
  return m;
}

double Calibration::busy_factor() const {
  if (!busy_messages || levels.empty()) return 1.0;
  // The model prices direct's small exchange among n + 1 ranks as the latency, n posts and n - 1
  // receives completed after the first (hierarchical_cost.cpp); ranks of one innermost group
  // share every group, so their latency is the last level's ("same group").
  const double n = busy_messages->ranks - 1;
  const bool receives_charged = recv_overhead_us &&
                                (!recv_overhead_until_bytes || busy_messages->bytes <= *recv_overhead_until_bytes);
  const double priced_us = levels.back().latency_us + n * send_overhead_us +
                           (receives_charged ? (n - 1) * *recv_overhead_us : 0.0);
  if (!(priced_us > 0) || !(busy_messages->exchange_us > priced_us * (1.0 + kProbeNoise))) return 1.0;
  return busy_messages->exchange_us / priced_us;
}

std::optional<Calibration> parse_calibration(std::string_view text, std::string* error) {
  std::string scratch;
  if (!error) error = &scratch;
  try {
    return read(json::parse(text));
  } catch (const json::exception& e) {  // parse_error, and out_of_range for numbers such as 1e999
    *error = std::string("not valid JSON: ") + e.what();
  } catch (const FieldError& e) {
    *error = e.message;
  }
  return std::nullopt;
}

std::optional<Calibration> load_calibration(const std::string& path, std::string* error) {
  std::string scratch;
  if (!error) error = &scratch;
  std::ifstream file(path);
  if (!file) {
    *error = "calibration file '" + path + "' cannot be read";
    return std::nullopt;
  }
  std::ostringstream contents;
  contents << file.rdbuf();
  auto calibration = parse_calibration(contents.str(), error);
  if (!calibration) *error = "calibration file '" + path + "': " + *error;
  return calibration;
}

std::shared_ptr<const Calibration> load_calibration_once(const std::string& path, std::string* error) {
  struct Parsed {
    std::uintmax_t size = 0;
    std::filesystem::file_time_type modified;
    std::shared_ptr<const Calibration> calibration;
  };
  static std::mutex lock;
  static std::map<std::string, Parsed>* const parsed = new std::map<std::string, Parsed>;  // never destroyed
  std::error_code size_error, time_error;
  const std::uintmax_t size = std::filesystem::file_size(path, size_error);
  const auto modified = std::filesystem::last_write_time(path, time_error);
  const bool known = !size_error && !time_error;
  {
    const std::lock_guard<std::mutex> hold(lock);
    const auto it = parsed->find(path);
    if (known && it != parsed->end() && it->second.size == size && it->second.modified == modified) {
      return it->second.calibration;
    }
  }
  auto loaded = load_calibration(path, error);
  if (!loaded) return nullptr;
  auto calibration = std::make_shared<const Calibration>(std::move(*loaded));
  if (known) {
    const std::lock_guard<std::mutex> hold(lock);
    (*parsed)[path] = Parsed{size, modified, calibration};
  }
  return calibration;
}

std::string calibration_to_json(const Calibration& c) {
  ordered_json root;
  root["format"] = kCalibrationFormat;
  root["platform"] = c.platform;
  root["topology"] = c.topology;
  root["ranks"] = c.ranks;
  root["mpi_library"] = c.mpi_library;
  root["created_by"] = c.created_by;
  root["levels"] = ordered_json::array();
  for (const LevelCalibration& level : c.levels) {
    ordered_json entry;
    entry["name"] = level.name;
    entry["ranks"] = {level.rank_a, level.rank_b};
    entry["latency_us"] = level.latency_us;
    entry["bandwidth_bytes_per_s"] = level.bandwidth_bytes_per_s;
    entry["one_way_us"] = ordered_json::array();
    for (const OneWaySample& s : level.one_way) entry["one_way_us"].push_back({{"bytes", s.bytes}, {"us", s.us}});
    root["levels"].push_back(entry);
  }
  root["send_overhead_us"] = c.send_overhead_us;
  if (c.recv_overhead_us) root["recv_overhead_us"] = *c.recv_overhead_us;
  if (c.recv_overhead_until_bytes) root["recv_overhead_until_bytes"] = *c.recv_overhead_until_bytes;
  root["node"] = {{"flows", c.node.flows},
                  {"injection_bytes_per_s", c.node.injection_bytes_per_s},
                  {"ejection_bytes_per_s", c.node.ejection_bytes_per_s}};
  if (c.backbone) {
    const BackboneCalibration& bb = *c.backbone;
    ordered_json points = ordered_json::array();
    for (const FlowCapacity& point : bb.one_direction) {
      points.push_back({{"flows", point.flows}, {"bytes_per_s", point.bytes_per_s}});
    }
    root["backbone"] = {
        {"level", bb.level},
        {"groups", {bb.group_a, bb.group_b}},
        {"one_direction", points},
        {"both_directions", {{"flows", bb.both_directions.flows}, {"bytes_per_s", bb.both_directions.bytes_per_s}}},
        {"groups_links_bytes_per_s", bb.groups_links_bytes_per_s ? ordered_json(*bb.groups_links_bytes_per_s) : nullptr}};
    if (bb.near_share) {
      root["backbone"]["near_share"] = {{"far_flows", bb.near_share->far_flows}, {"share", bb.near_share->share}};
    }
  } else {
    root["backbone"] = nullptr;
  }
  const auto groups_json = [&](const char* key, const std::vector<GroupCapacityCalibration>& list) {
    if (list.empty()) return;
    ordered_json groups = ordered_json::array();
    for (const GroupCapacityCalibration& g : list) {
      groups.push_back({{"level", g.level},
                        {"group", g.group},
                        {"ranks", g.ranks},
                        {"flows", g.flows},
                        {"bytes_per_s", g.bytes_per_s}});
    }
    root[key] = groups;
  };
  groups_json("group_capacities", c.group_capacities);
  groups_json("group_links", c.group_links);
  const auto exchange_json = [](const BusyMessagesCalibration& b) {
    return ordered_json{{"level", b.level}, {"ranks", b.ranks}, {"bytes", b.bytes}, {"exchange_us", b.exchange_us}};
  };
  const auto or_null = [](const std::optional<double>& value) { return value ? ordered_json(*value) : ordered_json(); };
  if (c.message_envelope) {
    const EnvelopeCalibration& e = *c.message_envelope;
    root["message_envelope"] = {{"level", e.level},
                                {"flows", e.flows},
                                {"messages", e.messages},
                                {"bytes", e.bytes},
                                {"one_us", e.one_us},
                                {"many_us", e.many_us},
                                {"envelope_bytes", or_null(e.envelope_bytes)}};
  }
  if (c.busy_messages) root["busy_messages"] = exchange_json(*c.busy_messages);
  if (c.eager_messages) {
    root["eager_messages"] = exchange_json(c.eager_messages->exchange);
    root["eager_messages"]["copy_bytes_per_s"] = or_null(c.eager_messages->copy_bytes_per_s);
  }
  if (c.rendezvous_messages) {
    root["rendezvous_messages"] = exchange_json(c.rendezvous_messages->exchange);
    root["rendezvous_messages"]["per_message_us"] = or_null(c.rendezvous_messages->per_message_us);
  }
  root["copy"] = {{"bytes_per_s", c.copy.bytes_per_s}, {"source", c.copy.source}};
  if (!c.validation.empty()) {
    ordered_json points = ordered_json::array();
    for (const ValidationPoint& v : c.validation) {
      points.push_back({{"operation", v.operation},
                        {"bytes", v.bytes},
                        {"algorithm", v.algorithm},
                        {"predicted_us", v.predicted_us ? ordered_json(*v.predicted_us) : ordered_json()},
                        {"measured_us", v.measured_us}});
    }
    root["validation"] = points;
  }
  if (c.validation_noise) root["validation_noise"] = *c.validation_noise;
  if (!c.decisions.empty()) root["decisions"] = decisions_to_json(c.decisions);
  return root.dump(2) + "\n";
}

std::optional<double> ValidationPoint::error() const {
  if (!predicted_us || !(measured_us > 0)) return std::nullopt;
  return (*predicted_us - measured_us) / measured_us;
}

std::optional<LatencyBandwidth> fit_one_way(std::vector<OneWaySample> samples, double send_overhead_us) {
  std::sort(samples.begin(), samples.end(), [](const auto& a, const auto& b) { return a.bytes < b.bytes; });
  if (samples.size() < 2) return std::nullopt;
  const OneWaySample& largest = samples[samples.size() - 1];
  const OneWaySample& next = samples[samples.size() - 2];
  if (largest.bytes == next.bytes) return std::nullopt;
  const double slope_us_per_byte = (largest.us - next.us) / static_cast<double>(largest.bytes - next.bytes);
  if (!(slope_us_per_byte > 0) || !std::isfinite(slope_us_per_byte)) return std::nullopt;
  const OneWaySample& smallest = samples.front();
  LatencyBandwidth fit;
  fit.bandwidth_bytes_per_s = 1e6 / slope_us_per_byte;
  fit.latency_us =
      std::max(0.0, smallest.us - static_cast<double>(smallest.bytes) * slope_us_per_byte - send_overhead_us);
  return fit;
}

}  // namespace topocoll
