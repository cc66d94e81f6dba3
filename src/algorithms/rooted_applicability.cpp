#include <string>

#include "algorithms/rooted_algorithms.hpp"

namespace topocoll {

Applicability supports_rooted(const Problem& problem, std::string_view name) {
  if (!is_rooted(problem.operation)) return {false, std::string(name) + " is a scatter and gather algorithm"};
  if (problem.blocks == nullptr) return {false, "a rooted problem needs its layout (the root's blocks)"};
  if (problem.root < 0 || problem.root >= problem.size) {
    return {false, "root " + std::to_string(problem.root) + " is not a rank of " + std::to_string(problem.size)};
  }
  return {};
}

}  // namespace topocoll
