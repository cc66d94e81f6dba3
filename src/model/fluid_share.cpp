#include "model/fluid_share.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
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
  const std::size_t route = route_of(flows);
  const Moving moving{0.0, flows.bytes, flows.count, flows.due, classes_added_};
  route_of_id_.push_back(static_cast<int>(route));
  ++unfinished_;
  ++unfinished_by_due_[flows.due];
  if (flows.start_us <= now_us_ + kSameMomentUs) {
    begin_moving(route, moving);
  } else {
    waiting_.push_back({flows.start_us, route, moving});
    std::push_heap(waiting_.begin(), waiting_.end(), std::greater<>());
  }
  return classes_added_++;
}

// The route of a class: its capacities and uses per flow, penalty and cap.
std::size_t FluidNetwork::route_of(const FlowClass& flows) {
  std::vector<std::pair<int, double>> uses;
  uses.reserve(flows.uses.size());
  for (const FlowUse& use : flows.uses) uses.emplace_back(use.capacity, use.flows_per_link / flows.count);
  auto [at, added] = route_index_.try_emplace({std::move(uses), flows.penalty, flows.rate_cap}, routes_.size());
  if (added) {
    Route& route = routes_.emplace_back();
    for (const auto& [capacity, per_flow] : std::get<0>(at->first)) route.uses.push_back({capacity, per_flow});
    route.penalty = flows.penalty;
    route.rate_cap = flows.rate_cap;
    rate_.push_back(0.0);
  }
  return at->second;
}

void FluidNetwork::begin_moving(std::size_t r, Moving flows) {
  Route& route = routes_[r];
  if (route.moving.empty()) {
    in_flight_.push_back(r);
    if (std::isfinite(route.rate_cap)) {
      const std::pair<double, std::size_t> entry{route.rate_cap * route.penalty, r};
      capped_in_flight_.insert(std::lower_bound(capped_in_flight_.begin(), capped_in_flight_.end(), entry), entry);
    }
  }
  flows.ends_at = route.moved + flows.bytes;
  route.count += flows.count;
  route.moving.push_back(flows);
  std::push_heap(route.moving.begin(), route.moving.end(), std::greater<>());
}

