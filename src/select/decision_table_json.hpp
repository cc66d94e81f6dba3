// The decision table's part of the calibration file: read (errors name the entry and field at
// fault) and written by calibration.cpp's reader and writer. Inside src/select only.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <vector>

#include "select/decision_table.hpp"

namespace topocoll {

// The "decisions" array; throws json_fields::FieldError.
std::vector<Decision> read_decisions(const nlohmann::json& list);
nlohmann::ordered_json decisions_to_json(std::span<const Decision> table);

}  // namespace topocoll
