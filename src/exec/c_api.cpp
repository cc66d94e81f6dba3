// The C API: thin wrappers over the C++ one that never let an exception cross into C.
#include <new>
#include <string>

#include "exec/error_report.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace {

// Runs `call` with the named algorithm (NULL: the operation's default).
template <typename Call>
int with_algorithm(const char* algorithm, MPI_Comm comm, const char* operation, Call&& call) {
  try {
    topocoll::CollectiveOptions options;
    if (algorithm != nullptr) options.algorithm = algorithm;
    return call(options);
  } catch (const std::bad_alloc&) {
    return topocoll::exec::report_failure(comm, {MPI_ERR_NO_MEM, std::string(operation) + ": out of memory"});
  }
}

}  // namespace

extern "C" int topocoll_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const char* algorithm) {
  return with_algorithm(algorithm, comm, "alltoall", [&](const topocoll::CollectiveOptions& options) {
    return topocoll::alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, options);
  });
}

extern "C" int topocoll_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                  MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                                  MPI_Datatype recvtype, MPI_Comm comm, const char* algorithm) {
  return with_algorithm(algorithm, comm, "alltoallv", [&](const topocoll::CollectiveOptions& options) {
    return topocoll::alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
                               options);
  });
}

extern "C" int topocoll_alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                  const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                  const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                  const char* algorithm) {
  return with_algorithm(algorithm, comm, "alltoallw", [&](const topocoll::CollectiveOptions& options) {
    return topocoll::alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm,
                               options);
  });
}

extern "C" int topocoll_scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const char* algorithm) {
  return with_algorithm(algorithm, comm, "scatter", [&](const topocoll::CollectiveOptions& options) {
    return topocoll::scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, options);
  });
}

extern "C" int topocoll_gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const char* algorithm) {
  return with_algorithm(algorithm, comm, "gather", [&](const topocoll::CollectiveOptions& options) {
    return topocoll::gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, options);
  });
}

extern "C" int topocoll_scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                                 MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                                 MPI_Comm comm, const char* algorithm) {
  return with_algorithm(algorithm, comm, "scatterv", [&](const topocoll::CollectiveOptions& options) {
    return topocoll::scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
                              options);
  });
}

extern "C" int topocoll_gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                                MPI_Comm comm, const char* algorithm) {
  return with_algorithm(algorithm, comm, "gatherv", [&](const topocoll::CollectiveOptions& options) {
    return topocoll::gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
                             options);
  });
}

extern "C" int topocoll_ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request,
                                  const char* algorithm) {
  return with_algorithm(algorithm, comm, "ialltoall", [&](const topocoll::CollectiveOptions& options) {
    return topocoll::ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request, options);
  });
}

extern "C" int topocoll_ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                   MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request, const char* algorithm) {
  return with_algorithm(algorithm, comm, "ialltoallv", [&](const topocoll::CollectiveOptions& options) {
    return topocoll::ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
                                request, options);
  });
}

extern "C" int topocoll_ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                   const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                   MPI_Request* request, const char* algorithm) {
  return with_algorithm(algorithm, comm, "ialltoallw", [&](const topocoll::CollectiveOptions& options) {
    return topocoll::ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                                comm, request, options);
  });
}

extern "C" int topocoll_iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request,
                                 const char* algorithm) {
  return with_algorithm(algorithm, comm, "iscatter", [&](const topocoll::CollectiveOptions& options) {
    return topocoll::iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request,
                              options);
  });
}

extern "C" int topocoll_igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request,
                                const char* algorithm) {
  return with_algorithm(algorithm, comm, "igather", [&](const topocoll::CollectiveOptions& options) {
    return topocoll::igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request,
                             options);
  });
}

extern "C" int topocoll_iscatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                                  MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                                  MPI_Comm comm, MPI_Request* request, const char* algorithm) {
  return with_algorithm(algorithm, comm, "iscatterv", [&](const topocoll::CollectiveOptions& options) {
    return topocoll::iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
                               request, options);
  });
}

extern "C" int topocoll_igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                                 MPI_Comm comm, MPI_Request* request, const char* algorithm) {
  return with_algorithm(algorithm, comm, "igatherv", [&](const topocoll::CollectiveOptions& options) {
    return topocoll::igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
                              request, options);
  });
}

extern "C" const char* topocoll_error_message(void) { return topocoll::exec::last_error_message(); }

extern "C" int topocoll_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                      MPI_Request* request, const char* algorithm) {
  return with_algorithm(algorithm, comm, "alltoall_init", [&](const topocoll::CollectiveOptions& options) {
    return topocoll::alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request,
                                   options);
  });
}

extern "C" int topocoll_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                       MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                       const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                       MPI_Request* request, const char* algorithm) {
  return with_algorithm(algorithm, comm, "alltoallv_init", [&](const topocoll::CollectiveOptions& options) {
    return topocoll::alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                                    comm, info, request, options);
  });
}

extern "C" int topocoll_alltoallw_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                       const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                       const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                       MPI_Info info, MPI_Request* request, const char* algorithm) {
  return with_algorithm(algorithm, comm, "alltoallw_init", [&](const topocoll::CollectiveOptions& options) {
    return topocoll::alltoallw_init(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                                    comm, info, request, options);
  });
}

extern "C" int topocoll_scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                                     MPI_Request* request, const char* algorithm) {
  return with_algorithm(algorithm, comm, "scatter_init", [&](const topocoll::CollectiveOptions& options) {
    return topocoll::scatter_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info,
                                  request, options);
  });
}

extern "C" int topocoll_gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                                    MPI_Request* request, const char* algorithm) {
  return with_algorithm(algorithm, comm, "gather_init", [&](const topocoll::CollectiveOptions& options) {
    return topocoll::gather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info,
                                 request, options);
  });
}

extern "C" int topocoll_scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[],
                                      MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                      int root, MPI_Comm comm, MPI_Info info, MPI_Request* request,
                                      const char* algorithm) {
  return with_algorithm(algorithm, comm, "scatterv_init", [&](const topocoll::CollectiveOptions& options) {
    return topocoll::scatterv_init(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
                                   info, request, options);
  });
}

extern "C" int topocoll_gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                                     MPI_Comm comm, MPI_Info info, MPI_Request* request, const char* algorithm) {
  return with_algorithm(algorithm, comm, "gatherv_init", [&](const topocoll::CollectiveOptions& options) {
    return topocoll::gatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
                                  info, request, options);
  });
}

extern "C" int topocoll_start(MPI_Request* request) { return topocoll::start(request); }
extern "C" int topocoll_startall(int count, MPI_Request requests[]) { return topocoll::startall(count, requests); }
extern "C" int topocoll_request_free(MPI_Request* request) { return topocoll::request_free(request); }
