// Open MPI's persistent collectives from Fortran: MPIX_ALLTOALL_INIT ... MPIX_GATHERV_INIT (its
// pcollreq extension: mpif-ext.h, `use mpi_ext`, `use mpi_f08_ext`), and MPI_START,
// MPI_STARTALL and MPI_REQUEST_FREE. Open MPI's Fortran bindings call PMPIX_Alltoall_init and
// PMPI_Start directly, so the C entry points (persistent_entry_points.cpp) never see them: these
// definitions take the bindings' place, as fortran_entry_points.cpp's do for the other calls,
// and go the C calls' way (persistent_collectives.hpp). A START of a handle topocoll did not make
// goes to the library as Open MPI's binding would send it.
//
// MPIX_ALLTOALLW_INIT is left to Open MPI, as MPI_IALLTOALLW is: its datatype arrays, converted
// here, would have to live as long as the handle.
#include <mpi.h>

#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)

#include <vector>

#include "exec/call.hpp"
#include "interpose/fortran_arguments.hpp"
#include "interpose/interposed_call.hpp"
#include "exec/persistent_requests.hpp"
#include "interpose/persistent_collectives.hpp"

namespace {

using topocoll::Operation;
using topocoll::exec::CallArguments;
using topocoll::interpose::fortran::side;
using topocoll::interpose::fortran::set_ierror;

// The handle for `call`: topocoll's where the call is topocoll's to answer, else the one
// `library_init` makes (the library's own persistent call on the converted arguments); back to
// the program as Fortran's handle.
template <typename LibraryInit>
void answer_init(const CallArguments& call, const char* entry_point, MPI_Fint* request, MPI_Fint* ierror,
                 LibraryInit library_init) {
  MPI_Request c_request = MPI_REQUEST_NULL;
  const int rc = topocoll::interpose::persistent_by_topocoll(call, entry_point)
                     ? topocoll::interpose::make_persistent(call, entry_point, &c_request)
                     : library_init(&c_request);
  if (rc == MPI_SUCCESS) *request = PMPI_Request_c2f(c_request);
  set_ierror(ierror, rc);
}

}  // namespace

extern "C" {

void ompix_alltoall_init_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf,
                           MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* comm, MPI_Fint* info, MPI_Fint* request,
                           MPI_Fint* ierror) {
  const CallArguments c{Operation::alltoall, side(sendbuf, sendcount, sendtype), side(recvbuf, recvcount, recvtype),
                        0, PMPI_Comm_f2c(*comm)};
  answer_init(c, "MPIX_Alltoall_init (Fortran)", request, ierror, [&](MPI_Request* r) {
    return PMPIX_Alltoall_init(c.send.buffer, *sendcount, c.send.type, const_cast<void*>(c.recv.buffer), *recvcount,
                               c.recv.type, c.comm, PMPI_Info_f2c(*info), r);
  });
}
TOPOCOLL_FORTRAN_X_SPELLINGS(alltoall_init, ALLTOALL_INIT,
                             (char*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*,
                              MPI_Fint*, MPI_Fint*))

void ompix_alltoallv_init_f(char* sendbuf, MPI_Fint* sendcounts, MPI_Fint* sdispls, MPI_Fint* sendtype,
                            char* recvbuf, MPI_Fint* recvcounts, MPI_Fint* rdispls, MPI_Fint* recvtype,
                            MPI_Fint* comm, MPI_Fint* info, MPI_Fint* request, MPI_Fint* ierror) {
  const CallArguments c{Operation::alltoallv, side(sendbuf, sendcounts, sdispls, sendtype),
                        side(recvbuf, recvcounts, rdispls, recvtype), 0, PMPI_Comm_f2c(*comm)};
  answer_init(c, "MPIX_Alltoallv_init (Fortran)", request, ierror, [&](MPI_Request* r) {
    return PMPIX_Alltoallv_init(c.send.buffer, sendcounts, sdispls, c.send.type, const_cast<void*>(c.recv.buffer),
                                recvcounts, rdispls, c.recv.type, c.comm, PMPI_Info_f2c(*info), r);
  });
}
TOPOCOLL_FORTRAN_X_SPELLINGS(alltoallv_init, ALLTOALLV_INIT,
                             (char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*,
                              MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))

void ompix_scatter_init_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf, MPI_Fint* recvcount,
                          MPI_Fint* recvtype, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* info, MPI_Fint* request,
                          MPI_Fint* ierror) {
  const CallArguments c{Operation::scatter, side(sendbuf, sendcount, sendtype), side(recvbuf, recvcount, recvtype),
                        *root, PMPI_Comm_f2c(*comm)};
  answer_init(c, "MPIX_Scatter_init (Fortran)", request, ierror, [&](MPI_Request* r) {
    return PMPIX_Scatter_init(c.send.buffer, *sendcount, c.send.type, const_cast<void*>(c.recv.buffer), *recvcount,
                              c.recv.type, *root, c.comm, PMPI_Info_f2c(*info), r);
  });
}
TOPOCOLL_FORTRAN_X_SPELLINGS(scatter_init, SCATTER_INIT,
                             (char*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*,
                              MPI_Fint*, MPI_Fint*, MPI_Fint*))

