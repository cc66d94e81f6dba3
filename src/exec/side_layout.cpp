#include "exec/side_layout.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace topocoll::exec {

namespace {

// Elements and displacement (in extents) of block q of a side.
struct UserBlock {
  std::size_t elements = 0, displ = 0;
};

UserBlock user_block(const SideArguments& side, SideShape shape, int root, int q) {
  switch (shape) {
    case SideShape::every_peer:
      if (side.counts != nullptr) {
        return {static_cast<std::size_t>(side.counts[q]), static_cast<std::size_t>(side.displs[q])};
      }
      return {static_cast<std::size_t>(side.count), static_cast<std::size_t>(q) * static_cast<std::size_t>(side.count)};
    case SideShape::root_only:
      return q == root ? UserBlock{static_cast<std::size_t>(side.count), 0} : UserBlock{};
    case SideShape::unused:
      break;
  }
  return {};
}

}  // namespace

MaybeFailure layout_side(const SideArguments& side, SideShape shape, int size, int root, const DatatypeLayout& type,
                         bool force_staged, const char* side_name, SideLayout& layout) {
  layout = SideLayout{};
  layout.staged = shape != SideShape::unused && (force_staged || !type.plain_bytes);
  // A per-peer count is named with its index ("receive count 3"); one count for all is not.
  const bool indexed = shape == SideShape::every_peer && side.counts != nullptr;
  const std::string count_name = std::string(side_name) + " count", one_count = "the " + count_name;
  constexpr auto kLargest = static_cast<std::size_t>(std::numeric_limits<MPI_Aint>::max());
  const auto extent = static_cast<std::size_t>(std::max<MPI_Aint>(type.extent, 0));
  for (int q = 0; q < size; ++q) {
    const UserBlock block = user_block(side, shape, root, q);
    std::size_t bytes = 0;
    if (auto failure = checked_bytes(block.elements, type.size, indexed ? count_name.c_str() : one_count.c_str(), bytes,
                                     indexed ? q : -1)) {
      return failure;
    }
    const bool displ_fits = extent == 0 || block.displ <= kLargest / extent;
    const std::size_t offset = layout.staged ? layout.total : (displ_fits ? block.displ * extent : kLargest);
    if (!displ_fits || offset > kLargest || bytes > kLargest - offset) {
      const std::string which = indexed ? "the blocks of " + count_name + "s 0 to " + std::to_string(q)
                                        : "the " + std::string(side_name) + " buffer";
      return Failure{MPI_ERR_COUNT, which + " would reach past the address space"};
    }
    layout.offset.push_back(offset);
    layout.bytes.push_back(bytes);
    layout.elements.push_back(block.elements);
    layout.displs.push_back(block.displ);
    layout.total = layout.staged ? layout.total + bytes : std::max(layout.total, offset + bytes);
  }
  return std::nullopt;
}

}  // namespace topocoll::exec
