#include "exec/persistent_requests.hpp"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "exec/comm_state.hpp"
#include "exec/error_report.hpp"
#include "exec/failure.hpp"
#include "exec/outstanding.hpp"

namespace topocoll::exec {

namespace {

struct PersistentCollective {
  MPI_Comm comm = MPI_COMM_NULL;  // the collective's: its error handler reports a failed start
  const char* label = "";
  PersistentStart start;
  MPI_Comm self = MPI_COMM_NULL;  // MPI_COMM_SELF's private duplicate
  int tag = 0;
  MPI_Request handle = MPI_REQUEST_NULL;  // the program's: a persistent receive from this process
  int received[1] = {0};
  bool active = false;  // started, its collective not yet complete
};

struct Registry {
  std::mutex lock;
  // By the program's handle. One freed while active moves to `draining` until its collective
  // completes (MPI may give its handle's value to another request meanwhile).
  std::map<MPI_Request, std::unique_ptr<PersistentCollective>> live;
  std::map<PersistentCollective*, std::unique_ptr<PersistentCollective>> draining;
  std::atomic<int> count{0};  // live.size() + draining.size(), read without the lock
  int next_tag = 0;
};

Registry& registry() {
  static Registry* const instance = new Registry;  // never destroyed, like exec's list
  return *instance;
}

void recount(Registry& r) { r.count.store(static_cast<int>(r.live.size() + r.draining.size())); }

// Completes the program's handle: the message it waits for, one int longer after a failure.
void complete_handle(PersistentCollective& p, int code) {
  const int message[2] = {code, code};
  MPI_Send(message, code == MPI_SUCCESS ? 1 : 2, MPI_INT, 0, p.tag, p.self);
}

// Waits (in the list of outstanding collectives) for the collective of one start, then
// completes the program's handle.
class StartedCollective final : public Outstanding {
 public:
  StartedCollective(PersistentCollective& p, MPI_Request inner) : p_(p), inner_(inner) {}

  bool advance() override {
    int done = 0;
    MPI_Status status;
    // A single request's completion need not set MPI_ERROR (MPICH leaves it as it was); a
    // generalized request's (topocoll's own) carries the run's code there.
    status.MPI_ERROR = MPI_SUCCESS;
    const int rc = MPI_Test(&inner_, &done, &status);
    if (rc == MPI_SUCCESS && !done) return false;
    int code = rc;
    if (rc == MPI_SUCCESS && status.MPI_ERROR != MPI_SUCCESS && status.MPI_ERROR != MPI_ERR_PENDING) {
      code = status.MPI_ERROR;
    }
    Registry& r = registry();
    const std::lock_guard<std::mutex> hold(r.lock);
    p_.active = false;
    complete_handle(p_, code);
    if (r.draining.erase(&p_) != 0) recount(r);  // freed by the program while active
    return true;
  }

  const void* owner() const override { return &p_; }

 private:
  PersistentCollective& p_;
  MPI_Request inner_;
};

PersistentCollective* find_live(Registry& r, MPI_Request handle) {
  const auto it = r.live.find(handle);
  return it == r.live.end() ? nullptr : it->second.get();
}

}  // namespace

int make_persistent(MPI_Comm comm, const char* label, PersistentStart start, MPI_Request* request) {
  MPI_Comm self = MPI_COMM_NULL;
  if (auto failure = local_probe_comm(self)) return report_failure(comm, *failure);
  auto p = std::make_unique<PersistentCollective>();
  p->comm = comm;
  p->label = label;
  p->start = std::move(start);
  p->self = self;
  Registry& r = registry();
  const std::lock_guard<std::mutex> hold(r.lock);
  p->tag = r.next_tag;
  r.next_tag = (r.next_tag + 1) % 32767;  // the least MPI_TAG_UB MPI allows
  const int rc = MPI_Recv_init(p->received, 1, MPI_INT, 0, p->tag, self, &p->handle);
  if (rc != MPI_SUCCESS) return rc;
  *request = p->handle;
  r.live.emplace(p->handle, std::move(p));
  recount(r);
  return MPI_SUCCESS;
}

namespace {

// MPI_Start and MPI_Request_free of a handle make_persistent made: true when `request` is one
// (`rc` then holds the code), false for any other request.
bool start_if_persistent(MPI_Request* request, int& rc) {
  Registry& r = registry();
  if (r.count.load() == 0 || request == nullptr) return false;
  PersistentCollective* p = nullptr;
  {
    const std::lock_guard<std::mutex> hold(r.lock);
    p = find_live(r, *request);
    if (p == nullptr) return false;
    if (p->active) {
      rc = report_failure(p->comm, Failure{MPI_ERR_REQUEST, std::string(p->label) + ": a start of a request still active"});
      return true;
    }
    p->active = true;
  }
  rc = MPI_Start(&p->handle);
  if (rc != MPI_SUCCESS) {
    p->active = false;
    return true;
  }
  MPI_Request inner = MPI_REQUEST_NULL;
  rc = p->start(&inner);
  if (rc != MPI_SUCCESS) {  // reported; the handle completes, failed, so that a wait returns
    const std::lock_guard<std::mutex> hold(r.lock);
    p->active = false;
    complete_handle(*p, rc);
    return true;
  }
  add_outstanding(std::make_unique<StartedCollective>(*p, inner));
  return true;
}

bool free_if_persistent(MPI_Request* request, int& rc) {
  Registry& r = registry();
  if (r.count.load() == 0 || request == nullptr) return false;
  const std::lock_guard<std::mutex> hold(r.lock);
  const auto it = r.live.find(*request);
  if (it == r.live.end()) return false;
  std::unique_ptr<PersistentCollective> p = std::move(it->second);
  r.live.erase(it);
  rc = MPI_Request_free(request);  // an active receive is freed once it completes, as MPI says
  if (p->active) {
    PersistentCollective* key = p.get();
    r.draining.emplace(key, std::move(p));
  }
  recount(r);
  return true;
}

}  // namespace

int start_persistent(MPI_Request* request) {
  int rc = MPI_SUCCESS;
  return start_if_persistent(request, rc) ? rc : MPI_Start(request);
}

int start_all_persistent(int count, MPI_Request requests[]) {
  if (count < 0) return MPI_Startall(count, requests);
  int first_failure = MPI_SUCCESS;
  for (int i = 0; i < count; ++i) {
    const int rc = start_persistent(&requests[i]);
    if (rc != MPI_SUCCESS && first_failure == MPI_SUCCESS) first_failure = rc;
  }
  return first_failure;
}

int free_persistent(MPI_Request* request) {
  int rc = MPI_SUCCESS;
  return free_if_persistent(request, rc) ? rc : MPI_Request_free(request);
}

}  // namespace topocoll::exec
