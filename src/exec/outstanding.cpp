// The registry of outstanding collectives, the user's generalized requests, and the progress
// hooks of the MPI libraries that have one.
#include "exec/outstanding.hpp"

#include <dlfcn.h>

#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "exec/completed_elsewhere.hpp"
#include "exec/mpi_handles.hpp"

namespace topocoll::exec {

namespace {

struct Registry {
  std::mutex lock;
  std::vector<std::unique_ptr<Outstanding>> collectives;  // in the order they started
  std::atomic<int> count{0};                              // collectives.size(), read without the lock
};

Registry& registry() {
  static Registry* const instance = new Registry;  // never destroyed: hooks may run during exit
  return *instance;
}

thread_local bool advancing = false;

#if defined(OPEN_MPI)
// Open MPI's progress engine (libopen-pal), found at run time: an internal interface, so its
// absence is no failure, only a missing hook.
using ProgressCallback = int (*)();
using ProgressRegistration = int (*)(ProgressCallback);

int progress_callback() { return advance_outstanding(); }

ProgressRegistration find_progress_call(const char* name) {
  return reinterpret_cast<ProgressRegistration>(dlsym(RTLD_DEFAULT, name));
}

// Unregisters the callback when MPI_Finalize deletes MPI_COMM_SELF's attributes, so that the
// engine never calls into a library that exit may have unloaded.
int unregister_at_finalize(MPI_Comm, int, void*, void*) {
  if (ProgressRegistration unregister = find_progress_call("opal_progress_unregister")) unregister(progress_callback);
  return MPI_SUCCESS;
}

bool hook_registered() {
  static const bool registered = [] {
    ProgressRegistration registration = find_progress_call("opal_progress_register");
    if (registration == nullptr || registration(progress_callback) != 0) return false;
    int keyval = MPI_KEYVAL_INVALID;
    if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, unregister_at_finalize, &keyval, nullptr) == MPI_SUCCESS) {
      MPI_Comm_set_attr(MPI_COMM_SELF, keyval, nullptr);
    }
    return true;
  }();
  return registered;
}
#endif

}  // namespace

void add_outstanding(std::unique_ptr<Outstanding> collective) {
  Registry& r = registry();
  const std::lock_guard<std::mutex> hold(r.lock);
  r.collectives.push_back(std::move(collective));
  r.count.store(static_cast<int>(r.collectives.size()), std::memory_order_release);
}

bool has_outstanding() { return registry().count.load(std::memory_order_acquire) > 0; }

int advance_outstanding() {
  Registry& r = registry();
  if (r.count.load(std::memory_order_acquire) == 0 || advancing) return 0;
  std::unique_lock<std::mutex> hold(r.lock, std::try_to_lock);
  if (!hold.owns_lock()) return 0;
  advancing = true;
  int finished = 0;
  // Collectives stay in starting order; a finished one is destroyed after its request completed.
  auto& list = r.collectives;
  for (auto it = list.begin(); it != list.end();) {
    if ((*it)->advance()) {
      it = list.erase(it);
      ++finished;
    } else {
      ++it;
    }
  }
  r.count.store(static_cast<int>(list.size()), std::memory_order_release);
  advancing = false;
  return finished;
}

void finish_outstanding_on(const void* owner) {
  Registry& r = registry();
  if (advancing) return;
  const auto any_of_owner = [&] {
    const std::lock_guard<std::mutex> hold(r.lock);
    for (const auto& collective : r.collectives) {
      if (collective->owner() == owner) return true;
    }
    return false;
  };
  const std::vector<MPI_Request*> none;
  while (r.count.load(std::memory_order_acquire) > 0 && any_of_owner()) {
    if (advance_outstanding() > 0) continue;
#ifdef TOPOCOLL_SMPI
    int completed = 0;
    MPI_Status status;
    (void)wait_for_any_in_flight(none, completed, status);  // a failure shows in the collective
#endif
  }
}

bool advancing_outstanding() { return advancing; }

namespace {

// The requests in flight of every outstanding collective, in the order they started: the
// collectives' own handles, and a copy of each for an MPI call over them all.
void gather_in_flight(std::vector<MPI_Request*>& slots, std::vector<MPI_Request>& handles) {
  slots.clear();
  {
    Registry& r = registry();
    const std::lock_guard<std::mutex> hold(r.lock);
    for (const auto& collective : r.collectives) collective->requests_in_flight(slots);
  }
  handles.clear();
  for (MPI_Request* slot : slots) handles.push_back(*slot);
}

// The request in `slot` completed on its copy `handle` (MPI freed it: null), with `status` and
// the MPI call's code `rc`: handed back to the collective that owns the slot.
void hand_back(MPI_Request* slot, MPI_Request handle, MPI_Status status, int rc) {
  if (rc != MPI_SUCCESS && status.MPI_ERROR == MPI_SUCCESS) status.MPI_ERROR = rc;
  hand_over_completion(slot, status);
  *slot = handle;
}

}  // namespace

int wait_for_any_in_flight(const std::vector<MPI_Request*>& program, int& completed, MPI_Status& status) {
  completed = -2;
  std::vector<MPI_Request*> slots;
  std::vector<MPI_Request> handles;
  gather_in_flight(slots, handles);
  for (MPI_Request* request : program) handles.push_back(*request);
  if (handles.empty()) return MPI_SUCCESS;
  int index = MPI_UNDEFINED;
  status.MPI_ERROR = MPI_SUCCESS;  // set by MPI only on failure
  const int rc = PMPI_Waitany(static_cast<int>(handles.size()), handles.data(), &index, &status);
  if (index == MPI_UNDEFINED || index < 0) return rc;
  const auto at = static_cast<std::size_t>(index);
  if (at < slots.size()) {
    hand_back(slots[at], handles[at], status, rc);
    completed = -1;
    return MPI_SUCCESS;
  }
  completed = static_cast<int>(at - slots.size());
  *program[static_cast<std::size_t>(completed)] = handles[at];  // null, or a persistent request's
  return rc;
}

