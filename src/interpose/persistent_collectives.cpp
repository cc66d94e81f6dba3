#include "interpose/persistent_collectives.hpp"

#include <dlfcn.h>

#include <string_view>

#include "exec/held_datatypes.hpp"
#include "exec/persistent_requests.hpp"
#include "interpose/interposed_call.hpp"

namespace topocoll::interpose {

int make_persistent(const exec::CallArguments& call, const char* entry_point, MPI_Request* request) {
  exec::CallArguments held_call = call;
  auto datatypes = exec::hold_for_persistent(held_call);
  return exec::make_persistent(
      call.comm, entry_point,
      [call = held_call, entry_point, datatypes](MPI_Request* started) {
        return answer_start(call, started, entry_point);
      },
      request);
}

bool in_fortran_bindings(const void* code) {
  Dl_info info{};
  if (dladdr(code, &info) == 0 || info.dli_fname == nullptr) return false;
  const std::string_view file = info.dli_fname;
  const std::string_view name = file.substr(file.rfind('/') + 1);
  return name.starts_with("libmpichfort") || name.starts_with("libmpifort");
}

}  // namespace topocoll::interpose
