// The nonblocking collectives of this process still on their way, and what moves them on.
//
// An outstanding collective advances only when someone calls advance_outstanding(): a nonblocking
// call's progress is never a thread of its own. Where the MPI library offers a hook, waiting or
// testing on the user's request calls it:
// - Open MPI: the function is registered with Open MPI's progress engine (opal_progress_register,
//   found at run time; libNBC's way), so every MPI call that makes progress advances every
//   outstanding collective, MPI_Wait and MPI_Test on the user's request (and Fortran's) included;
// - MPICH: the user's request is an MPIX_Grequest_start request, whose poll function MPICH calls
//   when the request is tested or waited for.
// - SMPI: the completion calls are topocoll's (smpi_completion_calls.cpp, linked into the
//   simulated program with the library); as SMPI charges every test with simulated time, they
//   block on the collectives' own requests beside the program's (wait_for_any_in_flight)
//   instead of polling.
// Every topocoll call advances them as well. Without any of these, nonblocking calls are not
// answered by topocoll (progress_hook_missing says why).
//
// The user's handle is a generalized request (MPI_Grequest_start), completed when the collective
// is: any completion call works on it, in any array, and MPI_Request_free may drop it early.
#pragma once

#include <mpi.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "exec/failure.hpp"

namespace topocoll::exec {

// One collective on its way. advance() never blocks; it returns true once the collective has
// finished (its user request, if any, completed): the registry then destroys it.
class Outstanding {
 public:
  virtual ~Outstanding() = default;
  virtual bool advance() = 0;
  // What it belongs to (its communicator's state), for finish_outstanding_on.
  virtual const void* owner() const = 0;
  // The requests it has in flight (its own handles' addresses), for a wait that blocks on them;
  // one such wait completes is handed back through completed_elsewhere.hpp. A collective that
  // lists none while on its way is only ever polled.
  virtual void requests_in_flight(std::vector<MPI_Request*>& slots) { (void)slots; }
};

// What the user's request reports when it completes, shared by the collective (which sets it,
// then completes the request) and the request (whose free function drops it).
class RequestOutcome {
 public:
  // The user's request, a generalized one answering with this outcome.
  static MaybeFailure start_request(RequestOutcome*& outcome, MPI_Request& request);
  // Sets the request's error code and completes it; the collective's hold on the outcome ends.
  void complete(MPI_Request request, int error);
  bool is_complete() const { return complete_.load(std::memory_order_acquire); }

 private:
  static int query(void* state, MPI_Status* status);
  static int free_request(void* state);
  static int cancel(void* state, int complete);
  void release();

  std::atomic<int> holders_{2};  // the collective and the request
  std::atomic<bool> complete_{false};
  int error_ = MPI_SUCCESS;
};

// Hands `collective` to the registry, which advances it until it finishes. The first call
// registers the progress hook.
void add_outstanding(std::unique_ptr<Outstanding> collective);

// Whether any collective is outstanding (one atomic load: the drop-in's completion calls ask it
// on every call).
bool has_outstanding();

// Advances every outstanding collective once, without blocking; the number that finished.
// Returns at once when there is none, or when this thread is already advancing them (MPI's
// progress calls back into the hook from inside the collectives' own MPI calls) or another is.
int advance_outstanding();

// Advances the collectives of `owner` until none is left (blocking): before a communicator is
// freed, as MPI frees a communicator only once its operations are complete.
void finish_outstanding_on(const void* owner);

// Whether this thread is inside advance_outstanding (a completion call made by a collective's
// own progress goes straight to MPI).
bool advancing_outstanding();

// Blocks until one request in flight of an outstanding collective, or one of `program` (the
// caller's own, none of them topocoll's requests), completes: MPI_Waitany over them all, so that
// a program waiting on its own message while a collective needs its progress never deadlocks.
// Returns the MPI code; `completed` is the index in `program` of the caller's request that
// completed (its handle updated as MPI_Wait would, its status in `status`), -1 when a
// collective's did (handed back to it), -2 when there was nothing to wait on.
int wait_for_any_in_flight(const std::vector<MPI_Request*>& program, int& completed, MPI_Status& status);
// Without blocking: hands back to the outstanding collectives every request of theirs that has
// completed (MPI_Testany until none has).
void collect_completions_in_flight();

// Whether `request` is the request of a topocoll nonblocking collective (a generalized one),
// and if so whether it is complete. Kept only where the completion calls are topocoll's (SMPI).
bool is_collective_request(MPI_Request request, bool& complete);

// Empty when nonblocking collectives can progress under this MPI library; else why not.
std::string progress_hook_missing();
// Whether every MPI call that makes progress advances them (Open MPI's progress engine), not
// only tests and waits of their own requests (MPICH's poll): what a request that is not
// topocoll's own, but completes when a collective does, needs.
bool progress_from_every_call();

}  // namespace topocoll::exec
