#include "exec/completed_elsewhere.hpp"

#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

namespace topocoll::exec {

namespace {

struct Handed {
  std::mutex lock;
  std::vector<std::pair<const MPI_Request*, MPI_Status>> completions;  // a few at a time
  std::atomic<int> count{0};
};

Handed& handed() {
  static Handed* const instance = new Handed;  // never destroyed, as the registry of collectives
  return *instance;
}

}  // namespace

void hand_over_completion(const MPI_Request* slot, const MPI_Status& status) {
  Handed& h = handed();
  const std::lock_guard<std::mutex> hold(h.lock);
  h.completions.emplace_back(slot, status);
  h.count.store(static_cast<int>(h.completions.size()), std::memory_order_release);
}

bool completions_handed_over() { return handed().count.load(std::memory_order_acquire) > 0; }

bool take_completion(const MPI_Request* slot, MPI_Status& status) {
  Handed& h = handed();
  const std::lock_guard<std::mutex> hold(h.lock);
  for (auto it = h.completions.begin(); it != h.completions.end(); ++it) {
    if (it->first != slot) continue;
    status = it->second;
    h.completions.erase(it);
    h.count.store(static_cast<int>(h.completions.size()), std::memory_order_release);
    return true;
  }
  return false;
}

}  // namespace topocoll::exec
