// linkaware's colouring of transfers (transfer_colouring.hpp; the method is described in
// linkaware.cpp's header): a greedy colouring, König's alternating paths where it is stuck, and
// simulated annealing over Kempe swaps of two phases.
#include "algorithms/transfer_colouring.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <tuple>
#include <utility>

namespace topocoll {

void TransferGraph::add(int from, int to, std::span<const int> capacities_crossed) {
  if (first.empty()) first.push_back(0);
  sender.push_back(from);
  receiver.push_back(to);
  ids.insert(ids.end(), capacities_crossed.begin(), capacities_crossed.end());
  first.push_back(ids.size());
}

TransferGraph transfers_of(const RankRoutes& routes) {
  TransferGraph graph;
  graph.classes = routes.size();
  graph.phases = routes.size() - 1;
  graph.capacities = routes.capacities();
  for (int from = 0; from < routes.size(); ++from) {
    for (int to = 0; to < routes.size(); ++to) {
      if (from != to) graph.add(from, to, routes.route(from, to));
    }
  }
  return graph;
}

namespace {

// Longer alternating cycles are not tried by the local search: a swap along them moves many
// transfers at once and rarely lowers a load, and skipping them bounds the cost of a try.
constexpr int kMaxCycleTransfers = 12;
// Load updates the local search may spend per ordered pair of ranks, and in all (the cap keeps a
// few hundred ranks under a second; below it, small jobs get a long search, which they need to
// reach the bound on the MLFM testbed's boxes).
constexpr long long kWorkPerPair = 40000;
constexpr long long kMostWork = 30'000'000;
// The annealing's temperatures, in units of the cost (squared flows above the bound).
constexpr double kFirstTemperature = 1.0;
constexpr double kLastTemperature = 0.05;

using Table = std::vector<std::vector<int>>;  // [phase][class]: a transfer, -1 for none

// A phase puts at most one flow per message on each capacity of its transfers' routes, so no
// load exceeds the classes times the longest route.
std::size_t longest_route(const TransferGraph& graph) {
  std::size_t longest = 1;
  for (int t = 0; t < graph.transfers(); ++t) longest = std::max(longest, graph.route(t).size());
  return longest;
}

// Whether `table` colours `graph`: every phase a perfect matching of its transfers, every
// transfer in one phase.
bool is_colouring(const Table& table, const TransferGraph& graph) {
  if (table.size() != static_cast<std::size_t>(graph.phases)) return false;
  std::vector<char> used(static_cast<std::size_t>(graph.transfers()), 0);
  for (const std::vector<int>& phase : table) {
    if (phase.size() != static_cast<std::size_t>(graph.classes)) return false;
    std::vector<char> received(static_cast<std::size_t>(graph.classes), 0);
    for (int c = 0; c < graph.classes; ++c) {
      const int t = phase[static_cast<std::size_t>(c)];
      if (t < 0 || t >= graph.transfers() || graph.sender[static_cast<std::size_t>(t)] != c) return false;
      if (received[static_cast<std::size_t>(graph.receiver[static_cast<std::size_t>(t)])]++) return false;
      if (used[static_cast<std::size_t>(t)]++) return false;
    }
  }
  return true;
}

class PhaseBuilder {
 public:
  PhaseBuilder(const TransferGraph& graph, const std::vector<long long>& crossed, int ranks)
      : graph_(graph),
        classes_(graph.classes),
        phases_(graph.phases),
        capacities_(graph.capacities),
        ranks_(ranks),
        out_(static_cast<std::size_t>(phases_), std::vector<int>(static_cast<std::size_t>(classes_), -1)),
        in_(out_),
        load_(static_cast<std::size_t>(phases_) * static_cast<std::size_t>(capacities_), 0),
        histogram_(static_cast<std::size_t>(classes_) * longest_route(graph) + 2, 0),
        overloaded_at_(load_.size(), -1),
        target_(bound_of(crossed)) {
    histogram_[0] = static_cast<long long>(load_.size());
  }

