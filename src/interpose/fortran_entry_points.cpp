// The Fortran entry points of libtopocoll-pmpi.so, for Open MPI. Open MPI's Fortran bindings
// call PMPI_Alltoall and friends directly, so the C entry points never see a Fortran program's
// calls: these definitions take the bindings' place, convert the arguments to C and go the
// same way as a C call (answer_call). MPI_INIT and MPI_INIT_THREAD (which call PMPI_Init
// directly too) run Open MPI's own definition, then the configuration agreement.
//
// Which symbols: mpif.h and `use mpi` call mpi_alltoall_ (gfortran's spelling; the other
// compilers' mpi_alltoall, mpi_alltoall__ and MPI_ALLTOALL are defined too, all one function);
// `use mpi_f08` calls Open MPI's ompi_alltoall_f from libmpi_usempif08.so. Open MPI 4.1 defines
// every one of these in libmpi_mpifh.so with the same arguments (ompi/mpi/fortran/mpif-h), and
// a preloaded definition comes first.
//
// Conversions, as Open MPI's own bindings make them: fortran_arguments.hpp; the MPI code goes
// to `ierror`. The persistent forms and MPI_START, MPI_STARTALL and MPI_REQUEST_FREE:
// fortran_persistent_entry_points.cpp.
//
// MPICH's Fortran bindings call the C MPI_ entry points of the collectives themselves, so there
// the C entry points answer Fortran programs; but its MPI_INIT and MPI_INIT_THREAD (mpif.h,
// `use mpi` and `use mpi_f08`) call PMPI_Init directly: the end of this file defines them for
// MPICH, so that Fortran programs take part in the configuration agreement there too.
#include <dlfcn.h>
#include <mpi.h>

#include <vector>

#include "exec/call.hpp"
#include "interpose/configuration_agreement.hpp"
#include "interpose/fortran_arguments.hpp"
#include "interpose/interposed_call.hpp"

// MPI_INIT and MPI_INIT_THREAD, Open MPI's and MPICH's alike: the MPI library's own definition
// of `next_name` (the next one, found by name), then, where it succeeded, the ranks compare
// their configuration (configuration_agreement.hpp). The arguments before ierror (MPI_INIT_THREAD's
// required and provided) are passed on untouched; the code comes back through ierror, which
// the f08 forms' callers may leave out (null).
namespace {

template <typename... Arguments>
void initialise_then_agree(const char* next_name, MPI_Fint* ierror, Arguments... arguments) {
  using Next = void (*)(Arguments..., MPI_Fint*);
  const auto next = reinterpret_cast<Next>(dlsym(RTLD_NEXT, next_name));
  MPI_Fint rc = MPI_ERR_INTERN;
  if (next != nullptr) next(arguments..., &rc);
  if (rc == MPI_SUCCESS) topocoll::interpose::agree_on_configuration();
  if (ierror != nullptr) *ierror = rc;
}

}  // namespace

#if defined(OPEN_MPI) && OPEN_MPI

namespace {

using topocoll::Operation;
using topocoll::exec::CallArguments;
using topocoll::exec::SideArguments;
using topocoll::interpose::fortran::c_buffer;
using topocoll::interpose::fortran::set_ierror;
using topocoll::interpose::fortran::side;

// MPI_ALLTOALLW's datatypes as C handles, one per peer of `comm` (its remote group's for an
// intercommunicator, as MPI sizes the arrays), none for a null communicator (MPI reports it).
std::vector<MPI_Datatype> c_types(const MPI_Fint* types, MPI_Comm comm) {
  int size = 0, inter = 0;
  if (comm != MPI_COMM_NULL && PMPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS) {
    if (inter != 0 ? PMPI_Comm_remote_size(comm, &size) : PMPI_Comm_size(comm, &size)) size = 0;
  }
  std::vector<MPI_Datatype> converted(static_cast<std::size_t>(size));
  for (int q = 0; q < size; ++q) converted[static_cast<std::size_t>(q)] = PMPI_Type_f2c(types[q]);
  return converted;
}

void answer(const CallArguments& call, const char* entry_point, MPI_Fint* ierror) {
  set_ierror(ierror, topocoll::interpose::answer_call(call, entry_point));
}

// The nonblocking forms: the request goes back as Fortran's handle (MPI_Request_c2f), which
// Fortran's MPI_WAIT and MPI_TEST turn back into it.
void answer_start(const CallArguments& call, const char* entry_point, MPI_Fint* request, MPI_Fint* ierror) {
  MPI_Request c_request = MPI_REQUEST_NULL;
  const int rc = topocoll::interpose::answer_start(call, &c_request, entry_point);
  if (rc == MPI_SUCCESS) *request = PMPI_Request_c2f(c_request);
  set_ierror(ierror, rc);
}

}  // namespace

