// Under SMPI, the completion calls of the simulated program (MPI_Wait ... MPI_Testsome,
// MPI_Request_get_status) are topocoll's: the library is linked into the program, so these
// definitions come before SimGrid's, and they call its PMPI_ forms. What they add to SMPI's own:
// topocoll's nonblocking collectives move on while the program waits or tests.
//
// SMPI charges every test of a request still on its way with simulated time (smpi/test, 100 us
// by default, growing with each miss), so polling would distort the very times a simulation is
// for. A wait here blocks instead: MPI_Waitany over the requests the outstanding collectives have
// in flight and the program's own (outstanding.hpp, wait_for_any_in_flight); each completion
// moves its collective on, until the program's requests are through. A collective's request
// completes when its last round has (topocoll's generalized request), so it is never waited on
// itself. Tests cost what SMPI charges for one MPI_Testany over the collectives' requests.
//
// The library's own completion calls come here too (it calls MPI_Wait ... by their MPI_ names):
// inside a collective's progress they go straight to PMPI_; from a blocking call they wait as
// the program's do, which moves the nonblocking collectives on meanwhile.
#ifdef TOPOCOLL_SMPI

#include <mpi.h>

#include <vector>

#include "exec/outstanding.hpp"

namespace topocoll::exec {

// Referred to by the nonblocking start, so that a program that starts one links these.
bool completion_calls_linked() { return true; }

}  // namespace topocoll::exec

using topocoll::exec::advance_outstanding;
using topocoll::exec::advancing_outstanding;
using topocoll::exec::collect_completions_in_flight;
using topocoll::exec::has_outstanding;
using topocoll::exec::is_collective_request;
using topocoll::exec::wait_for_any_in_flight;

namespace {

bool straight_to_mpi() { return !has_outstanding() || advancing_outstanding(); }

// Where a request of the program's array stands in a wait.
enum class Standing { inactive, complete, collective_on_its_way, program_own };

Standing standing_of(MPI_Request request, bool completed_here) {
  if (completed_here) return Standing::complete;  // (a persistent request keeps its handle)
  if (request == MPI_REQUEST_NULL) return Standing::inactive;
  bool complete = false;
  if (is_collective_request(request, complete)) return complete ? Standing::complete : Standing::collective_on_its_way;
  return Standing::program_own;
}

// A wait over `count` requests of the program: moves the collectives on and blocks on their
// requests and the program's own, until `enough` (given how many of the array are inactive and
// how many complete) says the wait can end in SMPI's own call.
// Requests completed here have their status in `statuses` and `completed_here` set; the MPI code
// of the first that failed is returned.
template <class Enough>
int wait_here(int count, MPI_Request requests[], std::vector<MPI_Status>& statuses, std::vector<char>& completed_here,
              Enough enough) {
  statuses.resize(static_cast<std::size_t>(count));
  completed_here.assign(static_cast<std::size_t>(count), 0);
  int first_error = MPI_SUCCESS;
  std::vector<MPI_Request*> program;
  std::vector<int> program_index;
  while (has_outstanding()) {
    advance_outstanding();
    program.clear();
    program_index.clear();
    int inactive = 0, complete = 0;
    for (int i = 0; i < count; ++i) {
      switch (standing_of(requests[i], completed_here[static_cast<std::size_t>(i)] != 0)) {
        case Standing::inactive:
          ++inactive;
          break;
        case Standing::complete:
          ++complete;
          break;
        case Standing::collective_on_its_way:
          break;
        case Standing::program_own:
          program.push_back(&requests[i]);
          program_index.push_back(i);
          break;
      }
    }
    if (enough(inactive, complete) || !has_outstanding()) break;
    int completed = -2;
    MPI_Status status;
    const int rc = wait_for_any_in_flight(program, completed, status);
    if (completed >= 0) {
      const auto i = static_cast<std::size_t>(program_index[static_cast<std::size_t>(completed)]);
      statuses[i] = status;
      completed_here[i] = 1;
      if (rc != MPI_SUCCESS && first_error == MPI_SUCCESS) first_error = rc;
    } else if (completed == -2 && advance_outstanding() == 0) {
      break;  // nothing to block on: SMPI's own call below (what a collective listing none needs)
    }
  }
  return first_error;
}

// Before a test: the collectives' completed requests collected (one charged MPI_Testany per
// miss), and the collectives moved on.
void move_collectives_on() {
  if (straight_to_mpi()) return;
  collect_completions_in_flight();
  advance_outstanding();
}

void put_status(MPI_Status* where, const MPI_Status& status) {
  if (where != MPI_STATUS_IGNORE) *where = status;
}

}  // namespace

