// PlanCache: a linear scan over at most a handful of entries.
#include "exec/plan_cache.hpp"

#include <algorithm>

namespace topocoll::exec {

std::shared_ptr<const ExecutionPlan> PlanCache::find(const PlanKey& key) {
  for (Entry& entry : entries_) {
    if (entry.key == key) {
      entry.last_use = ++clock_;
      return entry.plan;
    }
  }
  return nullptr;
}

std::shared_ptr<const ExecutionPlan> PlanCache::insert(PlanKey key, std::shared_ptr<const ExecutionPlan> plan) {
  if (entries_.size() >= capacity_ && !entries_.empty()) {
    auto oldest = std::min_element(entries_.begin(), entries_.end(),
                                   [](const Entry& a, const Entry& b) { return a.last_use < b.last_use; });
    entries_.erase(oldest);
  }
  entries_.push_back(Entry{std::move(key), std::move(plan), ++clock_});
  return entries_.back().plan;
}

}  // namespace topocoll::exec
