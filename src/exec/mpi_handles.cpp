// Release of the handles owned by OwnedDatatype and OwnedComm, and MPI_COMM_WORLD's handler
// set aside for a while (WorldErrorsReturned).
#include "exec/mpi_handles.hpp"

#include <mutex>

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

#if defined(MPICH) && !defined(TOPOCOLL_SMPI)
namespace {

// Threads in topocoll calls at once share one change: the first sets the world's handler
// aside, the last puts it back.
std::mutex world_handler_mutex;
int world_handler_holders = 0;
MPI_Errhandler world_handler_set_aside = MPI_ERRHANDLER_NULL;

}  // namespace

WorldErrorsReturned::WorldErrorsReturned() {
  const std::lock_guard<std::mutex> lock(world_handler_mutex);
  if (world_handler_holders++ > 0) return;
  if (MPI_Comm_get_errhandler(MPI_COMM_WORLD, &world_handler_set_aside) != MPI_SUCCESS) {
    world_handler_set_aside = MPI_ERRHANDLER_NULL;
    return;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

WorldErrorsReturned::~WorldErrorsReturned() {
  const std::lock_guard<std::mutex> lock(world_handler_mutex);
  if (--world_handler_holders > 0 || world_handler_set_aside == MPI_ERRHANDLER_NULL) return;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, world_handler_set_aside);
  MPI_Errhandler_free(&world_handler_set_aside);  // the reference MPI_Comm_get_errhandler gave
}
#else
WorldErrorsReturned::WorldErrorsReturned() = default;
WorldErrorsReturned::~WorldErrorsReturned() = default;
#endif

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
