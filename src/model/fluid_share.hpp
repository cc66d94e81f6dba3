// A fluid network: flows that share capacities max-min, in time, as SimGrid's flow-level
// models share links (../shared/SIMGRID-NOTES.md): no packets and no queues; a flow moves no
// data before its start (its route's latency after it is posted), then moves at the rate a
// weighted progressive filling gives it (SimGrid's lmm: rates rise as 1 / penalty until a
// capacity is full or a flow reaches its own cap), and every start or end of a flow shares the
// capacities anew.
//
// Flows are told in classes: `count` flows alike (same bytes, start, penalty, cap and route
// shape), and each capacity may stand for several links alike (the links of one role in one
// cluster: every host's link up, say). A class's use of a capacity is the flows it puts on ONE
// of those links: count x crossings / links. Reading links alike so assumes that the traffic
// spreads evenly over them, which symmetric schedules on symmetric platforms do; read with one
// capacity per link, the model is plain max-min. Either way its work grows with the classes,
// not with the flows: a total exchange of p ranks is a few classes per rank read.
//
// Inside, the classes of one route (the same capacities, uses per flow, penalty and cap) are
// shared as one, whatever their bytes and starts: max-min gives every flow of a route the same
// rate, so they differ only in when they end. Each route keeps the bytes one of its flows has
// moved since it last had none moving, and each class ends once that mark has grown by the
// class's bytes since the class began (a heap by that end mark). A sharing then costs
// O(routes in flight), not O(classes in flight): skewed traffic, whose flows rarely end
// together, keeps as few routes in flight as there are pairs of hosts.
#pragma once

#include <cstddef>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace topocoll {

struct FlowUse {
  int capacity = 0;
  double flows_per_link = 0.0;
};

struct FlowClass {
  double count = 1.0;     // flows alike (a sampled rank's flows stand for its weight in ranks)
  double bytes = 0.0;     // each flow's bytes still to move
  double start_us = 0.0;  // when its flows start moving data
  double penalty = 1.0;   // SimGrid's sharing penalty: at one level, rates go as 1 / penalty
  double rate_cap = std::numeric_limits<double>::infinity();  // bytes/us of one flow at most
  std::size_t due = 0;                                        // the round by whose end the flows have completed
  std::vector<FlowUse> uses;
};

class FluidNetwork {
 public:
  // A capacity of `bytes_per_us` (> 0) per link it stands for; returns its id.
  int add_capacity(double bytes_per_us);
  // The capacity `id`'s bytes/us per link.
  double capacity(int id) const { return capacity_[static_cast<std::size_t>(id)]; }
  // Flows that start no earlier than now_us() (an earlier start is moved to now); returns the
  // class's id (0, 1, 2... in the order added), which step() reports when its flows end.
  std::size_t add(FlowClass flows);
  double now_us() const { return now_us_; }
  bool idle() const { return unfinished_ == 0; }
  // Shares the capacities and lets time pass to the next start or end of a class, or to `limit_us`
  // if that comes first; the ids of the classes that ended are appended to `ended`. Returns the
  // time reached (infinity when no flow is left and `limit_us` is infinite).
  double step(double limit_us, std::vector<std::size_t>* ended = nullptr);
  // Lets time pass, sharing the capacities, until every flow due by `round` has moved its
  // bytes; returns that time. Flows due later keep moving meanwhile, and stay.
  double run_through(std::size_t round);
  // Moves the clock on to `us` if it is later, the flows moving meanwhile.
  void run_until(double us);
  // Changes of the sharing so far (each start or end of a class): the model's work.
  std::size_t events() const { return events_; }
  std::size_t flow_classes() const { return classes_added_; }
  // Each class's rate per flow under the sharing of this moment (classes in the order added,
  // the finished ones gone), for tests.
  std::vector<double> rates_now();

 private:
  // A class still moving data: its flows stand at its route's `moved` mark when they began.
  struct Moving {
    double ends_at = 0.0;  // the route's mark at which its flows have moved their bytes
    double bytes = 0.0;    // each flow's bytes, for the end's rounding
    double count = 1.0;
    std::size_t due = 0;
    std::size_t id = 0;
    friend bool operator>(const Moving& a, const Moving& b) { return a.ends_at > b.ends_at; }
  };
  // A route's cold part: what the sharing does not read at every event.
  struct Route {
    std::vector<FlowUse> uses;  // per flow
    double penalty = 1.0;
    double rate_cap = std::numeric_limits<double>::infinity();
    std::vector<Moving> moving;  // a heap, earliest end first
    std::size_t slot = kNoSlot;  // its place in in_flight_, while it has flows moving
  };
  static constexpr std::size_t kNoSlot = static_cast<std::size_t>(-1);
  // A route with flows moving, as every event reads it (kept side by side).
  struct InFlight {
    std::size_t route = 0;
    const FlowUse* uses = nullptr;  // the route's (never changed once made)
    const FlowUse* uses_end = nullptr;
    double penalty = 1.0, rate_cap = 0.0;
    double count = 0.0;                       // flows moving now
    double moved = 0.0;                       // bytes one of its flows has moved since it last had none moving
    double rate = 0.0;                        // per flow, as last shared
    double next_end = 0.0, next_bytes = 0.0;  // the first of its classes to end: its mark, its bytes
  };
  struct Waiting {
    double start_us = 0.0;
    std::size_t route = 0;
    Moving flows;
    friend bool operator>(const Waiting& a, const Waiting& b) { return a.start_us > b.start_us; }
  };

  std::size_t route_of(const FlowClass& flows);
  void begin_moving(std::size_t route, Moving flows);
  void share();
  // Moves every route on by `us` at its rate; the classes that end are dropped (their ids into
  // `ended`), and those whose start has come begin to move.
  void advance(double us, std::vector<std::size_t>* ended);
  // The next start or end of a class after now (infinity when nothing moves or waits).
  double next_event_us() const;
  void finish(const Moving& flows, std::vector<std::size_t>* ended);

  std::vector<double> capacity_;  // bytes/us per link
  std::vector<Route> routes_;
  std::map<std::tuple<std::vector<std::pair<int, double>>, double, double>, std::size_t> route_index_;
  std::vector<InFlight> in_flight_;
  std::set<std::pair<double, std::size_t>> capped_;  // the capped routes in flight: (cap x penalty, route)
  std::vector<Waiting> waiting_;  // a heap, earliest start first
  std::vector<int> route_of_id_;  // per class id: its route, or -1 once ended (rates_now)
  std::map<std::size_t, std::size_t> unfinished_by_due_;
  std::size_t unfinished_ = 0;
  double now_us_ = 0.0;
  std::size_t events_ = 0;
  std::size_t classes_added_ = 0;
  // Scratch for share().
  std::vector<double> left_, weight_;
  std::vector<int> users_;
  std::vector<unsigned> version_;
  std::vector<std::size_t> first_user_, user_;  // kept while the routes in flight stay the same
  std::vector<std::size_t> in_use_;             // the capacities some route in flight uses, as well
  bool users_valid_ = false;
  using FillingEntry = std::tuple<double, std::size_t, unsigned>;
  std::vector<FillingEntry> filling_;
  std::vector<char> fixed_;
};

}  // namespace topocoll
