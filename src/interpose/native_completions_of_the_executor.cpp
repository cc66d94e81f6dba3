// Where the executor's own completion calls (its windows' MPI_Waitall and MPI_Testsome, the
// duplicate's MPI_Test ...) go inside libtopocoll-pmpi.so: to the PMPI_ ones, through -Wl,--wrap
// as for the collectives (native_calls_of_the_executor.cpp), since this library defines the
// MPI_ names itself (completion_entry_points.cpp).
#include <mpi.h>

extern "C" {

int __wrap_MPI_Wait(MPI_Request* request, MPI_Status* status) { return PMPI_Wait(request, status); }

int __wrap_MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  return PMPI_Waitall(count, requests, statuses);
}

int __wrap_MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  return PMPI_Waitany(count, requests, index, status);
}

int __wrap_MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
}

int __wrap_MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) { return PMPI_Test(request, flag, status); }

int __wrap_MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  return PMPI_Testall(count, requests, flag, statuses);
}

int __wrap_MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  return PMPI_Testany(count, requests, index, flag, status);
}

int __wrap_MPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  return PMPI_Testsome(incount, requests, outcount, indices, statuses);
}

int __wrap_MPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  return PMPI_Request_get_status(request, flag, status);
}

}  // extern "C"
