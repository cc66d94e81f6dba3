// The C++ API's entry points: each describes its call (which buffer, count, displacements
// and datatype serve as which side) and hands it to the one pipeline (collective.hpp).
#include <memory>
#include <new>
#include <string>

#include "exec/call_descriptions.hpp"
#include "exec/collective.hpp"
#include "exec/error_report.hpp"
#include "exec/held_datatypes.hpp"
#include "exec/mpi_handles.hpp"
#include "exec/native_call.hpp"
#include "exec/nonblocking.hpp"
#include "exec/outstanding.hpp"
#include "exec/persistent_requests.hpp"
#include "topocoll/topocoll.hpp"

namespace topocoll {

namespace {

using exec::alltoallv_call;
using exec::alltoallw_call;
using exec::CallArguments;
using exec::gatherv_call;
using exec::scatterv_call;

// The blocking call (request null) or the nonblocking one.
int run_or_start(const CallArguments& call, const CollectiveOptions& options, MPI_Request* request, bool nonblocking) {
  if (!nonblocking) return exec::run_collective(call, options);
  return exec::start_collective(call, options, request, exec::StartRule::may_wait_for_peers);
}

// One count and datatype per side (alltoall, scatter, gather).
int run_uniform(Operation operation, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const CollectiveOptions& options,
                MPI_Request* request = nullptr, bool nonblocking = false) {
  return run_or_start(
      exec::uniform_call(operation, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm), options,
      request, nonblocking);
}

// The persistent form of `call` (alltoall_init ...; `label` names it): a handle whose every
// start runs the nonblocking call with a copy of `options` (persistent_requests.hpp), or, where
// no progress engine can complete such a handle and the caller accepts the MPI library's answer,
// the library's own persistent call.
int init_persistent(const CallArguments& call, const CollectiveOptions& options, MPI_Info info, MPI_Request* request,
                    const char* label) {
  using exec::Failure;
  try {
    if (!exec::mpi_is_active()) {
      return exec::report_failure(call.comm,
                                  Failure{MPI_ERR_OTHER, std::string(label) + ": called before MPI_Init or after MPI_Finalize"});
    }
    if (request == nullptr) {
      return exec::report_failure(call.comm, Failure{MPI_ERR_REQUEST, std::string(label) + ": request is null"});
    }
    if (call.comm == MPI_COMM_NULL) {
      return exec::report_failure(MPI_COMM_NULL,
                                  Failure{MPI_ERR_COMM, std::string(label) + ": the communicator is MPI_COMM_NULL"});
    }
    if (!exec::progress_from_every_call()) {
      const std::string missing = exec::progress_hook_missing();
      const std::string reason = std::string(label) +
                                 ": no persistent form here: its handle completes only where every MPI call "
                                 "advances topocoll's collectives (Open MPI's progress engine)" +
                                 (missing.empty() ? std::string() : "; " + missing);
      if (options.inapplicable_reason == nullptr) {
        return exec::report_failure(call.comm, Failure{MPI_ERR_UNSUPPORTED_OPERATION, reason});
      }
      *options.inapplicable_reason = reason;
      const int rc = exec::init_native(call, info, request);
      if (rc != MPI_SUCCESS) {
        return exec::report_failure(call.comm, Failure{rc, reason + "; and the MPI library has no persistent form"});
      }
      return rc;
    }
    auto kept = std::make_shared<const CollectiveOptions>(options);
    CallArguments held_call = call;
    auto datatypes = exec::hold_for_persistent(held_call);
    return exec::make_persistent(
        call.comm, label,
        [call = held_call, kept, datatypes](MPI_Request* started) {
          return exec::start_collective(call, *kept, started, exec::StartRule::may_wait_for_peers);
        },
        request);
  } catch (const std::bad_alloc&) {
    return exec::report_failure(call.comm, Failure{MPI_ERR_NO_MEM, std::string(label) + ": out of memory"});
  }
}

}  // namespace

int alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
             MPI_Datatype recvtype, MPI_Comm comm, const CollectiveOptions& options) {
  return run_uniform(Operation::alltoall, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, comm,
                     options);
}

int scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm, const CollectiveOptions& options) {
  return run_uniform(Operation::scatter, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                     options);
}

int gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm, const CollectiveOptions& options) {
  return run_uniform(Operation::gather, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                     options);
}

int alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
              const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
              const CollectiveOptions& options) {
  return exec::run_collective(
      alltoallv_call(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm), options);
}

int alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
              void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
              MPI_Comm comm, const CollectiveOptions& options) {
  return exec::run_collective(
      alltoallw_call(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm), options);
}

int scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const CollectiveOptions& options) {
  return exec::run_collective(
      scatterv_call(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm), options);
}

int gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
            const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, const CollectiveOptions& options) {
  return exec::run_collective(
      gatherv_call(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm), options);
}

// ---- nonblocking ----

int ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request, const CollectiveOptions& options) {
  return run_uniform(Operation::alltoall, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, comm,
                     options, request, true);
}

int iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
             MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request, const CollectiveOptions& options) {
  return run_uniform(Operation::scatter, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                     options, request, true);
}

int igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request, const CollectiveOptions& options) {
  return run_uniform(Operation::gather, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                     options, request, true);
}

int ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
               const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
               MPI_Request* request, const CollectiveOptions& options) {
  return run_or_start(
      alltoallv_call(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm), options,
      request, true);
}

int ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
               void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
               MPI_Comm comm, MPI_Request* request, const CollectiveOptions& options) {
  return run_or_start(
      alltoallw_call(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm), options,
      request, true);
}

int iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
              int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request,
              const CollectiveOptions& options) {
  return run_or_start(scatterv_call(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm),
                      options, request, true);
}

int igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
             const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request,
             const CollectiveOptions& options) {
  return run_or_start(gatherv_call(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm),
                      options, request, true);
}

// ---- persistent ----

int alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request,
                  const CollectiveOptions& options) {
  return init_persistent(
      exec::uniform_call(Operation::alltoall, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, comm),
      options, info, request, "alltoall_init");
}

int alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                   MPI_Info info, MPI_Request* request, const CollectiveOptions& options) {
  return init_persistent(
      alltoallv_call(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm), options,
      info, request, "alltoallv_init");
}

int alltoallw_init(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm, MPI_Info info, MPI_Request* request, const CollectiveOptions& options) {
  return init_persistent(
      alltoallw_call(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm), options,
      info, request, "alltoallw_init");
}

int scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request,
                 const CollectiveOptions& options) {
  return init_persistent(
      exec::uniform_call(Operation::scatter, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm),
      options, info, request, "scatter_init");
}

int gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request,
                const CollectiveOptions& options) {
  return init_persistent(
      exec::uniform_call(Operation::gather, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm),
      options, info, request, "gather_init");
}

int scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                  MPI_Request* request, const CollectiveOptions& options) {
  return init_persistent(
      scatterv_call(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm), options, info,
      request, "scatterv_init");
}

int gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                 MPI_Request* request, const CollectiveOptions& options) {
  return init_persistent(
      gatherv_call(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm), options, info,
      request, "gatherv_init");
}

int start(MPI_Request* request) { return exec::start_persistent(request); }
int startall(int count, MPI_Request requests[]) { return exec::start_all_persistent(count, requests); }
int request_free(MPI_Request* request) { return exec::free_persistent(request); }

}  // namespace topocoll