  // Every transfer placed as `table` places it (a colouring).
  void place(const Table& table) {
    for (int k = 0; k < phases_; ++k) {
      for (const int t : table[static_cast<std::size_t>(k)]) add(k, t);
    }
  }
  // How far the placed phases are from the bound: the most flows on a capacity, then the cost.
  std::pair<int, long long> score() const { return {worst(), excess_}; }
  bool at_bound() const { return excess_ == 0; }

  // The greedy colouring (linkaware.cpp's step 1), every transfer placed.
  void place_greedily(const std::vector<long long>& crossed) {
    struct Pending {
      long long most_crossed = 0;
      long long crossings = 0;
      int transfer = 0;
    };
    std::vector<Pending> pending;
    pending.reserve(static_cast<std::size_t>(graph_.transfers()));
    for (int t = 0; t < graph_.transfers(); ++t) {
      Pending p{0, 0, t};
      for (const int c : graph_.route(t)) {
        p.most_crossed = std::max(p.most_crossed, crossed[static_cast<std::size_t>(c)]);
        p.crossings += crossed[static_cast<std::size_t>(c)];
      }
      pending.push_back(p);
    }
    std::stable_sort(pending.begin(), pending.end(), [](const Pending& x, const Pending& y) {
      return std::tie(y.most_crossed, y.crossings) < std::tie(x.most_crossed, x.crossings);
    });
    for (const Pending& p : pending) {
      int best = -1;
      std::pair<int, long long> best_cost;
      for (int k = 0; k < phases_; ++k) {
        if (sends(k, sender(p.transfer)) >= 0 || receives(k, receiver(p.transfer)) >= 0) continue;
        const std::pair<int, long long> cost = cost_in(k, p.transfer);
        if (best < 0 || cost < best_cost) best = k, best_cost = cost;
      }
      if (best < 0) best = make_room(p.transfer);
      add(best, p.transfer);
    }
  }

  // The local search from the placed phases, and the best phases it saw.
  TransferColouring finish(bool from_start) {
    TransferColouring colouring;
    colouring.worst_load = improve();
    colouring.bound = target_;
    colouring.transfer = out_;
    colouring.from_start = from_start;
    return colouring;
  }

 private:
  int& load(int phase, int capacity) {
    return load_[static_cast<std::size_t>(phase) * static_cast<std::size_t>(capacities_) + static_cast<std::size_t>(capacity)];
  }
  int worst() const {
    int m = static_cast<int>(histogram_.size()) - 1;
    while (m > 0 && histogram_[static_cast<std::size_t>(m)] == 0) --m;
    return m;
  }
  int bound_of(const std::vector<long long>& crossed) const {
    const long long most = crossed.empty() ? 0 : *std::max_element(crossed.begin(), crossed.end());
    return static_cast<int>((most + phases_ - 1) / phases_);
  }
  int sender(int t) const { return graph_.sender[static_cast<std::size_t>(t)]; }
  int receiver(int t) const { return graph_.receiver[static_cast<std::size_t>(t)]; }
  // The transfer `c` sends (receives) in `phase`, or -1.
  int sends(int phase, int c) const { return out_[static_cast<std::size_t>(phase)][static_cast<std::size_t>(c)]; }
  int receives(int phase, int c) const { return in_[static_cast<std::size_t>(phase)][static_cast<std::size_t>(c)]; }

  void bump(int phase, int capacity, int delta) {
    int& v = load(phase, capacity);
    --histogram_[static_cast<std::size_t>(v)];
    const auto over = [this](int load) { return load > target_ ? static_cast<long long>(load - target_) * (load - target_) : 0; };
    excess_ -= over(v);
    v += delta;
    excess_ += over(v);
    mark_overloaded(static_cast<std::size_t>(phase) * static_cast<std::size_t>(capacities_) + static_cast<std::size_t>(capacity),
                    v > target_);
    ++histogram_[static_cast<std::size_t>(v)];
    ++work_;
  }
  // Keeps overloaded_ the list of (phase, capacity) entries above the target, so that the search
  // picks one at once instead of scanning phases that have none.
  void mark_overloaded(std::size_t entry, bool overloaded) {
    int& at = overloaded_at_[entry];
    if (overloaded && at < 0) {
      at = static_cast<int>(overloaded_.size());
      overloaded_.push_back(entry);
    } else if (!overloaded && at >= 0) {
      overloaded_at_[overloaded_.back()] = at;
      overloaded_[static_cast<std::size_t>(at)] = overloaded_.back();
      overloaded_.pop_back();
      at = -1;
    }
  }
  void add(int phase, int t) {
    out_[static_cast<std::size_t>(phase)][static_cast<std::size_t>(sender(t))] = t;
    in_[static_cast<std::size_t>(phase)][static_cast<std::size_t>(receiver(t))] = t;
    for (const int c : graph_.route(t)) bump(phase, c, +1);
  }
  void remove(int phase, int t) {
    out_[static_cast<std::size_t>(phase)][static_cast<std::size_t>(sender(t))] = -1;
    in_[static_cast<std::size_t>(phase)][static_cast<std::size_t>(receiver(t))] = -1;
    for (const int c : graph_.route(t)) bump(phase, c, -1);
  }

