// Release of the handles owned by OwnedDatatype and OwnedComm.
#include "exec/mpi_handles.hpp"

namespace topocoll::exec {

bool mpi_is_active() {
  int initialized = 0;
  int finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized != 0 && finalized == 0;
}

bool may_free_handles() {
#ifdef TOPOCOLL_SMPI
  return true;  // the library's handles exist only between MPI_Init and the end of MPI_Finalize
#else
  return mpi_is_active();
#endif
}

void OwnedDatatype::reset() {
  if (handle_ != MPI_DATATYPE_NULL && may_free_handles()) MPI_Type_free(&handle_);
  handle_ = MPI_DATATYPE_NULL;
}

void OwnedComm::reset() {
  if (handle_ != MPI_COMM_NULL && may_free_handles()) MPI_Comm_free(&handle_);
  handle_ = MPI_COMM_NULL;
}

MaybeFailure duplicate_returning_errors(MPI_Comm comm, const char* what, OwnedComm& out) {
  MPI_Comm duplicate = MPI_COMM_NULL;
  const int rc = MPI_Comm_dup(comm, &duplicate);
  if (rc != MPI_SUCCESS) return mpi_call_failure(what, rc);
  OwnedComm owned(duplicate);
  const int set = MPI_Comm_set_errhandler(duplicate, MPI_ERRORS_RETURN);
  if (set != MPI_SUCCESS) return mpi_call_failure("MPI_Comm_set_errhandler", set);
  out = std::move(owned);
  return std::nullopt;
}

}  // namespace topocoll::exec
