// The profiling-interface definitions behind CountingScope. Test-program state only: the
// library itself keeps no such globals.
#include "mpi_call_counters.hpp"

#include <mpi.h>

#include <algorithm>

namespace {

topocoll::testing::CallCounts recorded;
bool counting = false;

void note_posted() {
  if (!counting) return;
  ++recorded.posted;
  ++recorded.in_flight;
  recorded.max_in_flight = std::max(recorded.max_in_flight, recorded.in_flight);
}

void note_completed(long n) {
  if (counting) recorded.in_flight -= n;
}

long active_requests(int n, const MPI_Request* requests) {
  return std::count_if(requests, requests + n, [](MPI_Request r) { return r != MPI_REQUEST_NULL; });
}

}  // namespace

namespace topocoll::testing {

CountingScope::CountingScope() {
  recorded = CallCounts{};
  counting = true;
}

CountingScope::~CountingScope() { counting = false; }

const CallCounts& CountingScope::counts() const { return recorded; }

}  // namespace topocoll::testing

extern "C" {

int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  const int rc = PMPI_Isend(buf, count, type, dest, tag, comm, request);
  note_posted();
  return rc;
}

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  if (counting) ++recorded.blocking_sends;
  return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request* request) {
  const int rc = PMPI_Irecv(buf, count, type, source, tag, comm, request);
  note_posted();
  return rc;
}

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  const long active = *request != MPI_REQUEST_NULL ? 1 : 0;
  const int rc = PMPI_Wait(request, status);
  note_completed(active);
  return rc;
}

int MPI_Waitany(int n, MPI_Request requests[], int* index, MPI_Status* status) {
  const int rc = PMPI_Waitany(n, requests, index, status);
  if (*index != MPI_UNDEFINED) note_completed(1);
  return rc;
}

int MPI_Waitsome(int n, MPI_Request requests[], int* completed, int indices[], MPI_Status statuses[]) {
  const int rc = PMPI_Waitsome(n, requests, completed, indices, statuses);
  if (*completed != MPI_UNDEFINED) note_completed(*completed);
  return rc;
}

int MPI_Waitall(int n, MPI_Request requests[], MPI_Status statuses[]) {
  const long active = active_requests(n, requests);
  const int rc = PMPI_Waitall(n, requests, statuses);
  note_completed(active);
  return rc;
}

int MPI_Pack(const void* in, int count, MPI_Datatype type, void* out, int out_size, int* position, MPI_Comm comm) {
  if (counting) ++recorded.packs;
  return PMPI_Pack(in, count, type, out, out_size, position, comm);
}

int MPI_Unpack(const void* in, int in_size, int* position, void* out, int count, MPI_Datatype type, MPI_Comm comm) {
  if (counting) ++recorded.unpacks;
  return PMPI_Unpack(in, in_size, position, out, count, type, comm);
}

int MPI_Type_create_hindexed(int count, const int lengths[], const MPI_Aint displacements[], MPI_Datatype old,
                             MPI_Datatype* made) {
  if (counting) ++recorded.hindexed_types;
  return PMPI_Type_create_hindexed(count, lengths, displacements, old, made);
}

}  // extern "C"
