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
#pragma once

#include <cstddef>
#include <limits>
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
  // Flows that start no earlier than now_us() (an earlier start is moved to now); returns the
  // class's id (0, 1, 2... in the order added), which step() reports when its flows end.
  std::size_t add(FlowClass flows);
  double now_us() const { return now_us_; }
  bool idle() const { return flows_.empty(); }
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
  void share();
  // Moves every flow on by `us` at its rate; drops the finished ones (their ids into `ended`).
  void advance(double us, std::vector<std::size_t>* ended);
  bool started(const FlowClass& flows) const;
  // The next start or end of a class after now (infinity when nothing moves or waits).
  double next_event_us() const;

  std::vector<double> capacity_;  // bytes/us per link
  std::vector<FlowClass> flows_;
  std::vector<std::size_t> ids_;  // of flows_[i]
  std::vector<double> rate_;      // per flow of flows_[i]
  double now_us_ = 0.0;
  std::size_t events_ = 0;
  std::size_t classes_added_ = 0;
  // Scratch for share().
  std::vector<double> left_, weight_;
  std::vector<int> users_;
  std::vector<unsigned> version_;
  std::vector<std::size_t> first_user_, user_, capped_, touched_;
  std::vector<char> fixed_;
};

}  // namespace topocoll
