// Reading the calibration file's JSON fields with errors that name the field at fault
// ("levels[1].bandwidth_bytes_per_s must be a positive number"). Shared by the calibration's
// reader and its decision table's, inside src/select only. A reader throws FieldError; the
// entry point (parse_calibration) turns it into its error message.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

namespace topocoll::json_fields {

using nlohmann::json;

struct FieldError {
  std::string message;
};

[[noreturn]] void fail(const std::string& where, const std::string& what);

// "where.key", or "key" at the top level (where is empty).
std::string path(const std::string& where, const char* key);

const json& member(const json& object, const std::string& where, const char* key);
// A finite number, 0 or more (positive: above 0).
double number(const json& object, const std::string& where, const char* key, bool positive);
// A whole number from 0 to 2^30.
int whole(const json& object, const std::string& where, const char* key);
// A whole number of bytes from 0 to 2^53 (what a double holds exactly: tools may write it as one).
std::size_t byte_count(const json& object, const std::string& where, const char* key);
// A string; required: present and not empty.
std::string text(const json& object, const std::string& where, const char* key, bool required = false);
std::pair<int, int> two_whole(const json& object, const std::string& where, const char* key);

}  // namespace topocoll::json_fields
