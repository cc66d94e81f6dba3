#include "exec/stand_in.hpp"

#include <climits>
#include <cstddef>

#include "exec/call_checks.hpp"

namespace topocoll::exec {

namespace {

// Distinct, non-null addresses for the stand-in's buffers, which pass the checks for null and
// for aliased buffers; a hollow run reads and writes neither.
std::byte never_touched[2];

}  // namespace

void make_stand_in(const CallArguments& failed, int rank, int size, StandInCall& out) {
  const std::size_t block = block_bytes_despite_failure(failed, rank);
  // A block too large for an int count of MPI_BYTE is planned as unknown (empty).
  const int count = block <= static_cast<std::size_t>(INT_MAX) ? static_cast<int>(block) : 0;
  out.zeros.assign(static_cast<std::size_t>(size), 0);
  CallArguments& a = out.arguments;
  a = CallArguments{};
  a.operation = failed.operation;
  a.comm = failed.comm;
  a.root = failed.root;
  a.send = SideArguments{&never_touched[0], count, nullptr, nullptr, MPI_BYTE};
  a.recv = SideArguments{&never_touched[1], count, nullptr, nullptr, MPI_BYTE};
  if (is_variable(failed.operation)) {
    for (SideArguments* side : {&a.send, &a.recv}) {
      side->counts = out.zeros.data();
      side->displs = out.zeros.data();
    }
  }
}

}  // namespace topocoll::exec
