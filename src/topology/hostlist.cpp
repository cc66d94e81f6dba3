#include "topology/hostlist.hpp"

#include <charconv>

namespace topocoll {

namespace {

// One name of an expression: literal text and bracket groups in turn, each group the list of
// numbers (already written at their width) it stands for.
struct NamePattern {
  std::vector<std::string> literals;             // literals[i] comes before groups[i]; one more at the end
  std::vector<std::vector<std::string>> groups;  // each non-empty
};

bool all_digits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// `number` written with at least `width` digits (leading zeros).
std::string padded(unsigned long long number, std::size_t width) {
  std::string digits = std::to_string(number);
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  return digits;
}

// The numbers of a bracket's contents ("0-3,12"), or an error message.
std::optional<std::vector<std::string>> bracket_numbers(std::string_view contents, std::string& why) {
  std::vector<std::string> numbers;
  while (true) {
    const auto comma = contents.find(',');
    const std::string_view item = contents.substr(0, comma);
    const auto dash = item.find('-');
    const std::string_view low_text = item.substr(0, dash);
    const std::string_view high_text = dash == std::string_view::npos ? low_text : item.substr(dash + 1);
    // At most 18 digits, so that both bounds fit and the count below cannot overflow.
    if (!all_digits(low_text) || !all_digits(high_text) || low_text.size() > 18 || high_text.size() > 18) {
      why = "'" + std::string(item) + "' is not a number or a range N-M";
      return std::nullopt;
    }
    unsigned long long low = 0, high = 0;
    std::from_chars(low_text.data(), low_text.data() + low_text.size(), low);
    std::from_chars(high_text.data(), high_text.data() + high_text.size(), high);
    if (high < low) {
      why = "the range '" + std::string(item) + "' runs backwards";
      return std::nullopt;
    }
    if (high - low >= kMaxHostlistNames - numbers.size()) {
      why = "more than " + std::to_string(kMaxHostlistNames) + " names";
      return std::nullopt;
    }
    for (unsigned long long n = low; n <= high; ++n) numbers.push_back(padded(n, low_text.size()));
    if (comma == std::string_view::npos) return numbers;
    contents = contents.substr(comma + 1);
  }
}

// Splits one name of the expression into its literals and bracket groups.
std::optional<NamePattern> parse_name(std::string_view name, std::string& why) {
  NamePattern pattern;
  pattern.literals.emplace_back();
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == ']') {
      why = "']' without '['";
      return std::nullopt;
    }
    if (name[i] != '[') {
      pattern.literals.back() += name[i];
      continue;
    }
    const auto close = name.find(']', i + 1);
    const auto nested = name.find('[', i + 1);
    if (close == std::string_view::npos || nested < close) {
      why = "'[' without its ']'";
      return std::nullopt;
    }
    auto numbers = bracket_numbers(name.substr(i + 1, close - i - 1), why);
    if (!numbers) return std::nullopt;
    pattern.groups.push_back(std::move(*numbers));
    pattern.literals.emplace_back();
    i = close;
  }
  return pattern;
}

// Appends the names `pattern` stands for: the first group varies slowest.
void expand_into(const NamePattern& pattern, std::size_t group, const std::string& prefix,
                 std::vector<std::string>& names) {
  const std::string head = prefix + pattern.literals[group];
  if (group == pattern.groups.size()) {
    names.push_back(head);
    return;
  }
  for (const std::string& number : pattern.groups[group]) expand_into(pattern, group + 1, head + number, names);
}

}  // namespace

std::optional<std::vector<std::string>> expand_hostlist(std::string_view expression, std::string* error) {
  std::string why;
  std::vector<std::string> names;
  std::size_t start = 0, depth = 0;
  for (std::size_t i = 0; i <= expression.size() && why.empty(); ++i) {
    const char c = i < expression.size() ? expression[i] : ',';
    if (c == '[') ++depth;
    if (c == ']' && depth > 0) --depth;
    if (c != ',' || (depth > 0 && i < expression.size())) continue;  // a comma inside brackets separates numbers
    const std::string_view name = expression.substr(start, i - start);
    start = i + 1;
    if (name.empty()) {
      why = "an empty name";
      break;
    }
    auto pattern = parse_name(name, why);
    if (!pattern) break;
    // The names this one stands for, counted before any is made.
    const std::size_t room = kMaxHostlistNames - names.size();
    std::size_t count = 1;
    for (const auto& numbers : pattern->groups) {
      count = numbers.size() > room / count ? room + 1 : count * numbers.size();
    }
    if (count > room) {
      why = "more than " + std::to_string(kMaxHostlistNames) + " names";
      break;
    }
    expand_into(*pattern, 0, "", names);
  }
  if (why.empty()) return names;
  if (error) *error = "hostlist '" + std::string(expression) + "': " + why;
  return std::nullopt;
}

}  // namespace topocoll
