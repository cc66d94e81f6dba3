// Recording, printing and raising failures.
#include "exec/error_report.hpp"

#include <cstdio>

#include "exec/comm_state.hpp"
#include "exec/mpi_handles.hpp"

namespace topocoll::exec {

namespace {

void print(const Failure& failure) { std::fprintf(stderr, "topocoll: %s\n", failure.message.c_str()); }

}  // namespace

bool handler_returns(MPI_Comm comm) {
  MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
  if (MPI_Comm_get_errhandler(comm, &handler) != MPI_SUCCESS) return false;
  const bool returns = handler == MPI_ERRORS_RETURN;
  MPI_Errhandler_free(&handler);
  return returns;
}

void record_failure(const Failure& failure) {
  if (!mpi_is_active()) return;
  CommState* self_state = nullptr;
  if (!find_comm_state(MPI_COMM_SELF, self_state)) self_state->errors().record(failure.message);
}

int report_failure(MPI_Comm comm, const Failure& failure) {
  if (!mpi_is_active()) {  // no handler to call, nowhere to keep the message
    print(failure);
    return failure.code;
  }
  record_failure(failure);
  const MPI_Comm target = comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm;
  // MPI_ERRORS_RETURN does nothing but return the code, so it is not called: SimGrid 3.32's
  // MPI_Comm_call_errhandler jumps to a null function for it (every failure under SMPI crashed).
  if (handler_returns(target)) return failure.code;
  print(failure);
  MPI_Comm_call_errhandler(target, failure.code);
  return failure.code;
}

const char* last_error_message() {
  if (!mpi_is_active()) return "";
  CommState* self_state = nullptr;
  if (find_comm_state(MPI_COMM_SELF, self_state)) return "";
  return self_state->errors().last();
}

}  // namespace topocoll::exec