  // What adding transfer t to `phase` costs: the most loaded capacity of its route afterwards,
  // then the total load it meets.
  std::pair<int, long long> cost_in(int phase, int t) {
    int most = 0;
    long long total = 0;
    for (const int c : graph_.route(t)) {
      most = std::max(most, load(phase, c) + 1);
      total += load(phase, c);
    }
    return {most, total};
  }

  // Moves `a_moves` from phase a to b and `b_moves` from b to a (a Kempe swap).
  void swap_phases(int a, int b, const std::vector<int>& a_moves, const std::vector<int>& b_moves) {
    for (const int t : a_moves) remove(a, t);
    for (const int t : b_moves) remove(b, t);
    for (const int t : a_moves) add(b, t);
    for (const int t : b_moves) add(a, t);
  }

  // A phase where transfer t's sender and receiver are both free, made by swapping two phases
  // along an alternating path (König): a, the cheapest phase where the sender is free; b, the
  // first where the receiver is. The receiver is busy in a; the path from it alternates a and b
  // and cannot reach the sender (it enters senders by a-transfers, and the sender has none), so
  // after the swap both are free in a.
  int make_room(int t) {
    int a = -1, b = -1;
    std::pair<int, long long> a_cost;
    for (int k = 0; k < phases_; ++k) {
      if (sends(k, sender(t)) < 0) {
        const std::pair<int, long long> cost = cost_in(k, t);
        if (a < 0 || cost < a_cost) a = k, a_cost = cost;
      }
      if (b < 0 && receives(k, receiver(t)) < 0) b = k;
    }
    // Each class has fewer than `phases` transfers placed each way, so both exist.
    std::vector<int> a_moves, b_moves;
    for (int to = receiver(t);;) {
      const int in_a = receives(a, to);
      if (in_a < 0) break;
      a_moves.push_back(in_a);
      const int in_b = sends(b, sender(in_a));
      if (in_b < 0) break;
      b_moves.push_back(in_b);
      to = receiver(in_b);
    }
    swap_phases(a, b, a_moves, b_moves);
    return a;
  }

  // The alternating cycle of phases k and b through transfer `start` of phase k (all phases are
  // full matchings by now): k's transfers in it, and b's.
  bool cycle_through(int k, int b, int start, std::vector<int>& k_moves, std::vector<int>& b_moves) {
    k_moves.clear();
    b_moves.clear();
    for (int t = start;;) {
      k_moves.push_back(t);
      const int in_b = receives(b, receiver(t));
      b_moves.push_back(in_b);
      ++work_;
      if (sender(in_b) == sender(start)) return true;
      if (static_cast<int>(k_moves.size()) >= kMaxCycleTransfers) return false;
      t = sends(k, sender(in_b));
    }
  }

  // An overloaded (phase, capacity) entry picked at random, and a transfer of that phase that
  // crosses that capacity, looking from a random sender on.
  std::pair<int, int> overloaded_transfer() {
    const std::size_t entry = overloaded_[next_random() % overloaded_.size()];
    const int k = static_cast<int>(entry / static_cast<std::size_t>(capacities_));
    const int c = static_cast<int>(entry % static_cast<std::size_t>(capacities_));
    const int first = static_cast<int>(next_random() % static_cast<std::uint64_t>(classes_));
    for (int i = 0;; ++i) {  // the capacity is loaded in phase k, so some transfer crosses it
      const int t = sends(k, (first + i) % classes_);
      const std::span<const int> route = graph_.route(t);
      work_ += static_cast<long long>(route.size());
      if (std::find(route.begin(), route.end(), c) != route.end()) return {k, t};
    }
  }