void collect_completions_in_flight() {
  std::vector<MPI_Request*> slots;
  std::vector<MPI_Request> handles;
  for (;;) {
    gather_in_flight(slots, handles);
    if (slots.empty()) return;
    int index = MPI_UNDEFINED;
    int done = 0;
    MPI_Status status;
    status.MPI_ERROR = MPI_SUCCESS;
    int rc = PMPI_Testany(static_cast<int>(handles.size()), handles.data(), &index, &done, &status);
    if (done == 0) return;
    if (index == MPI_UNDEFINED || index < 0) {
      // Every one inactive, to MPI_Testany: SMPI's way of telling sends already gone (detached,
      // below its eager threshold), which its MPI_Waitany completes at once.
      rc = PMPI_Waitany(static_cast<int>(handles.size()), handles.data(), &index, &status);
      if (index == MPI_UNDEFINED || index < 0) return;
    }
    const auto at = static_cast<std::size_t>(index);
    hand_back(slots[at], handles[at], status, rc);
  }
}

bool progress_from_every_call() {
#if defined(OPEN_MPI)
  return hook_registered();
#else
  return false;
#endif
}

std::string progress_hook_missing() {
#if defined(TOPOCOLL_SMPI)
  return {};  // the completion calls are topocoll's (smpi_completion_calls.cpp)
#elif defined(OPEN_MPI)
  if (hook_registered()) return {};
  return "Open MPI's progress engine (opal_progress_register) was not found in the running library";
#elif defined(MPICH)
  return {};
#else
  return "this MPI library has no progress hook topocoll can use (Open MPI's progress engine or MPICH's "
         "MPIX_Grequest_start)";
#endif
}

// ---- the user's request ----

int RequestOutcome::query(void* state, MPI_Status* status) {
  const auto* outcome = static_cast<RequestOutcome*>(state);
  MPI_Status_set_elements(status, MPI_BYTE, 0);
  MPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_UNDEFINED;
  status->MPI_TAG = MPI_UNDEFINED;
  status->MPI_ERROR = outcome->error_;
  return outcome->error_;
}

namespace {

// The requests of topocoll's collectives the program still holds, where topocoll's completion
// calls must tell them from the program's own (SMPI).
struct CollectiveRequests {
  std::mutex lock;
  std::map<MPI_Request, const RequestOutcome*> outcomes;
};

CollectiveRequests& collective_requests() {
  static CollectiveRequests* const instance = new CollectiveRequests;
  return *instance;
}

#ifdef TOPOCOLL_SMPI
void forget_collective_request(const RequestOutcome* outcome) {
  CollectiveRequests& c = collective_requests();
  const std::lock_guard<std::mutex> hold(c.lock);
  for (auto it = c.outcomes.begin(); it != c.outcomes.end(); ++it) {
    if (it->second == outcome) {
      c.outcomes.erase(it);
      return;
    }
  }
}
#endif

}  // namespace

bool is_collective_request(MPI_Request request, bool& complete) {
  CollectiveRequests& c = collective_requests();
  const std::lock_guard<std::mutex> hold(c.lock);
  const auto it = c.outcomes.find(request);
  if (it == c.outcomes.end()) return false;
  complete = it->second->is_complete();
  return true;
}

int RequestOutcome::free_request(void* state) {
  auto* outcome = static_cast<RequestOutcome*>(state);
#ifdef TOPOCOLL_SMPI
  forget_collective_request(outcome);
#endif
  outcome->release();
  return MPI_SUCCESS;
}

// A collective cannot be cancelled (MPI says so of nonblocking collectives): it goes on.
int RequestOutcome::cancel(void*, int) { return MPI_SUCCESS; }

void RequestOutcome::release() {
  if (holders_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
}

void RequestOutcome::complete(MPI_Request request, int error) {
  error_ = error;
  complete_.store(true, std::memory_order_release);
  MPI_Grequest_complete(request);
  release();
}

#if defined(MPICH)
namespace {
int poll_outstanding(void*, MPI_Status*) {
  advance_outstanding();
  return MPI_SUCCESS;
}

// MPI_Wait and its array forms on requests of this kind: progress until every one is complete.
int wait_outstanding(int count, void** states, double, MPI_Status*) {
  for (int i = 0; i < count; ++i) {
    while (!static_cast<RequestOutcome*>(states[i])->is_complete()) advance_outstanding();
  }
  return MPI_SUCCESS;
}
}  // namespace
#endif

MaybeFailure RequestOutcome::start_request(RequestOutcome*& outcome, MPI_Request& request) {
  outcome = new RequestOutcome;
#if defined(MPICH)
  const int rc = MPIX_Grequest_start(query, free_request, cancel, poll_outstanding, wait_outstanding, outcome,
                                     &request);
  const char* call = "MPIX_Grequest_start";
#else
  const int rc = MPI_Grequest_start(query, free_request, cancel, outcome, &request);
  const char* call = "MPI_Grequest_start";
#endif
  if (rc != MPI_SUCCESS) {
    delete outcome;
    outcome = nullptr;
    return mpi_call_failure(call, rc);
  }
#ifdef TOPOCOLL_SMPI
  CollectiveRequests& c = collective_requests();
  const std::lock_guard<std::mutex> hold(c.lock);
  c.outcomes[request] = outcome;
#endif
  return std::nullopt;
}

}  // namespace topocoll::exec
