// RAII owners for the MPI handles the executor creates (derived datatypes, communicators),
// and the question every release asks first: may MPI still be called? Handles still alive
// when MPI_Finalize tears communicators down are reclaimed by the MPI library itself.
#pragma once

#include <mpi.h>

#include <utility>

#include "exec/failure.hpp"

namespace topocoll::exec {

// True between MPI_Init and the point of MPI_Finalize after which MPI_Finalized says true.
bool mpi_is_active();

// Whether library-created handles can still be freed. Open MPI deletes MPI_COMM_WORLD's
// attributes after MPI_Finalized turns true, when freeing would abort: the handles are then
// left to MPI. SMPI deletes attributes in MPI_Finalize while MPI_Initialized says 0 and
// MPI_Finalized 1, yet still frees handles then (and lists them as leaks otherwise): under
// SMPI they are always freed.
bool may_free_handles();

// Owns a derived datatype (never a predefined one) and frees it with MPI_Type_free.
class OwnedDatatype {
 public:
  OwnedDatatype() = default;
  explicit OwnedDatatype(MPI_Datatype handle) : handle_(handle) {}
  OwnedDatatype(OwnedDatatype&& other) noexcept
      : handle_(std::exchange(other.handle_, MPI_DATATYPE_NULL)) {}
  OwnedDatatype& operator=(OwnedDatatype&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, MPI_DATATYPE_NULL);
    }
    return *this;
  }
  OwnedDatatype(const OwnedDatatype&) = delete;
  OwnedDatatype& operator=(const OwnedDatatype&) = delete;
  ~OwnedDatatype() { reset(); }

  MPI_Datatype get() const { return handle_; }
  void reset();

 private:
  MPI_Datatype handle_ = MPI_DATATYPE_NULL;
};

// Owns a communicator created by the library and frees it with MPI_Comm_free.
class OwnedComm {
 public:
  OwnedComm() = default;
  explicit OwnedComm(MPI_Comm handle) : handle_(handle) {}
  OwnedComm(OwnedComm&& other) noexcept : handle_(std::exchange(other.handle_, MPI_COMM_NULL)) {}
  OwnedComm& operator=(OwnedComm&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, MPI_COMM_NULL);
    }
    return *this;
  }
  OwnedComm(const OwnedComm&) = delete;
  OwnedComm& operator=(const OwnedComm&) = delete;
  ~OwnedComm() { reset(); }

  MPI_Comm get() const { return handle_; }
  void reset();

 private:
  MPI_Comm handle_ = MPI_COMM_NULL;
};

// While one is alive, MPI_COMM_WORLD's error handler is MPI_ERRORS_RETURN; after the last, the
// one it had again. Under MPICH only: MPICH 4.0 raises the error every completion call
// (MPI_Wait, MPI_Waitall, MPI_Waitsome, MPI_Test...) finds in a request on MPI_COMM_WORLD,
// whatever communicator the request belongs to, so a receive that fails (a peer's message
// longer than this rank's arguments make room for, or a stand-in's: stand_in.hpp) would abort
// the program through the world's default handler instead of coming back as topocoll's error.
// Open MPI raises it on the request's communicator, the private duplicate that returns it.
// (Another thread's error on MPI_COMM_WORLD in that time would be returned, not raised.)
class WorldErrorsReturned {
 public:
  WorldErrorsReturned();
  ~WorldErrorsReturned();
  WorldErrorsReturned(const WorldErrorsReturned&) = delete;
  WorldErrorsReturned& operator=(const WorldErrorsReturned&) = delete;
};

// A duplicate of `comm` with MPI_ERRORS_RETURN, so that the library's own failures on it come
// back as codes (collective over `comm`). `what` names it in a failure's message.
MaybeFailure duplicate_returning_errors(MPI_Comm comm, const char* what, OwnedComm& out);

}  // namespace topocoll::exec
