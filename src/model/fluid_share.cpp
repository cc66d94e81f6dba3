#include "model/fluid_share.hpp"

#include <algorithm>
#include <cmath>
#include <queue>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace topocoll {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Times closer than this (us) are one moment: a start computed as a sum of latencies may miss
// the moment another class ends by a rounding.
constexpr double kSameMomentUs = 1e-9;

}  // namespace

int FluidNetwork::add_capacity(double bytes_per_us) {
  if (!(bytes_per_us > 0.0)) throw std::invalid_argument("a fluid capacity must be positive");
  capacity_.push_back(bytes_per_us);
  return static_cast<int>(capacity_.size()) - 1;
}

std::size_t FluidNetwork::add(FlowClass flows) {
  if (!(flows.count > 0.0)) throw std::invalid_argument("a fluid flow class needs flows");
  if (!(flows.penalty > 0.0)) throw std::invalid_argument("a fluid flow's penalty must be positive");
  for (const FlowUse& use : flows.uses) {
    if (use.capacity < 0 || static_cast<std::size_t>(use.capacity) >= capacity_.size()) {
      throw std::invalid_argument("a fluid flow uses an unknown capacity");
    }
  }
  flows.start_us = std::max(flows.start_us, now_us_);
  flows_.push_back(std::move(flows));
  ids_.push_back(classes_added_);
  return classes_added_++;
}

bool FluidNetwork::started(const FlowClass& flows) const { return flows.start_us <= now_us_ + kSameMomentUs; }

// Weighted progressive filling: every unfixed class's rate rises as level / penalty; the first
// capacity that fills (or the first class that reaches its cap) fixes its classes at that
// level, which then leave their rate's worth of every capacity they use to the others. The
// capacities wait in a heap by the level at which they fill (an entry goes stale when a class
// through the capacity is fixed), and the capped classes in order of the level of their cap: a
// sharing costs O(classes x uses x log capacities).
void FluidNetwork::share() {
  const std::size_t n = flows_.size(), capacities = capacity_.size();
  rate_.assign(n, 0.0);
  left_ = capacity_;
  weight_.assign(capacities, 0.0);
  users_.assign(capacities, 0);
  version_.assign(capacities, 0);
  fixed_.assign(n, 1);
  capped_.clear();
  std::size_t unfixed = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!started(flows_[i])) continue;
    fixed_[i] = 0;
    ++unfixed;
    for (const FlowUse& use : flows_[i].uses) {
      weight_[static_cast<std::size_t>(use.capacity)] += use.flows_per_link / flows_[i].penalty;
      ++users_[static_cast<std::size_t>(use.capacity)];
    }
    if (std::isfinite(flows_[i].rate_cap)) capped_.push_back(i);
  }
  // The classes through each capacity, contiguous per capacity.
  first_user_.assign(capacities + 1, 0);
  for (std::size_t c = 0; c < capacities; ++c)
    first_user_[c + 1] = first_user_[c] + static_cast<std::size_t>(users_[c]);
  user_.resize(first_user_[capacities]);
  std::vector<std::size_t> cursor(first_user_.begin(), first_user_.end() - 1);
  for (std::size_t i = 0; i < n; ++i) {
    if (fixed_[i]) continue;
    for (const FlowUse& use : flows_[i].uses) user_[cursor[static_cast<std::size_t>(use.capacity)]++] = i;
  }
  const auto cap_level = [&](std::size_t i) { return flows_[i].rate_cap * flows_[i].penalty; };
  // A heap, not a sort: few caps bind in most sharings.
  const auto later_cap = [&](std::size_t a, std::size_t b) { return cap_level(a) > cap_level(b); };
  std::make_heap(capped_.begin(), capped_.end(), later_cap);
  std::size_t capped_left = capped_.size();
  const auto pop_capped = [&] {
    std::pop_heap(capped_.begin(), capped_.begin() + static_cast<std::ptrdiff_t>(capped_left), later_cap);
    return capped_[--capped_left];
  };

  using Entry = std::tuple<double, std::size_t, unsigned>;  // (level, capacity, version)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> filling;
  const auto push = [&](std::size_t c) {
    if (users_[c] > 0 && weight_[c] > 0.0) filling.emplace(std::max(left_[c], 0.0) / weight_[c], c, version_[c]);
  };
  for (std::size_t c = 0; c < capacities; ++c) push(c);
  // Fixing a class changes the level of the capacities it uses: they go back into the heap
  // once per batch of classes fixed together.
  std::vector<std::size_t>& touched = touched_;
  touched.clear();
  const auto fix = [&](std::size_t i, double rate) {
    rate_[i] = rate;
    fixed_[i] = 1;
    --unfixed;
    for (const FlowUse& use : flows_[i].uses) {
      const auto c = static_cast<std::size_t>(use.capacity);
      if (std::isfinite(rate)) left_[c] -= use.flows_per_link * rate;
      weight_[c] -= use.flows_per_link / flows_[i].penalty;
      --users_[c];
      ++version_[c];
      touched.push_back(c);
    }
  };
  const auto requeue = [&] {
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    for (std::size_t c : touched) push(c);
    touched.clear();
  };
  while (unfixed > 0) {
    while (!filling.empty() && std::get<2>(filling.top()) != version_[std::get<1>(filling.top())]) filling.pop();
    const double level = filling.empty() ? kInfinity : std::get<0>(filling.top());
    while (capped_left > 0 && fixed_[capped_.front()]) pop_capped();
    const double capped = capped_left > 0 ? cap_level(capped_.front()) : kInfinity;
    if (capped <= level && std::isfinite(capped)) {
      while (capped_left > 0 && cap_level(capped_.front()) <= capped * (1.0 + 1e-12)) {
        const std::size_t i = pop_capped();
        if (!fixed_[i]) fix(i, flows_[i].rate_cap);
      }
      requeue();
    } else if (std::isfinite(level)) {
      const std::size_t tight = std::get<1>(filling.top());
      filling.pop();
      for (std::size_t k = first_user_[tight]; k < first_user_[tight + 1]; ++k) {
        const std::size_t i = user_[k];
        if (!fixed_[i]) fix(i, level / flows_[i].penalty);
      }
      requeue();
    } else {
      // Neither a capacity nor a cap holds what is left: it ends at once.
      for (std::size_t i = 0; i < n; ++i) {
        if (!fixed_[i]) fix(i, kInfinity);
      }
    }
  }
}

