// The ExecutionPlans of one communicator, keyed by what a schedule depends on besides p and
// the rank: operation, root, layout (block bytes, a root's block left in place), algorithm
// and knobs. Only the uniform operations are cached (the v forms' sizes change per call).
// Small and least-recently-used, so that a program sweeping many sizes does not keep every
// plan (and its datatypes) alive.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/problem.hpp"
#include "exec/execution_plan.hpp"

namespace topocoll::exec {

struct PlanKey {
  Operation operation = Operation::alltoall;
  int root = 0;
  bool in_place = false;  // scatter and gather: the root's own block does not move
  std::string algorithm;
  std::size_t block_bytes = 0;
  AlgorithmKnobs knobs;
  std::string topology;  // the spec the schedule's topology came from (topology-aware algorithms)
  std::string network;   // the platform the schedule's routes came from (algorithms that read routes)
  friend auto operator<=>(const PlanKey&, const PlanKey&) = default;
};

class PlanCache {
 public:
  static constexpr std::size_t kDefaultCapacity = 16;
  explicit PlanCache(std::size_t capacity = kDefaultCapacity) : capacity_(capacity) {}

  // The cached plan for `key`, or null. Shared: a nonblocking call still walking a plan keeps
  // it alive after the cache has let it go.
  std::shared_ptr<const ExecutionPlan> find(const PlanKey& key);
  // Stores `plan` under `key`, evicting the least recently used entry when full.
  std::shared_ptr<const ExecutionPlan> insert(PlanKey key, std::shared_ptr<const ExecutionPlan> plan);
  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    PlanKey key;
    std::shared_ptr<const ExecutionPlan> plan;
    std::uint64_t last_use = 0;
  };
  std::vector<Entry> entries_;
  std::uint64_t clock_ = 0;
  std::size_t capacity_;
};

}  // namespace topocoll::exec