  std::uint64_t next_random() {  // xorshift64: the same sequence on every rank
    random_ ^= random_ << 13;
    random_ ^= random_ >> 7;
    random_ ^= random_ << 17;
    return random_;
  }

  // Simulated annealing over Kempe swaps: a transfer on an overloaded capacity of a phase k
  // (overloaded_transfer), another phase b, and the swap of k and b along their alternating cycle
  // through it. The cost is the sum over (phase, capacity) of the squared excess over the target
  // (the bound); a swap that raises it by d is kept with probability exp(-d / temperature), the
  // temperature falling geometrically over the work budget. The best phases seen (fewest flows on
  // the worst link, then the least cost) are the result; returns their worst load (the loads
  // kept in this object are those of the last phases tried, not the best's).
  int improve() {
    const long long budget = work_ + std::min(kWorkPerPair * ranks_ * ranks_, kMostWork);
    const long long start = work_;
    std::pair<int, long long> best{worst(), excess_};
    Table best_out = out_, best_in = in_;
    std::vector<int> k_moves, b_moves;
    while (phases_ > 1 && excess_ > 0 && work_ < budget) {
      const auto [k, t] = overloaded_transfer();
      const int b = (k + 1 + static_cast<int>(next_random() % static_cast<std::uint64_t>(phases_ - 1))) % phases_;
      if (!cycle_through(k, b, t, k_moves, b_moves)) continue;
      const long long before = excess_;
      swap_phases(k, b, k_moves, b_moves);
      const long long rise = excess_ - before;
      const double progress = static_cast<double>(work_ - start) / static_cast<double>(budget - start);
      const double temperature = kFirstTemperature * std::pow(kLastTemperature / kFirstTemperature, progress);
      if (rise > 0 && static_cast<double>(next_random() % 1000000) / 1e6 >= std::exp(-static_cast<double>(rise) / temperature)) {
        swap_phases(b, k, k_moves, b_moves);  // undo: k_moves sit in b now, b_moves in k
        continue;
      }
      const std::pair<int, long long> now{worst(), excess_};
      if (now < best) {
        best = now;
        best_out = out_;
        best_in = in_;
      }
    }
    out_ = std::move(best_out);
    in_ = std::move(best_in);
    return best.first;
  }

  const TransferGraph& graph_;
  int classes_;
  int phases_;
  int capacities_;
  long long ranks_;
  Table out_;  // [phase][class]: the transfer it sends, -1: not placed yet
  Table in_;   // [phase][class]: the transfer it receives
  std::vector<int> load_;               // [phase * capacities + capacity]: flows
  std::vector<long long> histogram_;    // how many (phase, capacity) pairs carry each load
  std::vector<int> overloaded_at_;      // [phase * capacities + capacity]: its place in overloaded_, or -1
  std::vector<std::size_t> overloaded_;  // the entries loaded above the target
  long long work_ = 0;                  // load updates so far
  int target_ = 0;                      // the bound: loads above it are the excess
  long long excess_ = 0;                // sum over (phase, capacity) of (load - target)^2 above it
  std::uint64_t random_ = 0x9e3779b97f4a7c15ULL;
};

}  // namespace

TransferColouring colour_transfers(const TransferGraph& graph, const std::vector<long long>& crossed, int ranks,
                                   const std::vector<std::vector<int>>& start) {
  std::optional<PhaseBuilder> given;
  if (is_colouring(start, graph)) {
    given.emplace(graph, crossed, ranks);
    given->place(start);
    if (given->at_bound()) return given->finish(true);
  }
  PhaseBuilder greedy(graph, crossed, ranks);
  greedy.place_greedily(crossed);
  if (given && given->score() <= greedy.score()) return given->finish(true);
  return greedy.finish(false);
}

}  // namespace topocoll
