#include "schedule/operation.hpp"

namespace topocoll {

std::string_view to_string(Operation operation) {
  switch (operation) {
    case Operation::alltoall: return "alltoall";
    case Operation::alltoallv: return "alltoallv";
    case Operation::scatter: return "scatter";
    case Operation::gather: return "gather";
    case Operation::scatterv: return "scatterv";
    case Operation::gatherv: return "gatherv";
  }
  return "?";
}

std::optional<Operation> operation_named(std::string_view name) {
  for (Operation op : kOperations) {
    if (to_string(op) == name) return op;
  }
  return std::nullopt;
}

}  // namespace topocoll
