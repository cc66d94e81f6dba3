// What the executor needs to know about a user datatype: that it is usable (not null,
// committed), its size and extents, and whether elements of it are plain bytes in type-map
// order (then the user's buffer is used as is, zero copies; otherwise it is packed).
#pragma once

#include <mpi.h>

#include <cstddef>

#include "exec/failure.hpp"

namespace topocoll::exec {

struct DatatypeLayout {
  std::size_t size = 0;  // bytes of data in one element
  MPI_Aint lb = 0;
  MPI_Aint extent = 0;
  MPI_Aint true_lb = 0;
  MPI_Aint true_extent = 0;
  // `n` elements are the n*size bytes at the buffer's start, in type-map order: predefined
  // types without padding, and contiguous or duplicated types of such.
  bool plain_bytes = false;
};

// MPI_ERR_TYPE when `type` is MPI_DATATYPE_NULL or not committed; `role` ("send type",
// "receive type") names it in the message. Local: no communication.
MaybeFailure describe_datatype(MPI_Datatype type, const char* role, DatatypeLayout& layout);

}  // namespace topocoll::exec
