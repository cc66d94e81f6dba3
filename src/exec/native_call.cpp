#include "exec/native_call.hpp"

namespace topocoll::exec {

int call_native(const CallArguments& a) {
  const SideArguments& s = a.send;
  const SideArguments& r = a.recv;
  void* recvbuf = const_cast<void*>(r.buffer);
  if (a.per_peer_types) {
    return MPI_Alltoallw(s.buffer, s.counts, s.displs, s.types, recvbuf, r.counts, r.displs, r.types, a.comm);
  }
  switch (a.operation) {
    case Operation::alltoall: return MPI_Alltoall(s.buffer, s.count, s.type, recvbuf, r.count, r.type, a.comm);
    case Operation::alltoallv:
      return MPI_Alltoallv(s.buffer, s.counts, s.displs, s.type, recvbuf, r.counts, r.displs, r.type, a.comm);
    case Operation::scatter: return MPI_Scatter(s.buffer, s.count, s.type, recvbuf, r.count, r.type, a.root, a.comm);
    case Operation::gather: return MPI_Gather(s.buffer, s.count, s.type, recvbuf, r.count, r.type, a.root, a.comm);
    case Operation::scatterv:
      return MPI_Scatterv(s.buffer, s.counts, s.displs, s.type, recvbuf, r.count, r.type, a.root, a.comm);
    case Operation::gatherv:
      return MPI_Gatherv(s.buffer, s.count, s.type, recvbuf, r.counts, r.displs, r.type, a.root, a.comm);
  }
  return MPI_ERR_INTERN;
}

const char* native_call_name(const CallArguments& call) {
  if (call.per_peer_types) return "MPI_Alltoallw";
  switch (call.operation) {
    case Operation::alltoall: return "MPI_Alltoall";
    case Operation::alltoallv: return "MPI_Alltoallv";
    case Operation::scatter: return "MPI_Scatter";
    case Operation::gather: return "MPI_Gather";
    case Operation::scatterv: return "MPI_Scatterv";
    case Operation::gatherv: return "MPI_Gatherv";
  }
  return "?";
}

}  // namespace topocoll::exec
