/* topocoll: topology-aware collective communication over MPI. C API.
 *
 * Every function mirrors the MPI call it replaces, plus the name of the algorithm to run.
 * Errors are reported the MPI way: the communicator's error handler is invoked and an MPI
 * error code is returned; topocoll_error_message() names the problem. */
#ifndef TOPOCOLL_H
#define TOPOCOLL_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* MPI_Alltoall with a chosen algorithm: "direct", "shift", "pairwise", "group-shuffle",
 * "bruck", "lg" (with TOPOCOLL_TOPOLOGY set: the groups of its outermost level are the
 * clusters) or "native" (the MPI library's own). NULL means the default ("pairwise"). */
int topocoll_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const char* algorithm);

/* MPI_Alltoallv with a chosen algorithm: "direct", "shift", "pairwise", "group-shuffle", "lg"
 * (with TOPOCOLL_TOPOLOGY set) or "native". NULL means the default ("pairwise"). */
int topocoll_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                       void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                       MPI_Comm comm, const char* algorithm);

/* MPI_Alltoallw with a chosen algorithm: one of topocoll_alltoallv's (an alltoallw is scheduled
 * as an alltoallv; each block's datatype, packed where it is not plain bytes). NULL means the
 * default ("pairwise"). */
int topocoll_alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                       void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                       MPI_Comm comm, const char* algorithm);

/* MPI_Scatter, MPI_Gather, MPI_Scatterv and MPI_Gatherv with a chosen algorithm: "linear" (the
 * root talks to every rank) or "native". NULL means the default ("linear"). MPI_IN_PLACE at the
 * root only, as MPI allows. */
int topocoll_scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, const char* algorithm);
int topocoll_gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, const char* algorithm);
int topocoll_scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                      void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                      const char* algorithm);
int topocoll_gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                     const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, const char* algorithm);

/* The nonblocking forms of the above (MPI_Ialltoall ... MPI_Igatherv semantics), with the same
 * algorithms: *request is the caller's to complete with MPI_Wait, MPI_Test or their array forms.
 * See topocoll.hpp (topocoll::ialltoall) for how the rounds progress and what has no
 * nonblocking form yet. */
int topocoll_ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request, const char* algorithm);
int topocoll_ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                        void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                        MPI_Comm comm, MPI_Request* request, const char* algorithm);
int topocoll_ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                        const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* request, const char* algorithm);
int topocoll_iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request, const char* algorithm);
int topocoll_igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request, const char* algorithm);
int topocoll_iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                       void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                       MPI_Request* request, const char* algorithm);
int topocoll_igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                      const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request,
                      const char* algorithm);

/* The persistent forms (MPI-4's MPI_Alltoall_init ... semantics), started with topocoll_start or
 * topocoll_startall and freed with topocoll_request_free; see topocoll.hpp
 * (topocoll::alltoall_init) for what they need of the MPI library. */
int topocoll_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request,
                           const char* algorithm);
int topocoll_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Info info, MPI_Request* request, const char* algorithm);
int topocoll_alltoallw_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                            const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                            const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                            MPI_Request* request, const char* algorithm);
int topocoll_scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request,
                          const char* algorithm);
int topocoll_gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request,
                         const char* algorithm);
int topocoll_scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                           void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                           MPI_Info info, MPI_Request* request, const char* algorithm);
int topocoll_gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                          const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                          MPI_Info info, MPI_Request* request, const char* algorithm);
int topocoll_start(MPI_Request* request);
int topocoll_startall(int count, MPI_Request requests[]);
int topocoll_request_free(MPI_Request* request);

/* The message of the last error topocoll reported on this thread ("" when none). */
const char* topocoll_error_message(void);

#ifdef __cplusplus
}
#endif

#endif /* TOPOCOLL_H */