double FluidNetwork::next_event_us() const {
  double next = kInfinity;
  for (std::size_t i = 0; i < flows_.size(); ++i) {
    const FlowClass& flows = flows_[i];
    if (!started(flows)) {
      next = std::min(next, flows.start_us);
    } else if (rate_[i] > 0.0) {
      next = std::min(next, now_us_ + (std::isfinite(rate_[i]) ? flows.bytes / rate_[i] : 0.0));
    }
  }
  return next;
}

void FluidNetwork::advance(double us, std::vector<std::size_t>* ended) {
  us = std::max(us, 0.0);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < flows_.size(); ++i) {
    FlowClass& flows = flows_[i];
    if (started(flows) && rate_[i] > 0.0) {
      const double moved = std::isfinite(rate_[i]) ? rate_[i] * us : flows.bytes;
      // Done when what is left is a rounding of what it moved (the event was its end), or would
      // take less than a moment: at a late clock a moment is below its rounding, and a flow
      // left with a few rounded bytes would never see the clock move on to its end.
      const double left = flows.bytes - moved;
      if (left <= 1e-9 * (flows.bytes + 1.0) || left <= rate_[i] * kSameMomentUs) {
        if (ended != nullptr) ended->push_back(ids_[i]);
        continue;
      }
      flows.bytes -= moved;
    }
    if (kept != i) {
      flows_[kept] = std::move(flows);
      ids_[kept] = ids_[i];
    }
    ++kept;
  }
  flows_.resize(kept);
  ids_.resize(kept);
  now_us_ += us;
}

double FluidNetwork::step(double limit_us, std::vector<std::size_t>* ended) {
  if (flows_.empty()) {
    if (std::isfinite(limit_us) && limit_us > now_us_) now_us_ = limit_us;
    return std::isfinite(limit_us) ? now_us_ : kInfinity;
  }
  share();
  ++events_;
  const double next = std::min(next_event_us(), limit_us);
  if (!std::isfinite(next)) throw std::logic_error("fluid flows that never end");
  advance(next - now_us_, ended);
  return now_us_;
}

double FluidNetwork::run_through(std::size_t round) {
  const auto pending = [&] {
    return std::any_of(flows_.begin(), flows_.end(), [&](const FlowClass& flows) { return flows.due <= round; });
  };
  while (pending()) step(kInfinity);
  return now_us_;
}

void FluidNetwork::run_until(double us) {
  while (now_us_ < us) step(us);
}

std::vector<double> FluidNetwork::rates_now() {
  share();
  return rate_;
}

}  // namespace topocoll
