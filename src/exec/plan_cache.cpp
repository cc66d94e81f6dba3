// PlanCache: a linear scan over at most a handful of entries.
#include "exec/plan_cache.hpp"

#include <algorithm>

namespace topocoll::exec {

const ExecutionPlan* PlanCache::find(const PlanKey& key) {
  for (Entry& entry : entries_) {
    if (entry.key == key) {
      entry.last_use = ++clock_;
      return entry.plan.get();
    }
  }
  return nullptr;
}

const ExecutionPlan* PlanCache::insert(PlanKey key, std::unique_ptr<ExecutionPlan> plan) {
  if (entries_.size() >= capacity_ && !entries_.empty()) {
    auto oldest = std::min_element(entries_.begin(), entries_.end(),
                                   [](const Entry& a, const Entry& b) { return a.last_use < b.last_use; });
    entries_.erase(oldest);
  }
  entries_.push_back(Entry{std::move(key), std::move(plan), ++clock_});
  return entries_.back().plan.get();
}

}  // namespace topocoll::exec
