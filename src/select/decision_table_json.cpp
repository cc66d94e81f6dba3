// Reading and writing the decision table's JSON (decision_table_json.hpp).
#include "select/decision_table_json.hpp"

#include <string>

#include "algorithms/registry.hpp"
#include "select/json_fields.hpp"

namespace topocoll {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;
using namespace json_fields;

std::vector<DecisionEvidence> read_evidence(const json& entry, const std::string& where) {
  std::vector<DecisionEvidence> evidence;
  const auto found = entry.find("measured");
  if (found == entry.end()) return evidence;
  const std::string list = where + ".measured";
  if (!found->is_array()) fail(list, "must be an array of {\"bytes\", \"us\", \"native_us\"} objects");
  for (std::size_t i = 0; i < found->size(); ++i) {
    const std::string at = list + "[" + std::to_string(i) + "]";
    const json& point = (*found)[i];
    if (!point.is_object()) fail(at, "must be an object");
    DecisionEvidence e{byte_count(point, at, "bytes"), number(point, at, "us", false), std::nullopt};
    if (const auto native = point.find("native_us"); native != point.end() && !native->is_null()) {
      e.native_us = number(point, at, "native_us", false);
    }
    evidence.push_back(e);
  }
  return evidence;
}

Decision read_decision(const json& entry, const std::string& where) {
  if (!entry.is_object()) fail(where, "must be an object");
  Decision d;
  const std::string operation = text(entry, where, "operation", true);
  const auto op = operation_named(operation);
  if (!op) fail(where + ".operation", "'" + operation + "' is not an operation (alltoall, alltoallv, scatter, gather, scatterv, gatherv)");
  d.operation = *op;
  d.ranks = whole(entry, where, "ranks");
  if (d.ranks < 1) fail(where + ".ranks", "must be at least 1");
  d.shape = text(entry, where, "shape", true);
  d.from_bytes = byte_count(entry, where, "from_bytes");
  d.to_bytes = byte_count(entry, where, "to_bytes");
  if (d.to_bytes < d.from_bytes) fail(where + ".to_bytes", "must be at least from_bytes (both are included)");
  d.algorithm = text(entry, where, "algorithm", true);
  if (d.algorithm != kModelDecision && find_algorithm(d.operation, d.algorithm) == nullptr) {
    fail(where + ".algorithm", "'" + d.algorithm + "' is not a " + operation + " algorithm; valid names: " +
                                   algorithm_names(d.operation) + ", or auto (the cost model)");
  }
  d.measured = read_evidence(entry, where);
  return d;
}

}  // namespace

std::vector<Decision> read_decisions(const json& list) {
  if (!list.is_array()) fail("decisions", "must be an array");
  std::vector<Decision> table;
  for (std::size_t i = 0; i < list.size(); ++i) table.push_back(read_decision(list[i], "decisions[" + std::to_string(i) + "]"));
  if (const auto overlap = find_overlap(table)) fail("decisions", *overlap);
  return table;
}

ordered_json decisions_to_json(std::span<const Decision> table) {
  ordered_json list = ordered_json::array();
  for (const Decision& d : table) {
    ordered_json entry{{"operation", std::string(to_string(d.operation))},
                       {"ranks", d.ranks},
                       {"shape", d.shape},
                       {"from_bytes", d.from_bytes},
                       {"to_bytes", d.to_bytes},
                       {"algorithm", d.algorithm}};
    if (!d.measured.empty()) {
      ordered_json points = ordered_json::array();
      for (const DecisionEvidence& e : d.measured) {
        points.push_back({{"bytes", e.bytes}, {"us", e.us}, {"native_us", e.native_us ? ordered_json(*e.native_us) : ordered_json()}});
      }
      entry["measured"] = points;
    }
    list.push_back(entry);
  }
  return list;
}

}  // namespace topocoll
