#include "exec/side_layout.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace topocoll::exec {

namespace {

// Elements and displacement (in extents, negative where MPI allows it) of block q of a side.
struct UserBlock {
  std::size_t elements = 0;
  std::ptrdiff_t displ = 0;
};

UserBlock user_block(const SideArguments& side, SideShape shape, int root, int q) {
  switch (shape) {
    case SideShape::every_peer: {
      if (side.per_peer_counts()) return {static_cast<std::size_t>(side.count_at(q)), side.displ_at(q)};
      // Block q at q * count elements; a large count's product past the address space stays there
      // (the layout then reports it) rather than wrapping around.
      std::ptrdiff_t displ = 0;
      if (__builtin_mul_overflow(static_cast<std::ptrdiff_t>(q), side.count, &displ)) {
        displ = std::numeric_limits<std::ptrdiff_t>::max();
      }
      return {static_cast<std::size_t>(side.count), displ};
    }
    case SideShape::root_only:
      return q == root ? UserBlock{static_cast<std::size_t>(side.count), 0} : UserBlock{};
    case SideShape::unused:
      break;
  }
  return {};
}

// Every peer's block alike (one count, one datatype: alltoall, and scatter's and gather's root
// side): block q lies q steps from the first, so once the farthest block is known to fit, the
// layout is filled without the general loop's checks per block (at p ranks they were most of
// topocoll's own cost per call). False where a count or a place would not fit: the general loop
// then finds it and names it.
bool lay_out_alike(const SideArguments& side, int size, const SideTypes& types, SideLayout& layout) {
  if (side.count < 0 || types.per_peer()) return false;
  const auto elements = static_cast<std::size_t>(side.count);
  const std::size_t type_size = elements == 0 ? 0 : types.layout->size;
  if (!bytes_fit(elements, type_size)) return false;
  const std::size_t bytes = elements * type_size;
  const auto last = static_cast<std::ptrdiff_t>(size - 1);
  std::ptrdiff_t last_displ = 0;  // in elements, as the general loop records it
  if (__builtin_mul_overflow(last, static_cast<std::ptrdiff_t>(side.count), &last_displ)) return false;
  // Bytes from one block to the next: packed one after another, or count extents apart.
  std::ptrdiff_t step = static_cast<std::ptrdiff_t>(bytes);
  if (!layout.staged && elements > 0) {
    const MPI_Aint unit = std::max<MPI_Aint>(types.layout->extent, 0);
    if (__builtin_mul_overflow(static_cast<std::ptrdiff_t>(side.count), unit, &step)) return false;
  }
  std::ptrdiff_t last_offset = 0, end = 0;
  if (__builtin_mul_overflow(last, step, &last_offset) ||
      __builtin_add_overflow(last_offset, static_cast<std::ptrdiff_t>(bytes), &end)) {
    return false;
  }
  if (bytes == 0) step = 0;  // blocks of no bytes are placed at the start, as in the general loop
  const auto blocks = static_cast<std::size_t>(size);
  layout.offset.resize(blocks);
  layout.bytes.assign(blocks, bytes);
  layout.elements.assign(blocks, elements);
  layout.displs.resize(blocks);
  for (std::size_t q = 0; q < blocks; ++q) {
    layout.offset[q] = q * static_cast<std::size_t>(step);
    layout.displs[q] = static_cast<std::ptrdiff_t>(q) * side.count;
  }
  layout.total = bytes > 0 ? static_cast<std::size_t>(end) : 0;  // (base stays 0, as clear() left it)
  return true;
}

}  // namespace

