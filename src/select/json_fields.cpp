// The calibration file's field readers (json_fields.hpp).
#include "select/json_fields.hpp"

#include <cmath>
#include <cstdint>

namespace topocoll::json_fields {

void fail(const std::string& where, const std::string& what) { throw FieldError{where + " " + what}; }

std::string path(const std::string& where, const char* key) { return where.empty() ? key : where + "." + key; }

const json& member(const json& object, const std::string& where, const char* key) {
  const auto it = object.find(key);
  if (it == object.end()) fail(path(where, key), "is missing");
  return *it;
}

double number(const json& object, const std::string& where, const char* key, bool positive) {
  const json& value = member(object, where, key);
  if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0 ||
      (positive && value.get<double>() == 0)) {
    fail(path(where, key), positive ? "must be a positive number" : "must be a number, 0 or more");
  }
  return value.get<double>();
}

int whole(const json& object, const std::string& where, const char* key) {
  const json& value = member(object, where, key);
  if (!value.is_number_integer() || value.get<long long>() < 0 || value.get<long long>() > 1 << 30) {
    fail(path(where, key), "must be a whole number, 0 or more");
  }
  return value.get<int>();
}

std::size_t byte_count(const json& object, const std::string& where, const char* key) {
  constexpr std::uint64_t kLargest = std::uint64_t{1} << 53;
  const json& value = member(object, where, key);
  // Unsigned integers are read as such; a negative one is a signed integer.
  if (!value.is_number_unsigned() || value.get<std::uint64_t>() > kLargest) {
    fail(path(where, key), "must be a whole number of bytes, 0 or more");
  }
  return static_cast<std::size_t>(value.get<std::uint64_t>());
}

std::string text(const json& object, const std::string& where, const char* key, bool required) {
  const auto it = object.find(key);
  if (it == object.end()) {
    if (required) fail(path(where, key), "is missing");
    return {};
  }
  if (!it->is_string() || (required && it->get<std::string>().empty())) {
    fail(path(where, key), required ? "must be a non-empty string" : "must be a string");
  }
  return it->get<std::string>();
}

std::pair<int, int> two_whole(const json& object, const std::string& where, const char* key) {
  const json& value = member(object, where, key);
  if (!value.is_array() || value.size() != 2 || !value[0].is_number_integer() || !value[1].is_number_integer()) {
    fail(path(where, key), "must be an array of two whole numbers");
  }
  return {value[0].get<int>(), value[1].get<int>()};
}

}  // namespace topocoll::json_fields
