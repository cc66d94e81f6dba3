// Packing a datatype's elements into contiguous bytes and back (MPI_Pack / MPI_Unpack), in
// pieces whose counts fit an int, checking that the packed form is the raw data.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>

#include "exec/datatype_layout.hpp"
#include "exec/failure.hpp"

namespace topocoll::exec {

std::unique_ptr<std::byte[]> allocate_uninitialised(std::size_t bytes);

// `count` elements of `type` at `elements` -> count * layout.size bytes at `out`.
MaybeFailure pack(const void* elements, std::size_t count, MPI_Datatype type, const DatatypeLayout& layout,
                  std::byte* out, MPI_Comm comm);
// The reverse; writes only the datatype's bytes (holes are left alone).
MaybeFailure unpack(const std::byte* in, std::size_t count, MPI_Datatype type, const DatatypeLayout& layout,
                    void* elements, MPI_Comm comm);

}  // namespace topocoll::exec
