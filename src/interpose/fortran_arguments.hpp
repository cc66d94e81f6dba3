// Open MPI's Fortran arguments as C's, for the drop-in's Fortran entry points
// (fortran_entry_points.cpp, fortran_persistent_entry_points.cpp), as Open MPI's own bindings
// convert them: handles by the PMPI_*_f2c calls; Fortran's MPI_IN_PLACE and MPI_BOTTOM are the
// addresses of two variables of libmpi.so (mpi_fortran_in_place_, mpi_fortran_bottom_), which
// become C's MPI_IN_PLACE and MPI_BOTTOM; counts and displacements are MPI_Fint, int in every
// Open MPI built for default Fortran integers.
#pragma once

#include <mpi.h>

#include "exec/call.hpp"

#if defined(OPEN_MPI) && OPEN_MPI

static_assert(sizeof(MPI_Fint) == sizeof(int),
              "Fortran integers of another size than C's int: the count arrays would need converting");

// Defined in libmpi.so; their addresses are Fortran's MPI_IN_PLACE and MPI_BOTTOM.
extern "C" int mpi_fortran_in_place_;
extern "C" int mpi_fortran_bottom_;

namespace topocoll::interpose::fortran {

inline const void* c_buffer(const char* fortran_buffer) {
  if (fortran_buffer == reinterpret_cast<const char*>(&mpi_fortran_in_place_)) return MPI_IN_PLACE;
  if (fortran_buffer == reinterpret_cast<const char*>(&mpi_fortran_bottom_)) return MPI_BOTTOM;
  return fortran_buffer;
}

// One side with one count (alltoall, scatter, gather; the lone side of the v forms' peers).
inline exec::SideArguments side(const char* buffer, const MPI_Fint* count, const MPI_Fint* type) {
  return exec::SideArguments{c_buffer(buffer), *count, nullptr, nullptr, PMPI_Type_f2c(*type)};
}

// One side with a count and a displacement per peer.
inline exec::SideArguments side(const char* buffer, const MPI_Fint* counts, const MPI_Fint* displs,
                                const MPI_Fint* type) {
  return exec::SideArguments{c_buffer(buffer), 0, counts, displs, PMPI_Type_f2c(*type)};
}

inline void set_ierror(MPI_Fint* ierror, int rc) {
  if (ierror != nullptr) *ierror = static_cast<MPI_Fint>(rc);
}

}  // namespace topocoll::interpose::fortran

// The spellings of one Fortran entry point, as aliases of Open MPI's <prefix>_<name>_f (ompi_ for
// MPI_ calls, ompix_ for MPIX_ ones): <lower>, <lower>_, <lower>__ and <UPPER>. A macro because
// symbol names cannot be computed otherwise.
#define TOPOCOLL_FORTRAN_ALIASES(lower, UPPER, target, parameters) \
  void lower parameters __attribute__((alias(target)));            \
  void lower##_ parameters __attribute__((alias(target)));         \
  void lower##__ parameters __attribute__((alias(target)));        \
  void UPPER parameters __attribute__((alias(target)));
#define TOPOCOLL_FORTRAN_SPELLINGS(name, NAME, parameters) \
  TOPOCOLL_FORTRAN_ALIASES(mpi_##name, MPI_##NAME, "ompi_" #name "_f", parameters)
#define TOPOCOLL_FORTRAN_X_SPELLINGS(name, NAME, parameters) \
  TOPOCOLL_FORTRAN_ALIASES(mpix_##name, MPIX_##NAME, "ompix_" #name "_f", parameters)

#endif  // OPEN_MPI