extern "C" {

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  if (straight_to_mpi()) return PMPI_Wait(request, status);
  std::vector<MPI_Status> statuses;
  std::vector<char> here;
  const int rc =
      wait_here(1, request, statuses, here, [](int inactive, int complete) { return inactive + complete == 1; });
  if (here[0] != 0) {
    put_status(status, statuses[0]);
    return rc;
  }
  return PMPI_Wait(request, status);
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status array_of_statuses[]) {
  if (straight_to_mpi() || count <= 0) return PMPI_Waitall(count, requests, array_of_statuses);
  std::vector<MPI_Status> statuses;
  std::vector<char> here;
  int rc = wait_here(count, requests, statuses, here,
                     [count](int inactive, int complete) { return inactive + complete == count; });
  // The collectives' requests one by one (SMPI's MPI_Waitall would not ask them their outcome).
  for (int i = 0; i < count; ++i) {
    const auto at = static_cast<std::size_t>(i);
    bool complete = false;
    if (here[at] != 0 || !is_collective_request(requests[i], complete)) continue;
    const int outcome = PMPI_Wait(&requests[i], &statuses[at]);
    statuses[at].MPI_ERROR = outcome;
    here[at] = 1;
  }
  const int rest = PMPI_Waitall(count, requests, array_of_statuses);
  bool failed_here = rc != MPI_SUCCESS;
  for (int i = 0; i < count; ++i) {
    const auto at = static_cast<std::size_t>(i);
    if (here[at] == 0) continue;
    if (array_of_statuses != MPI_STATUSES_IGNORE) array_of_statuses[i] = statuses[at];
    if (statuses[at].MPI_ERROR != MPI_SUCCESS) failed_here = true;
  }
  if (failed_here) rc = MPI_ERR_IN_STATUS;
  return rest != MPI_SUCCESS ? rest : rc;
}

int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  if (straight_to_mpi() || count <= 0) return PMPI_Waitany(count, requests, index, status);
  std::vector<MPI_Status> statuses;
  std::vector<char> here;
  // Enough once one request is complete (or all are inactive: SMPI's call says MPI_UNDEFINED).
  const int rc = wait_here(count, requests, statuses, here,
                           [count](int inactive, int complete) { return complete > 0 || inactive == count; });
  for (int i = 0; i < count; ++i) {
    if (here[static_cast<std::size_t>(i)] != 0) {
      *index = i;
      put_status(status, statuses[static_cast<std::size_t>(i)]);
      return rc;
    }
  }
  for (int i = 0; i < count; ++i) {  // a collective's request, complete: SMPI's wait finishes it
    if (standing_of(requests[i], false) == Standing::complete) {
      *index = i;
      return PMPI_Wait(&requests[i], status);
    }
  }
  return PMPI_Waitany(count, requests, index, status);
}

int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status array_of_statuses[]) {
  if (straight_to_mpi() || incount <= 0) {
    return PMPI_Waitsome(incount, requests, outcount, indices, array_of_statuses);
  }
  // One request at a time, as MPI allows: the one MPI_Waitany above would return.
  int index = MPI_UNDEFINED;
  MPI_Status status;
  const int rc = MPI_Waitany(incount, requests, &index, &status);
  if (index == MPI_UNDEFINED) {
    *outcount = MPI_UNDEFINED;
    return rc;
  }
  *outcount = 1;
  indices[0] = index;
  if (array_of_statuses != MPI_STATUSES_IGNORE) array_of_statuses[0] = status;
  return rc == MPI_SUCCESS ? rc : MPI_ERR_IN_STATUS;
}

// Tests: the collectives moved on (move_collectives_on), then SMPI's own test.
int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  move_collectives_on();
  return PMPI_Test(request, flag, status);
}

int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status array_of_statuses[]) {
  move_collectives_on();
  return PMPI_Testall(count, requests, flag, array_of_statuses);
}

int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  move_collectives_on();
  return PMPI_Testany(count, requests, index, flag, status);
}

int MPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status array_of_statuses[]) {
  move_collectives_on();
  return PMPI_Testsome(incount, requests, outcount, indices, array_of_statuses);
}

int MPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  move_collectives_on();
  return PMPI_Request_get_status(request, flag, status);
}

}  // extern "C"

#endif  // TOPOCOLL_SMPI
