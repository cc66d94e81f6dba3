// The datatypes of one side's blocks: one for every block (displacements count its extents), or
// one per peer (MPI_Alltoallw, whose displacements count bytes). What the layout of a side and
// its packing read, whichever form the call has.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "exec/call.hpp"
#include "exec/datatype_layout.hpp"

namespace topocoll::exec {

struct SideTypes {
  MPI_Datatype handle = MPI_DATATYPE_NULL;  // one for every block
  const DatatypeLayout* layout = nullptr;
  const MPI_Datatype* handles = nullptr;  // one per peer (alltoallw), with `layouts`
  const std::vector<DatatypeLayout>* layouts = nullptr;

  bool per_peer() const { return layouts != nullptr; }
  MPI_Datatype handle_of(int q) const { return per_peer() ? handles[q] : handle; }
  const DatatypeLayout& layout_of(int q) const {
    return per_peer() ? (*layouts)[static_cast<std::size_t>(q)] : *layout;
  }
  // Bytes one unit of block q's displacement moves it by.
  MPI_Aint displacement_unit(int q) const { return per_peer() ? 1 : layout_of(q).extent; }
  // Every block is plain bytes: the user's buffer can serve as the byte buffer.
  bool plain_bytes() const {
    if (!per_peer()) return layout->plain_bytes;
    for (const DatatypeLayout& each : *layouts) {
      if (!each.plain_bytes) return false;
    }
    return true;
  }
};

// The types of `side`: `one` for every block, or with `per_peer_types` (alltoallw) the side's
// own array and `per_peer`, their layouts.
inline SideTypes side_types(const SideArguments& side, bool per_peer_types, const DatatypeLayout& one,
                            const std::vector<DatatypeLayout>& per_peer) {
  if (per_peer_types) return SideTypes{MPI_DATATYPE_NULL, nullptr, side.types, &per_peer};
  return SideTypes{side.type, &one, nullptr, nullptr};
}

}  // namespace topocoll::exec
