// The completion calls (MPI_Wait, MPI_Test and their array forms, MPI_Request_get_status): each
// first advances topocoll's outstanding collectives, and a wait polls instead of blocking while
// any is outstanding. Where the MPI library has no progress engine topocoll can hook (MPICH), this
// is what moves a collective on whose completion a request that is not topocoll's waits: the
// persistent handles (persistent_collectives.hpp), whose waits are on a receive. Under Open MPI
// its engine does that too (and its Fortran bindings call PMPI_Wait directly). With nothing
// outstanding each goes straight to its PMPI_ form after one atomic load.
#include <mpi.h>

#include "exec/outstanding.hpp"

using topocoll::exec::advance_outstanding;
using topocoll::exec::has_outstanding;

namespace {

// While topocoll has collectives outstanding: advance them, then `test` (its MPI code, and
// `done` set once the program's requests are through); once none is, `wait` blocks as MPI would.
template <class Test, class Wait>
int poll_while_outstanding(Test test, Wait wait) {
  while (has_outstanding()) {
    advance_outstanding();
    int done = 0;
    const int rc = test(done);
    if (rc != MPI_SUCCESS || done != 0) return rc;
  }
  return wait();
}

}  // namespace

extern "C" {

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  return poll_while_outstanding([&](int& done) { return PMPI_Test(request, &done, status); },
                                [&] { return PMPI_Wait(request, status); });
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  return poll_while_outstanding([&](int& done) { return PMPI_Testall(count, requests, &done, statuses); },
                                [&] { return PMPI_Waitall(count, requests, statuses); });
}

int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  return poll_while_outstanding([&](int& done) { return PMPI_Testany(count, requests, index, &done, status); },
                                [&] { return PMPI_Waitany(count, requests, index, status); });
}

int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  return poll_while_outstanding(
      [&](int& done) {
        const int rc = PMPI_Testsome(incount, requests, outcount, indices, statuses);
        done = *outcount != 0;  // MPI_UNDEFINED too: no active request
        return rc;
      },
      [&] { return PMPI_Waitsome(incount, requests, outcount, indices, statuses); });
}

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  advance_outstanding();
  return PMPI_Test(request, flag, status);
}

int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  advance_outstanding();
  return PMPI_Testall(count, requests, flag, statuses);
}

int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  advance_outstanding();
  return PMPI_Testany(count, requests, index, flag, status);
}

int MPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  advance_outstanding();
  return PMPI_Testsome(incount, requests, outcount, indices, statuses);
}

int MPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  advance_outstanding();
  return PMPI_Request_get_status(request, flag, status);
}

}  // extern "C"
