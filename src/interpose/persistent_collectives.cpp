#include "interpose/persistent_collectives.hpp"

#include "exec/persistent_requests.hpp"
#include "interpose/interposed_call.hpp"

namespace topocoll::interpose {

int make_persistent(const exec::CallArguments& call, const char* entry_point, MPI_Request* request) {
  return exec::make_persistent(
      call.comm, entry_point, [call, entry_point](MPI_Request* started) { return answer_start(call, started, entry_point); },
      request);
}

}  // namespace topocoll::interpose