extern "C" {

// MPI_INIT and MPI_INIT_THREAD: libmpi_mpifh.so's ompi_init_f and ompi_init_thread_f first.
void ompi_init_f(MPI_Fint* ierror) { initialise_then_agree("ompi_init_f", ierror); }
TOPOCOLL_FORTRAN_SPELLINGS(init, INIT, (MPI_Fint*))

void ompi_init_thread_f(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierror) {
  initialise_then_agree("ompi_init_thread_f", ierror, required, provided);
}
TOPOCOLL_FORTRAN_SPELLINGS(init_thread, INIT_THREAD, (MPI_Fint*, MPI_Fint*, MPI_Fint*))

void ompi_alltoall_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf, MPI_Fint* recvcount,
                     MPI_Fint* recvtype, MPI_Fint* comm, MPI_Fint* ierror) {
  answer({Operation::alltoall, side(sendbuf, sendcount, sendtype), side(recvbuf, recvcount, recvtype), 0,
          PMPI_Comm_f2c(*comm)},
         "MPI_Alltoall (Fortran)", ierror);
}
TOPOCOLL_FORTRAN_SPELLINGS(alltoall, ALLTOALL,
                           (char*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))

void ompi_alltoallv_f(char* sendbuf, MPI_Fint* sendcounts, MPI_Fint* sdispls, MPI_Fint* sendtype, char* recvbuf,
                      MPI_Fint* recvcounts, MPI_Fint* rdispls, MPI_Fint* recvtype, MPI_Fint* comm, MPI_Fint* ierror) {
  answer({Operation::alltoallv, side(sendbuf, sendcounts, sdispls, sendtype),
          side(recvbuf, recvcounts, rdispls, recvtype), 0, PMPI_Comm_f2c(*comm)},
         "MPI_Alltoallv (Fortran)", ierror);
}
TOPOCOLL_FORTRAN_SPELLINGS(alltoallv, ALLTOALLV,
                           (char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*,
                            MPI_Fint*))

// The send datatypes of MPI_IN_PLACE are not significant (they may be anything): never read.
void ompi_alltoallw_f(char* sendbuf, MPI_Fint* sendcounts, MPI_Fint* sdispls, MPI_Fint* sendtypes, char* recvbuf,
                      MPI_Fint* recvcounts, MPI_Fint* rdispls, MPI_Fint* recvtypes, MPI_Fint* comm, MPI_Fint* ierror) {
  const MPI_Comm c_comm = PMPI_Comm_f2c(*comm);
  const bool in_place = c_buffer(sendbuf) == MPI_IN_PLACE;
  const std::vector<MPI_Datatype> c_sendtypes = in_place ? std::vector<MPI_Datatype>() : c_types(sendtypes, c_comm);
  const std::vector<MPI_Datatype> c_recvtypes = c_types(recvtypes, c_comm);
  CallArguments call{Operation::alltoallv,
                     SideArguments{c_buffer(sendbuf), 0, sendcounts, sdispls, MPI_DATATYPE_NULL,
                                   in_place ? nullptr : c_sendtypes.data()},
                     SideArguments{c_buffer(recvbuf), 0, recvcounts, rdispls, MPI_DATATYPE_NULL, c_recvtypes.data()},
                     0, c_comm};
  call.per_peer_types = true;
  answer(call, "MPI_Alltoallw (Fortran)", ierror);
}
TOPOCOLL_FORTRAN_SPELLINGS(alltoallw, ALLTOALLW,
                           (char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*,
                            MPI_Fint*))

