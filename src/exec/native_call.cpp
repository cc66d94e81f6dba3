#include "exec/native_call.hpp"

namespace topocoll::exec {

namespace {

// MPI_Alltoall_c ...: MPI-4's large-count forms, where the MPI library has them (MPICH 4; not
// Open MPI 4.1, nor SMPI 3.32, whose programs cannot make such a call).
int call_native_large(const CallArguments& a) {
#if MPI_VERSION >= 4
  const SideArguments& s = a.send;
  const SideArguments& r = a.recv;
  void* recvbuf = const_cast<void*>(r.buffer);
  if (a.per_peer_types) {
    return MPI_Alltoallw_c(s.buffer, s.large_counts, s.large_displs, s.types, recvbuf, r.large_counts, r.large_displs,
                           r.types, a.comm);
  }
  switch (a.operation) {
    case Operation::alltoall: return MPI_Alltoall_c(s.buffer, s.count, s.type, recvbuf, r.count, r.type, a.comm);
    case Operation::alltoallv:
      return MPI_Alltoallv_c(s.buffer, s.large_counts, s.large_displs, s.type, recvbuf, r.large_counts, r.large_displs,
                             r.type, a.comm);
    case Operation::scatter:
      return MPI_Scatter_c(s.buffer, s.count, s.type, recvbuf, r.count, r.type, a.root, a.comm);
    case Operation::gather: return MPI_Gather_c(s.buffer, s.count, s.type, recvbuf, r.count, r.type, a.root, a.comm);
    case Operation::scatterv:
      return MPI_Scatterv_c(s.buffer, s.large_counts, s.large_displs, s.type, recvbuf, r.count, r.type, a.root, a.comm);
    case Operation::gatherv:
      return MPI_Gatherv_c(s.buffer, s.count, s.type, recvbuf, r.large_counts, r.large_displs, r.type, a.root, a.comm);
  }
  return MPI_ERR_INTERN;
#else
  (void)a;
  return MPI_ERR_UNSUPPORTED_OPERATION;
#endif
}

// MPI_Ialltoall_c ...: MPI-4's large-count nonblocking forms, where the MPI library has them.
int start_native_large(const CallArguments& a, MPI_Request* request) {
#if MPI_VERSION >= 4
  const SideArguments& s = a.send;
  const SideArguments& r = a.recv;
  void* recvbuf = const_cast<void*>(r.buffer);
  if (a.per_peer_types) {
    return MPI_Ialltoallw_c(s.buffer, s.large_counts, s.large_displs, s.types, recvbuf, r.large_counts,
                            r.large_displs, r.types, a.comm, request);
  }
  switch (a.operation) {
    case Operation::alltoall:
      return MPI_Ialltoall_c(s.buffer, s.count, s.type, recvbuf, r.count, r.type, a.comm, request);
    case Operation::alltoallv:
      return MPI_Ialltoallv_c(s.buffer, s.large_counts, s.large_displs, s.type, recvbuf, r.large_counts,
                              r.large_displs, r.type, a.comm, request);
    case Operation::scatter:
      return MPI_Iscatter_c(s.buffer, s.count, s.type, recvbuf, r.count, r.type, a.root, a.comm, request);
    case Operation::gather:
      return MPI_Igather_c(s.buffer, s.count, s.type, recvbuf, r.count, r.type, a.root, a.comm, request);
    case Operation::scatterv:
      return MPI_Iscatterv_c(s.buffer, s.large_counts, s.large_displs, s.type, recvbuf, r.count, r.type, a.root,
                             a.comm, request);
    case Operation::gatherv:
      return MPI_Igatherv_c(s.buffer, s.count, s.type, recvbuf, r.large_counts, r.large_displs, r.type, a.root,
                            a.comm, request);
  }
  return MPI_ERR_INTERN;
#else
  (void)a;
  (void)request;
  return MPI_ERR_UNSUPPORTED_OPERATION;
#endif
}

}  // namespace

int call_native(const CallArguments& a) {
  if (a.large_counts) return call_native_large(a);
  const SideArguments& s = a.send;
  const SideArguments& r = a.recv;
  void* recvbuf = const_cast<void*>(r.buffer);
  // The int forms' counts came in as ints.
  const int sendcount = static_cast<int>(s.count), recvcount = static_cast<int>(r.count);
  if (a.per_peer_types) {
    return MPI_Alltoallw(s.buffer, s.counts, s.displs, s.types, recvbuf, r.counts, r.displs, r.types, a.comm);
  }
  switch (a.operation) {
    case Operation::alltoall: return MPI_Alltoall(s.buffer, sendcount, s.type, recvbuf, recvcount, r.type, a.comm);
    case Operation::alltoallv:
      return MPI_Alltoallv(s.buffer, s.counts, s.displs, s.type, recvbuf, r.counts, r.displs, r.type, a.comm);
    case Operation::scatter:
      return MPI_Scatter(s.buffer, sendcount, s.type, recvbuf, recvcount, r.type, a.root, a.comm);
    case Operation::gather: return MPI_Gather(s.buffer, sendcount, s.type, recvbuf, recvcount, r.type, a.root, a.comm);
    case Operation::scatterv:
      return MPI_Scatterv(s.buffer, s.counts, s.displs, s.type, recvbuf, recvcount, r.type, a.root, a.comm);
    case Operation::gatherv:
      return MPI_Gatherv(s.buffer, sendcount, s.type, recvbuf, r.counts, r.displs, r.type, a.root, a.comm);
  }
  return MPI_ERR_INTERN;
}

int start_native(const CallArguments& a, MPI_Request* request) {
  if (a.large_counts) return start_native_large(a, request);
  const SideArguments& s = a.send;
  const SideArguments& r = a.recv;
  void* recvbuf = const_cast<void*>(r.buffer);
  const int sendcount = static_cast<int>(s.count), recvcount = static_cast<int>(r.count);
  if (a.per_peer_types) {
    return MPI_Ialltoallw(s.buffer, s.counts, s.displs, s.types, recvbuf, r.counts, r.displs, r.types, a.comm,
                          request);
  }
  switch (a.operation) {
    case Operation::alltoall:
      return MPI_Ialltoall(s.buffer, sendcount, s.type, recvbuf, recvcount, r.type, a.comm, request);
    case Operation::alltoallv:
      return MPI_Ialltoallv(s.buffer, s.counts, s.displs, s.type, recvbuf, r.counts, r.displs, r.type, a.comm,
                            request);
    case Operation::scatter:
      return MPI_Iscatter(s.buffer, sendcount, s.type, recvbuf, recvcount, r.type, a.root, a.comm, request);
    case Operation::gather:
      return MPI_Igather(s.buffer, sendcount, s.type, recvbuf, recvcount, r.type, a.root, a.comm, request);
    case Operation::scatterv:
      return MPI_Iscatterv(s.buffer, s.counts, s.displs, s.type, recvbuf, recvcount, r.type, a.root, a.comm,
                           request);
    case Operation::gatherv:
      return MPI_Igatherv(s.buffer, sendcount, s.type, recvbuf, r.counts, r.displs, r.type, a.root, a.comm,
                          request);
  }
  return MPI_ERR_INTERN;
}

const char* native_start_name(const CallArguments& call) {
  const bool c = call.large_counts;
  if (call.per_peer_types) return c ? "MPI_Ialltoallw_c" : "MPI_Ialltoallw";
  switch (call.operation) {
    case Operation::alltoall: return c ? "MPI_Ialltoall_c" : "MPI_Ialltoall";
    case Operation::alltoallv: return c ? "MPI_Ialltoallv_c" : "MPI_Ialltoallv";
    case Operation::scatter: return c ? "MPI_Iscatter_c" : "MPI_Iscatter";
    case Operation::gather: return c ? "MPI_Igather_c" : "MPI_Igather";
    case Operation::scatterv: return c ? "MPI_Iscatterv_c" : "MPI_Iscatterv";
    case Operation::gatherv: return c ? "MPI_Igatherv_c" : "MPI_Igatherv";
  }
  return "?";
}

int init_native(const CallArguments& a, MPI_Info info, MPI_Request* request) {
#if MPI_VERSION >= 4
  if (a.large_counts) return MPI_ERR_UNSUPPORTED_OPERATION;  // the API has no large-count persistent form
  const SideArguments& s = a.send;
  const SideArguments& r = a.recv;
  void* recvbuf = const_cast<void*>(r.buffer);
  const int sendcount = static_cast<int>(s.count), recvcount = static_cast<int>(r.count);
  if (a.per_peer_types) {
    return MPI_Alltoallw_init(s.buffer, s.counts, s.displs, s.types, recvbuf, r.counts, r.displs, r.types, a.comm,
                              info, request);
  }
  switch (a.operation) {
    case Operation::alltoall:
      return MPI_Alltoall_init(s.buffer, sendcount, s.type, recvbuf, recvcount, r.type, a.comm, info, request);
    case Operation::alltoallv:
      return MPI_Alltoallv_init(s.buffer, s.counts, s.displs, s.type, recvbuf, r.counts, r.displs, r.type, a.comm,
                                info, request);
    case Operation::scatter:
      return MPI_Scatter_init(s.buffer, sendcount, s.type, recvbuf, recvcount, r.type, a.root, a.comm, info,
                              request);
    case Operation::gather:
      return MPI_Gather_init(s.buffer, sendcount, s.type, recvbuf, recvcount, r.type, a.root, a.comm, info, request);
    case Operation::scatterv:
      return MPI_Scatterv_init(s.buffer, s.counts, s.displs, s.type, recvbuf, recvcount, r.type, a.root, a.comm, info,
                               request);
    case Operation::gatherv:
      return MPI_Gatherv_init(s.buffer, sendcount, s.type, recvbuf, r.counts, r.displs, r.type, a.root, a.comm, info,
                              request);
  }
  return MPI_ERR_INTERN;
#else
  (void)a;
  (void)info;
  (void)request;
  return MPI_ERR_UNSUPPORTED_OPERATION;
#endif
}

const char* native_call_name(const CallArguments& call) {
  const bool c = call.large_counts;
  if (call.per_peer_types) return c ? "MPI_Alltoallw_c" : "MPI_Alltoallw";
  switch (call.operation) {
    case Operation::alltoall: return c ? "MPI_Alltoall_c" : "MPI_Alltoall";
    case Operation::alltoallv: return c ? "MPI_Alltoallv_c" : "MPI_Alltoallv";
    case Operation::scatter: return c ? "MPI_Scatter_c" : "MPI_Scatter";
    case Operation::gather: return c ? "MPI_Gather_c" : "MPI_Gather";
    case Operation::scatterv: return c ? "MPI_Scatterv_c" : "MPI_Scatterv";
    case Operation::gatherv: return c ? "MPI_Gatherv_c" : "MPI_Gatherv";
  }
  return "?";
}

}  // namespace topocoll::exec
