// The collective operations topocoll schedules, and their names (the --op values of the tools).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace topocoll {

enum class Operation : std::uint8_t { alltoall, alltoallv, scatter, gather, scatterv, gatherv };

inline constexpr Operation kOperations[] = {Operation::alltoall, Operation::alltoallv, Operation::scatter,
                                            Operation::gather,   Operation::scatterv,  Operation::gatherv};

std::string_view to_string(Operation operation);
std::optional<Operation> operation_named(std::string_view name);

// Scatter, gather and their v forms: one rank (the root) sends or receives every block.
constexpr bool is_rooted(Operation op) { return op != Operation::alltoall && op != Operation::alltoallv; }
// The v forms: block sizes and places differ per pair (given by a BlockMap).
constexpr bool is_variable(Operation op) {
  return op == Operation::alltoallv || op == Operation::scatterv || op == Operation::gatherv;
}
// Blocks flow from the root (scatter, scatterv) rather than to it (gather, gatherv).
constexpr bool flows_from_root(Operation op) { return op == Operation::scatter || op == Operation::scatterv; }

}  // namespace topocoll
