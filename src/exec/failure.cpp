// Messages for failures of MPI calls made by the library itself.
#include "exec/failure.hpp"

namespace topocoll::exec {

Failure mpi_call_failure(const char* call, int code) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  return Failure{code, std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(length))};
}

}  // namespace topocoll::exec
