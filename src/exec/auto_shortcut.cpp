#include "exec/auto_shortcut.hpp"

#include <string_view>

#include "exec/call_checks.hpp"

namespace topocoll::exec {

namespace {

std::string_view or_default(const std::string& value, std::string_view fallback) {
  return value.empty() ? fallback : std::string_view(value);
}

// More shapes than this and the program's sizes vary too much for the list to pay.
constexpr std::size_t kMostShapes = 16;

}  // namespace

std::size_t significant_block_bytes(const CallArguments& a, int rank) {
  if (is_variable(a.operation)) return 0;
  const SideArguments* side = &a.recv;
  if (is_rooted(a.operation) && (rank == a.root) == flows_from_root(a.operation)) side = &a.send;
  if (side->count <= 0 || side->type == MPI_DATATYPE_NULL) return 0;
  int type_size = 0;
  if (MPI_Type_size(side->type, &type_size) != MPI_SUCCESS || type_size < 0) return 0;
  return static_cast<std::size_t>(side->count) * static_cast<std::size_t>(type_size);
}

const HandedOnShape* AutoShortcuts::find(const CallArguments& a, const CollectiveOptions& options,
                                         const EnvironmentDefaults& defaults) const {
  if (shapes_.empty() || is_variable(a.operation)) return nullptr;
  int rank = 0;
  if (MPI_Comm_rank(a.comm, &rank) != MPI_SUCCESS) return nullptr;
  const std::size_t block_bytes = significant_block_bytes(a, rank);
  const int root = is_rooted(a.operation) ? a.root : 0;
  const AlgorithmKnobs knobs = knobs_of(options);
  for (const HandedOnShape& shape : shapes_) {
    if (shape.operation == a.operation && shape.root == root && shape.block_bytes == block_bytes &&
        shape.knobs == knobs &&
        shape.topology_spec == or_default(options.topology, defaults.topology) &&
        shape.calibration_path == or_default(options.calibration, defaults.calibration) &&
        shape.network_path == or_default(options.network, defaults.network)) {
      return &shape;
    }
  }
  return nullptr;
}

void AutoShortcuts::remember(const CheckedCall& call) {
  if (is_variable(call.operation) || shapes_.size() >= kMostShapes) return;
  shapes_.push_back(HandedOnShape{call.operation, call.problem.root, call.block_bytes, call.problem.knobs,
                                  call.topology_spec, call.calibration_path, call.network_path,
                                  call.auto_chosen_by});
}

}  // namespace topocoll::exec
