// The byte layout of one side of a call (block_view.hpp's SideLayout), from the user's
// arguments for that side.
#pragma once

#include "exec/call.hpp"
#include "exec/failure.hpp"
#include "exec/side_types.hpp"

namespace topocoll::exec {

// Lays out the blocks `shape` gives this rank: one per peer (with the v forms' counts and
// displacements, or `count` elements each, block q at q * count), one from or to `root` (at
// the start of the buffer), or none; block q of `types.layout_of(q)`. Where every block's
// datatype is plain bytes the byte buffer is the user's; any other
// (or `force_staged`) packs the blocks one after another. `side_name` ("send", "receive")
// names the side in messages. MPI_ERR_COUNT when a block or the side reaches past the address
// space.
MaybeFailure layout_side(const SideArguments& side, SideShape shape, int size, int root, const SideTypes& types,
                         bool force_staged, const char* side_name, SideLayout& layout);

}  // namespace topocoll::exec