void ompi_scatter_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf, MPI_Fint* recvcount,
                    MPI_Fint* recvtype, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* ierror) {
  answer({Operation::scatter, side(sendbuf, sendcount, sendtype), side(recvbuf, recvcount, recvtype), *root,
          PMPI_Comm_f2c(*comm)},
         "MPI_Scatter (Fortran)", ierror);
}
TOPOCOLL_FORTRAN_SPELLINGS(scatter, SCATTER,
                           (char*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))

void ompi_gather_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf, MPI_Fint* recvcount,
                   MPI_Fint* recvtype, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* ierror) {
  answer({Operation::gather, side(sendbuf, sendcount, sendtype), side(recvbuf, recvcount, recvtype), *root,
          PMPI_Comm_f2c(*comm)},
         "MPI_Gather (Fortran)", ierror);
}
TOPOCOLL_FORTRAN_SPELLINGS(gather, GATHER,
                           (char*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))

void ompi_scatterv_f(char* sendbuf, MPI_Fint* sendcounts, MPI_Fint* displs, MPI_Fint* sendtype, char* recvbuf,
                     MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* ierror) {
  answer({Operation::scatterv, side(sendbuf, sendcounts, displs, sendtype), side(recvbuf, recvcount, recvtype),
          *root, PMPI_Comm_f2c(*comm)},
         "MPI_Scatterv (Fortran)", ierror);
}
TOPOCOLL_FORTRAN_SPELLINGS(scatterv, SCATTERV,
                           (char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*,
                            MPI_Fint*))

void ompi_gatherv_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf, MPI_Fint* recvcounts,
                    MPI_Fint* displs, MPI_Fint* recvtype, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* ierror) {
  answer({Operation::gatherv, side(sendbuf, sendcount, sendtype), side(recvbuf, recvcounts, displs, recvtype),
          *root, PMPI_Comm_f2c(*comm)},
         "MPI_Gatherv (Fortran)", ierror);
}
TOPOCOLL_FORTRAN_SPELLINGS(gatherv, GATHERV,
                           (char*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*,
                            MPI_Fint*))

// The nonblocking forms (MPI_IALLTOALLW is left to Open MPI: its datatype arrays, converted
// here, would have to outlive the call).
void ompi_ialltoall_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf, MPI_Fint* recvcount,
                      MPI_Fint* recvtype, MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierror) {
  answer_start({Operation::alltoall, side(sendbuf, sendcount, sendtype), side(recvbuf, recvcount, recvtype), 0,
                PMPI_Comm_f2c(*comm)},
               "MPI_Ialltoall (Fortran)", request, ierror);
}
TOPOCOLL_FORTRAN_SPELLINGS(ialltoall, IALLTOALL,
                           (char*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))

void ompi_ialltoallv_f(char* sendbuf, MPI_Fint* sendcounts, MPI_Fint* sdispls, MPI_Fint* sendtype, char* recvbuf,
                       MPI_Fint* recvcounts, MPI_Fint* rdispls, MPI_Fint* recvtype, MPI_Fint* comm, MPI_Fint* request,
                       MPI_Fint* ierror) {
  answer_start({Operation::alltoallv, side(sendbuf, sendcounts, sdispls, sendtype),
                side(recvbuf, recvcounts, rdispls, recvtype), 0, PMPI_Comm_f2c(*comm)},
               "MPI_Ialltoallv (Fortran)", request, ierror);
}
TOPOCOLL_FORTRAN_SPELLINGS(ialltoallv, IALLTOALLV,
                           (char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*,
                            MPI_Fint*, MPI_Fint*))