MaybeFailure layout_side(const SideArguments& side, SideShape shape, int size, int root, const SideTypes& types,
                         bool force_staged, const char* side_name, SideLayout& layout) {
  layout.clear();  // (its vectors' memory is kept: reused.hpp)
  layout.staged = shape != SideShape::unused && (force_staged || !types.plain_bytes());
  if (shape == SideShape::every_peer && !side.per_peer_counts() && lay_out_alike(side, size, types, layout)) {
    return std::nullopt;
  }
  // A per-peer count is named with its index ("receive count 3"); one count for all is not.
  // (The names are built only for a failure's message: every call would pay for them.)
  const bool indexed = shape == SideShape::every_peer && side.per_peer_counts();
  constexpr auto kLargest = std::numeric_limits<MPI_Aint>::max();
  const auto count_name = [&] { return std::string(side_name) + " count"; };
  const auto past_the_address_space = [&](int q) {
    const std::string which = indexed ? "the blocks of " + count_name() + "s 0 to " + std::to_string(q)
                                      : "the " + std::string(side_name) + " buffer";
    return Failure{MPI_ERR_COUNT, which + " would reach past the address space"};
  };
  // Each block's start in bytes from the buffer argument (unstaged), or in the packed copy, kept
  // in layout.offset (as the two's complement of a negative start) until the base is known:
  // no vector of its own per call. Each vector is allocated once.
  const auto blocks = static_cast<std::size_t>(size);
  layout.offset.reserve(blocks);
  layout.bytes.reserve(blocks);
  layout.elements.reserve(blocks);
  layout.displs.reserve(blocks);
  MPI_Aint lowest = 0;
  for (int q = 0; q < size; ++q) {
    const UserBlock block = user_block(side, shape, root, q);
    // (A block of no elements reads no type: the side's may be unset where it is not used.)
    const std::size_t type_size = block.elements == 0 ? 0 : types.layout_of(q).size;
    std::size_t bytes = 0;
    if (!bytes_fit(block.elements, type_size)) {
      const std::string role = indexed ? count_name() : "the " + count_name();
      return checked_bytes(block.elements, type_size, role.c_str(), bytes, indexed ? q : -1);
    }
    bytes = block.elements * type_size;
    const auto length = static_cast<MPI_Aint>(bytes);  // within MPI_Aint, by the check above
    MPI_Aint at = 0;
    if (layout.staged) {
      at = static_cast<MPI_Aint>(layout.total);
      if (length > kLargest - at) return past_the_address_space(q);
      layout.total += bytes;
    } else {
      const MPI_Aint unit = block.elements == 0 ? 0 : std::max<MPI_Aint>(types.displacement_unit(q), 0);
      const MPI_Aint magnitude = block.displ < 0 ? -static_cast<MPI_Aint>(block.displ) : block.displ;
      if (unit > 0 && magnitude > kLargest / unit) return past_the_address_space(q);
      at = block.displ * unit;
      if (at > 0 && length > kLargest - at) return past_the_address_space(q);
      if (bytes > 0) lowest = std::min(lowest, at);
    }
    layout.offset.push_back(static_cast<std::size_t>(at));
    layout.bytes.push_back(bytes);
    layout.elements.push_back(block.elements);
    layout.displs.push_back(block.displ);
  }
  // The byte buffer of an unstaged side starts at its lowest block (or the buffer argument).
  layout.base = layout.staged ? 0 : lowest;
  if (layout.staged) return std::nullopt;  // packed: one after another, as laid out
  for (int q = 0; q < size; ++q) {
    const auto b = static_cast<std::size_t>(q);
    const auto length = static_cast<MPI_Aint>(layout.bytes[b]);
    std::size_t& offset = layout.offset[b];
    if (length == 0) {  // never moved: placed at the start
      offset = 0;
      continue;
    }
    const auto start = static_cast<MPI_Aint>(offset);
    // start - base <= kLargest - length, without overflow (base <= 0 <= length).
    if (start > kLargest - length + layout.base) return past_the_address_space(q);
    offset = static_cast<std::size_t>(start - layout.base);
    layout.total = std::max(layout.total, offset + layout.bytes[b]);
  }
  return std::nullopt;
}

}  // namespace topocoll::exec