// Weighted progressive filling over the routes in flight: every unfixed route's rate rises as
// level / penalty; the first capacity that fills (or the first route that reaches its cap)
// fixes its routes at that level, which then leave their rate's worth of every capacity they
// use to the others. The capacities wait in a heap by the level at which they fill (an entry
// goes stale when a route through the capacity is fixed), and the capped routes in order of the
// level of their cap: a sharing costs O(routes x uses x log capacities).
void FluidNetwork::share() {
  const std::size_t n = in_flight_.size(), capacities = capacity_.size();
  left_ = capacity_;
  weight_.assign(capacities, 0.0);
  users_.assign(capacities, 0);
  version_.assign(capacities, 0);
  fixed_.assign(n, 0);
  std::size_t unfixed = n;
  const auto route = [&](std::size_t k) -> const Route& { return routes_[in_flight_[k]]; };
  for (std::size_t k = 0; k < n; ++k) {
    routes_[in_flight_[k]].slot = k;
    for (const FlowUse& use : route(k).uses) {
      weight_[static_cast<std::size_t>(use.capacity)] += use.flows_per_link * route(k).count / route(k).penalty;
      ++users_[static_cast<std::size_t>(use.capacity)];
    }
  }
  // The routes through each capacity, contiguous per capacity.
  first_user_.assign(capacities + 1, 0);
  for (std::size_t c = 0; c < capacities; ++c)
    first_user_[c + 1] = first_user_[c] + static_cast<std::size_t>(users_[c]);
  user_.resize(first_user_[capacities]);
  std::vector<std::size_t> cursor(first_user_.begin(), first_user_.end() - 1);
  for (std::size_t k = 0; k < n; ++k) {
    for (const FlowUse& use : route(k).uses) user_[cursor[static_cast<std::size_t>(use.capacity)]++] = k;
  }
  // The capped routes in flight, lowest cap first (kept in order as routes come and go).
  std::size_t next_capped = 0;
  const auto capped_slot = [&] { return routes_[capped_in_flight_[next_capped].second].slot; };

  using Entry = std::tuple<double, std::size_t, unsigned>;  // (level, capacity, version)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> filling;
  const auto push = [&](std::size_t c) {
    if (users_[c] > 0 && weight_[c] > 0.0) filling.emplace(std::max(left_[c], 0.0) / weight_[c], c, version_[c]);
  };
  for (std::size_t c = 0; c < capacities; ++c) push(c);
  // Fixing a route changes the level of the capacities it uses: they go back into the heap
  // once per batch of routes fixed together.
  std::vector<std::size_t>& touched = touched_;
  touched.clear();
  const auto fix = [&](std::size_t k, double rate) {
    rate_[in_flight_[k]] = rate;
    fixed_[k] = 1;
    --unfixed;
    const Route& fixed = route(k);
    for (const FlowUse& use : fixed.uses) {
      const auto c = static_cast<std::size_t>(use.capacity);
      if (std::isfinite(rate)) left_[c] -= use.flows_per_link * fixed.count * rate;
      weight_[c] -= use.flows_per_link * fixed.count / fixed.penalty;
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
    while (next_capped < capped_in_flight_.size() && fixed_[capped_slot()]) ++next_capped;
    const double capped = next_capped < capped_in_flight_.size() ? capped_in_flight_[next_capped].first : kInfinity;
    if (capped <= level && std::isfinite(capped)) {
      for (; next_capped < capped_in_flight_.size() && capped_in_flight_[next_capped].first <= capped * (1.0 + 1e-12);
           ++next_capped) {
        const std::size_t k = capped_slot();
        if (!fixed_[k]) fix(k, route(k).rate_cap);
      }
      requeue();
    } else if (std::isfinite(level)) {
      const std::size_t tight = std::get<1>(filling.top());
      filling.pop();
      for (std::size_t u = first_user_[tight]; u < first_user_[tight + 1]; ++u) {
        const std::size_t k = user_[u];
        if (!fixed_[k]) fix(k, level / route(k).penalty);
      }
      requeue();
    } else {
      // Neither a capacity nor a cap holds what is left: it ends at once.
      for (std::size_t k = 0; k < n; ++k) {
        if (!fixed_[k]) fix(k, kInfinity);
      }
    }
  }
}

double FluidNetwork::next_event_us() const {
  double next = waiting_.empty() ? kInfinity : waiting_.front().start_us;
  for (std::size_t r : in_flight_) {
    const double rate = rate_[r];
    if (!(rate > 0.0)) continue;
    const Route& route = routes_[r];
    const double left = std::max(route.moving.front().ends_at - route.moved, 0.0);
    next = std::min(next, now_us_ + (std::isfinite(rate) ? left / rate : 0.0));
  }
  return next;
}

void FluidNetwork::finish(const Moving& flows, std::vector<std::size_t>* ended) {
  if (ended != nullptr) ended->push_back(flows.id);
  route_of_id_[flows.id] = -1;
  --unfinished_;
  const auto due = unfinished_by_due_.find(flows.due);
  if (--due->second == 0) unfinished_by_due_.erase(due);
}

void FluidNetwork::advance(double us, std::vector<std::size_t>* ended) {
  us = std::max(us, 0.0);
  std::size_t kept = 0;
  for (std::size_t k = 0; k < in_flight_.size(); ++k) {
    const std::size_t r = in_flight_[k];
    Route& route = routes_[r];
    const double rate = rate_[r];
    if (rate > 0.0) {
      if (std::isfinite(rate)) route.moved += rate * us;
      // Done when what is left is a rounding of what it moved (the event was its end), or would
      // take less than a moment: at a late clock a moment is below its rounding, and a flow
      // left with a few rounded bytes would never see the clock move on to its end.
      while (!route.moving.empty()) {
        const Moving& first = route.moving.front();
        const double left = first.ends_at - route.moved;
        if (std::isfinite(rate) && left > 1e-9 * (first.bytes + 1.0) && left > rate * kSameMomentUs) break;
        std::pop_heap(route.moving.begin(), route.moving.end(), std::greater<>());
        route.count -= route.moving.back().count;
        finish(route.moving.back(), ended);
        route.moving.pop_back();
      }
    }
    if (route.moving.empty()) {
      route.count = 0.0;
      route.moved = 0.0;
      rate_[r] = 0.0;
      if (std::isfinite(route.rate_cap)) {
        const std::pair<double, std::size_t> entry{route.rate_cap * route.penalty, r};
        capped_in_flight_.erase(std::lower_bound(capped_in_flight_.begin(), capped_in_flight_.end(), entry));
      }
    } else {
      in_flight_[kept++] = r;
    }
  }
  in_flight_.resize(kept);
  now_us_ += us;
  while (!waiting_.empty() && waiting_.front().start_us <= now_us_ + kSameMomentUs) {
    std::pop_heap(waiting_.begin(), waiting_.end(), std::greater<>());
    begin_moving(waiting_.back().route, waiting_.back().flows);
    waiting_.pop_back();
  }
}

double FluidNetwork::step(double limit_us, std::vector<std::size_t>* ended) {
  if (unfinished_ == 0) {
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
  while (!unfinished_by_due_.empty() && unfinished_by_due_.begin()->first <= round) step(kInfinity);
  return now_us_;
}

void FluidNetwork::run_until(double us) {
  while (now_us_ < us) step(us);
}

std::vector<double> FluidNetwork::rates_now() {
  share();
  std::vector<char> waiting(classes_added_, 0);
  for (const Waiting& w : waiting_) waiting[w.flows.id] = 1;
  std::vector<double> rates;
  for (std::size_t id = 0; id < classes_added_; ++id) {
    if (route_of_id_[id] >= 0) rates.push_back(waiting[id] ? 0.0 : rate_[static_cast<std::size_t>(route_of_id_[id])]);
  }
  return rates;
}

}  // namespace topocoll