void ompi_iscatter_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf, MPI_Fint* recvcount,
                     MPI_Fint* recvtype, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierror) {
  answer_start({Operation::scatter, side(sendbuf, sendcount, sendtype), side(recvbuf, recvcount, recvtype), *root,
                PMPI_Comm_f2c(*comm)},
               "MPI_Iscatter (Fortran)", request, ierror);
}
TOPOCOLL_FORTRAN_SPELLINGS(iscatter, ISCATTER,
                           (char*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*,
                            MPI_Fint*))

void ompi_igather_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf, MPI_Fint* recvcount,
                    MPI_Fint* recvtype, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierror) {
  answer_start({Operation::gather, side(sendbuf, sendcount, sendtype), side(recvbuf, recvcount, recvtype), *root,
                PMPI_Comm_f2c(*comm)},
               "MPI_Igather (Fortran)", request, ierror);
}
TOPOCOLL_FORTRAN_SPELLINGS(igather, IGATHER,
                           (char*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*,
                            MPI_Fint*))

void ompi_iscatterv_f(char* sendbuf, MPI_Fint* sendcounts, MPI_Fint* displs, MPI_Fint* sendtype, char* recvbuf,
                      MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* request,
                      MPI_Fint* ierror) {
  answer_start({Operation::scatterv, side(sendbuf, sendcounts, displs, sendtype), side(recvbuf, recvcount, recvtype),
                *root, PMPI_Comm_f2c(*comm)},
               "MPI_Iscatterv (Fortran)", request, ierror);
}
TOPOCOLL_FORTRAN_SPELLINGS(iscatterv, ISCATTERV,
                           (char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*,
                            MPI_Fint*, MPI_Fint*))

void ompi_igatherv_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf, MPI_Fint* recvcounts,
                     MPI_Fint* displs, MPI_Fint* recvtype, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* request,
                     MPI_Fint* ierror) {
  answer_start({Operation::gatherv, side(sendbuf, sendcount, sendtype), side(recvbuf, recvcounts, displs, recvtype),
                *root, PMPI_Comm_f2c(*comm)},
               "MPI_Igatherv (Fortran)", request, ierror);
}
TOPOCOLL_FORTRAN_SPELLINGS(igatherv, IGATHERV,
                           (char*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*,
                            MPI_Fint*, MPI_Fint*))

}  // extern "C"

#endif  // OPEN_MPI

#if defined(MPICH) && !(defined(OPEN_MPI) && OPEN_MPI)

// MPICH's Fortran initialisation (libmpichfort.so's, by each spelling's own name) first.
extern "C" {

#define TOPOCOLL_MPICH_INIT(symbol)                                                         \
  void symbol(MPI_Fint* ierror) { initialise_then_agree(#symbol, ierror); }
#define TOPOCOLL_MPICH_INIT_THREAD(symbol)                                                  \
  void symbol(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierror) {                 \
    initialise_then_agree(#symbol, ierror, required, provided);                             \
  }

TOPOCOLL_MPICH_INIT(mpi_init_)
TOPOCOLL_MPICH_INIT(mpi_init__)
TOPOCOLL_MPICH_INIT(mpi_init)
TOPOCOLL_MPICH_INIT(MPI_INIT)
TOPOCOLL_MPICH_INIT(mpi_init_f08_)
TOPOCOLL_MPICH_INIT_THREAD(mpi_init_thread_)
TOPOCOLL_MPICH_INIT_THREAD(mpi_init_thread__)
TOPOCOLL_MPICH_INIT_THREAD(mpi_init_thread)
TOPOCOLL_MPICH_INIT_THREAD(MPI_INIT_THREAD)
TOPOCOLL_MPICH_INIT_THREAD(mpi_init_thread_f08_)

}  // extern "C"

#endif  // MPICH