void ompix_gather_init_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf, MPI_Fint* recvcount,
                         MPI_Fint* recvtype, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* info, MPI_Fint* request,
                         MPI_Fint* ierror) {
  const CallArguments c{Operation::gather, side(sendbuf, sendcount, sendtype), side(recvbuf, recvcount, recvtype),
                        *root, PMPI_Comm_f2c(*comm)};
  answer_init(c, "MPIX_Gather_init (Fortran)", request, ierror, [&](MPI_Request* r) {
    return PMPIX_Gather_init(c.send.buffer, *sendcount, c.send.type, const_cast<void*>(c.recv.buffer), *recvcount,
                             c.recv.type, *root, c.comm, PMPI_Info_f2c(*info), r);
  });
}
TOPOCOLL_FORTRAN_X_SPELLINGS(gather_init, GATHER_INIT,
                             (char*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*,
                              MPI_Fint*, MPI_Fint*, MPI_Fint*))

void ompix_scatterv_init_f(char* sendbuf, MPI_Fint* sendcounts, MPI_Fint* displs, MPI_Fint* sendtype, char* recvbuf,
                           MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* info,
                           MPI_Fint* request, MPI_Fint* ierror) {
  const CallArguments c{Operation::scatterv, side(sendbuf, sendcounts, displs, sendtype),
                        side(recvbuf, recvcount, recvtype), *root, PMPI_Comm_f2c(*comm)};
  answer_init(c, "MPIX_Scatterv_init (Fortran)", request, ierror, [&](MPI_Request* r) {
    return PMPIX_Scatterv_init(c.send.buffer, sendcounts, displs, c.send.type, const_cast<void*>(c.recv.buffer),
                               *recvcount, c.recv.type, *root, c.comm, PMPI_Info_f2c(*info), r);
  });
}
TOPOCOLL_FORTRAN_X_SPELLINGS(scatterv_init, SCATTERV_INIT,
                             (char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*,
                              MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))

void ompix_gatherv_init_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf, MPI_Fint* recvcounts,
                          MPI_Fint* displs, MPI_Fint* recvtype, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* info,
                          MPI_Fint* request, MPI_Fint* ierror) {
  const CallArguments c{Operation::gatherv, side(sendbuf, sendcount, sendtype),
                        side(recvbuf, recvcounts, displs, recvtype), *root, PMPI_Comm_f2c(*comm)};
  answer_init(c, "MPIX_Gatherv_init (Fortran)", request, ierror, [&](MPI_Request* r) {
    return PMPIX_Gatherv_init(c.send.buffer, *sendcount, c.send.type, const_cast<void*>(c.recv.buffer), recvcounts,
                              displs, c.recv.type, *root, c.comm, PMPI_Info_f2c(*info), r);
  });
}
TOPOCOLL_FORTRAN_X_SPELLINGS(gatherv_init, GATHERV_INIT,
                             (char*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*,
                              MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))

// A started handle keeps its value (as a persistent request's does in C).
void ompi_start_f(MPI_Fint* request, MPI_Fint* ierror) {
  MPI_Request c_request = PMPI_Request_f2c(*request);
  set_ierror(ierror, topocoll::exec::start_persistent(&c_request));
}
TOPOCOLL_FORTRAN_SPELLINGS(start, START, (MPI_Fint*, MPI_Fint*))

void ompi_startall_f(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* ierror) {
  const int n = *count < 0 ? 0 : *count;  // the library reports a negative count
  std::vector<MPI_Request> c_requests(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) c_requests[static_cast<std::size_t>(i)] = PMPI_Request_f2c(requests[i]);
  set_ierror(ierror, topocoll::exec::start_all_persistent(*count, c_requests.data()));
}
TOPOCOLL_FORTRAN_SPELLINGS(startall, STARTALL, (MPI_Fint*, MPI_Fint*, MPI_Fint*))

// Freed, the program's handle becomes MPI_REQUEST_NULL, as Open MPI's binding leaves it.
void ompi_request_free_f(MPI_Fint* request, MPI_Fint* ierror) {
  MPI_Request c_request = PMPI_Request_f2c(*request);
  const int rc = topocoll::exec::free_persistent(&c_request);
  if (rc == MPI_SUCCESS) *request = PMPI_Request_c2f(MPI_REQUEST_NULL);
  set_ierror(ierror, rc);
}
TOPOCOLL_FORTRAN_SPELLINGS(request_free, REQUEST_FREE, (MPI_Fint*, MPI_Fint*))

}  // extern "C"

#endif  // OMPI_HAVE_MPI_EXT_PCOLLREQ
