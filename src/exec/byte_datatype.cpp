// make_byte_hindexed: create, commit, hand over.
#include "exec/byte_datatype.hpp"

#include <utility>

namespace topocoll::exec {

MaybeFailure make_byte_hindexed(const std::vector<int>& lengths, const std::vector<MPI_Aint>& displacements,
                                OwnedDatatype& type) {
  MPI_Datatype handle = MPI_DATATYPE_NULL;
  int rc = MPI_Type_create_hindexed(static_cast<int>(lengths.size()), lengths.data(), displacements.data(),
                                    MPI_BYTE, &handle);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Type_create_hindexed", rc);
  OwnedDatatype created(handle);
  rc = MPI_Type_commit(&handle);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Type_commit", rc);
  type = std::move(created);
  return std::nullopt;
}

}  // namespace topocoll::exec
