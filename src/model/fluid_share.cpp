#include "model/fluid_share.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <tuple>
#include <type_traits>
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
  }
  return at->second;
}

void FluidNetwork::begin_moving(std::size_t r, Moving flows) {
  // InFlight points into a route's uses: routes_ must move its routes when it grows, never copy.
  static_assert(std::is_nothrow_move_constructible_v<Route>);
  Route& route = routes_[r];
  if (route.slot == kNoSlot) {
    route.slot = in_flight_.size();
    users_valid_ = false;
    if (std::isfinite(route.rate_cap)) capped_.emplace(route.rate_cap * route.penalty, r);
    InFlight& added = in_flight_.emplace_back();
    added.route = r;
    added.uses = route.uses.data();
    added.uses_end = route.uses.data() + route.uses.size();
    added.penalty = route.penalty;
    added.rate_cap = route.rate_cap;
  }
  InFlight& f = in_flight_[route.slot];
  flows.ends_at = f.moved + flows.bytes;
  f.count += flows.count;
  route.moving.push_back(flows);
  std::push_heap(route.moving.begin(), route.moving.end(), std::greater<>());
  f.next_end = route.moving.front().ends_at;
  f.next_bytes = route.moving.front().bytes;
}

// Weighted progressive filling over the routes in flight: every unfixed route's rate rises as
// level / penalty; the first capacity that fills (or the first route that reaches its cap)
// fixes its routes at that level, which then leave their rate's worth of every capacity they
// use to the others. The capacities wait in a heap by the level at which they fill, and the
// capped routes in order of the level of their cap: a sharing costs O(routes x uses x log
// capacities). Fixing a route only raises the level of the capacities it uses (each had room up
// to the level at which the route is fixed), so an entry that went stale is a bound from below:
// it is brought up to date only when it reaches the top, once however many routes changed it.
void FluidNetwork::share() {
  const std::size_t n = in_flight_.size(), capacities = capacity_.size();
  if (left_.size() != capacities) {
    left_.assign(capacities, 0.0);
    weight_.assign(capacities, 0.0);
    version_.assign(capacities, 0);
    users_.assign(capacities, 0);
    users_valid_ = false;
  }
  fixed_.assign(n, 0);
  std::size_t unfixed = n;
  const auto route = [&](std::size_t k) -> const InFlight& { return in_flight_[k]; };
  // The routes through each capacity, contiguous per capacity, and the capacities some route
  // uses: made anew only when a route has joined or left since the last sharing (most events end
  // a class of a route that goes on). A sharing then reads only the capacities in use.
  if (!users_valid_) {
    std::fill(users_.begin(), users_.end(), 0);
    in_use_.clear();
    for (std::size_t k = 0; k < n; ++k) {
      for (const FlowUse* use = route(k).uses; use != route(k).uses_end; ++use) {
        const auto c = static_cast<std::size_t>(use->capacity);
        if (users_[c]++ == 0) in_use_.push_back(c);
      }
    }
    first_user_.assign(capacities + 1, 0);
    for (std::size_t c = 0; c < capacities; ++c)
      first_user_[c + 1] = first_user_[c] + static_cast<std::size_t>(users_[c]);
    user_.resize(first_user_[capacities]);
    std::vector<std::size_t> cursor(first_user_.begin(), first_user_.end() - 1);
    for (std::size_t k = 0; k < n; ++k) {
      for (const FlowUse* use = route(k).uses; use != route(k).uses_end; ++use) {
        user_[cursor[static_cast<std::size_t>(use->capacity)]++] = k;
      }
    }
    users_valid_ = true;
  }
  for (std::size_t c : in_use_) {
    users_[c] = static_cast<int>(first_user_[c + 1] - first_user_[c]);
    left_[c] = capacity_[c];
    weight_[c] = 0.0;
    version_[c] = 0;
  }
  for (std::size_t k = 0; k < n; ++k) {
    const InFlight& f = route(k);
    const double weight = f.count / f.penalty;
    for (const FlowUse* use = f.uses; use != f.uses_end; ++use) {
      weight_[static_cast<std::size_t>(use->capacity)] += use->flows_per_link * weight;
    }
  }
  // The capped routes in flight, by the level of their cap; the level only rises, so the next
  // cap to bind is past those already read, and the walk stops at the first cap above the level:
  // few caps bind in most sharings.
  auto next_cap = capped_.begin();
  const auto slot_of = [&](auto cap) { return routes_[cap->second].slot; };

  // The capacities by the level at which they fill: a heap of (level, capacity, version).
  const auto later = std::greater<FillingEntry>();
  filling_.clear();
  const auto entry = [&](std::size_t c) {
    return FillingEntry{std::max(left_[c], 0.0) / weight_[c], c, version_[c]};
  };
  for (std::size_t c : in_use_) {
    if (weight_[c] > 0.0) filling_.push_back(entry(c));
  }
  std::make_heap(filling_.begin(), filling_.end(), later);
  const auto push = [&](std::size_t c) {
    if (users_[c] > 0 && weight_[c] > 0.0) {
      filling_.push_back(entry(c));
      std::push_heap(filling_.begin(), filling_.end(), later);
    }
  };
  const auto pop = [&] {
    std::pop_heap(filling_.begin(), filling_.end(), later);
    filling_.pop_back();
  };
  const auto fix = [&](std::size_t k, double rate) {
    InFlight& fixed = in_flight_[k];
    fixed.rate = rate;
    fixed_[k] = 1;
    --unfixed;
    const double weight = fixed.count / fixed.penalty, used = fixed.count * rate;
    for (const FlowUse* use = fixed.uses; use != fixed.uses_end; ++use) {
      const auto c = static_cast<std::size_t>(use->capacity);
      if (std::isfinite(rate)) left_[c] -= use->flows_per_link * used;
      weight_[c] -= use->flows_per_link * weight;
      --users_[c];
      ++version_[c];
    }
  };
  while (unfixed > 0) {
    while (!filling_.empty() && std::get<2>(filling_.front()) != version_[std::get<1>(filling_.front())]) {
      const std::size_t stale = std::get<1>(filling_.front());
      pop();
      push(stale);
    }
    const double level = filling_.empty() ? kInfinity : std::get<0>(filling_.front());
    // Only the caps at or below the level can bind; the routes fixed among them are passed.
    while (next_cap != capped_.end() && next_cap->first <= level && fixed_[slot_of(next_cap)]) ++next_cap;
    if (next_cap != capped_.end() && next_cap->first <= level) {
      const double capped = next_cap->first;
      for (; next_cap != capped_.end() && next_cap->first <= capped * (1.0 + 1e-12); ++next_cap) {
        const std::size_t k = slot_of(next_cap);
        if (!fixed_[k]) fix(k, route(k).rate_cap);
      }
    } else if (std::isfinite(level)) {
      const std::size_t tight = std::get<1>(filling_.front());
      pop();
      for (std::size_t u = first_user_[tight]; u < first_user_[tight + 1]; ++u) {
        const std::size_t k = user_[u];
        if (!fixed_[k]) fix(k, level / route(k).penalty);
      }
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
  for (const InFlight& f : in_flight_) {
    if (!(f.rate > 0.0)) continue;
    next = std::min(next, now_us_ + (std::isfinite(f.rate) ? std::max(f.next_end - f.moved, 0.0) / f.rate : 0.0));
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
  bool emptied = false;
  for (InFlight& f : in_flight_) {
    if (!(f.rate > 0.0)) continue;
    if (std::isfinite(f.rate)) f.moved += f.rate * us;
    // Done when what is left is a rounding of what it moved (the event was its end), or would
    // take less than a moment: at a late clock a moment is below its rounding, and a flow left
    // with a few rounded bytes would never see the clock move on to its end.
    const auto done = [&] {
      const double left = f.next_end - f.moved;
      return !std::isfinite(f.rate) || left <= 1e-9 * (f.next_bytes + 1.0) || left <= f.rate * kSameMomentUs;
    };
    if (!done()) continue;
    Route& route = routes_[f.route];
    while (!route.moving.empty() && done()) {
      std::pop_heap(route.moving.begin(), route.moving.end(), std::greater<>());
      f.count -= route.moving.back().count;
      finish(route.moving.back(), ended);
      route.moving.pop_back();
      if (!route.moving.empty()) {
        f.next_end = route.moving.front().ends_at;
        f.next_bytes = route.moving.front().bytes;
      }
    }
    emptied = emptied || route.moving.empty();
  }
  // The routes left with no flow moving leave, the last one taking each one's place.
  for (std::size_t k = in_flight_.size(); emptied && k-- > 0;) {
    if (!routes_[in_flight_[k].route].moving.empty()) continue;
    Route& leaving = routes_[in_flight_[k].route];
    leaving.slot = kNoSlot;
    users_valid_ = false;
    if (std::isfinite(leaving.rate_cap)) capped_.erase({leaving.rate_cap * leaving.penalty, in_flight_[k].route});
    if (k + 1 != in_flight_.size()) {
      in_flight_[k] = in_flight_.back();
      routes_[in_flight_[k].route].slot = k;
    }
    in_flight_.pop_back();
  }
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
    if (route_of_id_[id] < 0) continue;
    const Route& route = routes_[static_cast<std::size_t>(route_of_id_[id])];
    rates.push_back(waiting[id] || route.slot == kNoSlot ? 0.0 : in_flight_[route.slot].rate);
  }
  return rates;
}

}  // namespace topocoll
