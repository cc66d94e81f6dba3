// linkaware: a total exchange in p - 1 phases that keeps the most flows on any link in any phase
// low, from the routes between the ranks (the network's, or the topology read as a tree:
// rank_routes.hpp), for any allocation: issue 14 part 3, beyond the multi-layer full mesh paper's
// boxes. Each phase is a permutation without fixed points (every rank sends one block and
// receives one), so the executor's one-message-per-round semantics hold; p - 1 phases because
// that is the fewest in which each rank can send its p - 1 blocks one at a time (so the bound
// below is against the same number of rounds as shift and mlfm).
//
// How: the p(p-1) transfers are bipartite edges (sender -> receiver) to colour with p - 1 phases.
// 1. Greedy: transfers whose routes cross the most crossed capacity go first (those are the ones
//    to spread evenly), each into the phase, among those where its sender and receiver are both
//    still free, where the most loaded capacity of its route is least loaded (then the least
//    total load, then the lowest phase). When no phase has both free, König's alternating path
//    (phases a, where the sender is free, and b, where the receiver is) swaps phase along a path
//    and frees the receiver in a: so p - 1 phases always suffice.
//    Where the ranks form a box of a multi-layer full mesh (their topology or their network's
//    groups say so: mlfm_job_of), mlfm's phases are the other start, kept when they load the
//    capacities no more than the greedy colouring; at the bound (one flow per link on the mesh's
//    routes) nothing is coloured or searched. The search alone does not find that exact
//    decomposition on every box (24 B: 2 flows; the full meshes of D = 3, 5, 6: 2, 4, 5).
// 2. Local search (simulated annealing, deterministic): a transfer on a capacity loaded above the
//    bound in some phase k (the pair picked at random from a list kept up to date), another
//    phase b, and the swap of k and b along the alternating cycle of their two permutations
//    through that transfer (both stay permutations; cycles of more than kMaxCycleTransfers
//    transfers of k are not tried: a long swap moves many transfers at once and rarely helps). The cost is the sum of squared loads above the bound; a swap that
//    raises it is kept with a probability that falls over the work budget. The best phases seen
//    (the fewest flows on the busiest link, then the least cost) are kept. It stops at the
//    bound or when the budget is spent; it does not always reach the bound where a schedule at
//    the bound exists (docs/algorithms.md lists where, on the MLFM testbed).
// Bound: a capacity crossed by F of the p(p-1) transfers carries at least ceil(F / (p-1)) flows
// in some phase; `bound` is the largest over the capacities (the tests compare against it).
// Cost (C capacities, h hops per route): routes p^2 h; greedy O(p^3 h) (every phase tried for
// each transfer) and O(p (p + C)) memory for phases and loads; the search at most
// min(kWorkPerPair p^2, kMostWork) load updates. topocoll-plan's CPU time: 0.01 s at p = 60 on
// two clusters, 0.2 s at p = 256 flat, 0.3 s at p = 256 on two clusters (100 + 156).
// Rounds: p - 1 (the local copy in the first). Messages per rank: p - 1, one per round. Bytes per
// rank: (p-1)*B; alltoallv: its own blocks in the same phases (the phases ignore sizes).
#include "algorithms/linkaware.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <optional>
#include <tuple>
#include <utility>

#include "algorithms/mlfm.hpp"

namespace topocoll {

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

struct Move {
  int from = 0;
  int to = 0;
};

// A phase puts at most one flow per transfer on each capacity of its route, so no load exceeds
// p times the longest route.
std::size_t longest_route(const RankRoutes& routes) {
  std::size_t longest = 1;
  for (int from = 0; from < routes.size(); ++from) {
    for (int to = 0; to < routes.size(); ++to) longest = std::max(longest, routes.route(from, to).size());
  }
  return longest;
}

using Phases = std::vector<std::vector<int>>;  // [phase][rank]: whom the rank sends to

class PhaseBuilder {
 public:
  PhaseBuilder(const RankRoutes& routes, const std::vector<long long>& crossed)
      : routes_(routes),
        p_(routes.size()),
        phases_(p_ - 1),
        capacities_(routes.capacities()),
        destination_(static_cast<std::size_t>(phases_), std::vector<int>(static_cast<std::size_t>(p_), -1)),
        source_(destination_),
        load_(static_cast<std::size_t>(phases_) * static_cast<std::size_t>(capacities_), 0),
        histogram_(static_cast<std::size_t>(p_) * longest_route(routes) + 2, 0),
        overloaded_at_(load_.size(), -1),
        target_(bound_of(crossed)) {
    histogram_[0] = static_cast<long long>(load_.size());
  }

  // Every transfer placed as `phases` place them (p - 1 permutations without fixed points).
  void place(const Phases& phases) {
    for (int k = 0; k < phases_; ++k) {
      for (int from = 0; from < p_; ++from) add(k, from, phases[static_cast<std::size_t>(k)][static_cast<std::size_t>(from)]);
    }
  }
  // How far the placed phases are from the bound: the most flows on a capacity, then the cost.
  std::pair<int, long long> score() const { return {worst(), excess_}; }
  bool at_bound() const { return excess_ == 0; }

  // The local search from the placed phases, and the best phases it saw.
  LinkawarePhases finish(bool structured) {
    LinkawarePhases phases;
    phases.worst_load = improve();
    phases.bound = target_;
    phases.destination = destination_;
    phases.source = source_;
    phases.from_structured = structured;
    return phases;
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
  void add(int phase, int from, int to) {
    destination_[static_cast<std::size_t>(phase)][static_cast<std::size_t>(from)] = to;
    source_[static_cast<std::size_t>(phase)][static_cast<std::size_t>(to)] = from;
    for (const int c : routes_.route(from, to)) bump(phase, c, +1);
  }
  void remove(int phase, int from, int to) {
    destination_[static_cast<std::size_t>(phase)][static_cast<std::size_t>(from)] = -1;
    source_[static_cast<std::size_t>(phase)][static_cast<std::size_t>(to)] = -1;
    for (const int c : routes_.route(from, to)) bump(phase, c, -1);
  }
  int sends_to(int phase, int from) const { return destination_[static_cast<std::size_t>(phase)][static_cast<std::size_t>(from)]; }
  int receives_from(int phase, int to) const { return source_[static_cast<std::size_t>(phase)][static_cast<std::size_t>(to)]; }

  // What adding transfer from -> to to `phase` costs: the most loaded capacity of its route
  // afterwards, then the total load it meets.
  std::pair<int, long long> cost_in(int phase, int from, int to) {
    int most = 0;
    long long total = 0;
    for (const int c : routes_.route(from, to)) {
      most = std::max(most, load(phase, c) + 1);
      total += load(phase, c);
    }
    return {most, total};
  }

  // Moves `a_moves` from phase a to b and `b_moves` from b to a (a Kempe swap).
  void swap_phases(int a, int b, const std::vector<Move>& a_moves, const std::vector<Move>& b_moves) {
    for (const Move& m : a_moves) remove(a, m.from, m.to);
    for (const Move& m : b_moves) remove(b, m.from, m.to);
    for (const Move& m : a_moves) add(b, m.from, m.to);
    for (const Move& m : b_moves) add(a, m.from, m.to);
  }

 public:
  // The greedy colouring (the header's step 1), every transfer placed.
  void place_greedily(const std::vector<long long>& crossed) {
    struct Pending {
      long long most_crossed = 0;
      long long crossings = 0;
      Move move;
    };
    std::vector<Pending> pending;
    pending.reserve(static_cast<std::size_t>(p_) * static_cast<std::size_t>(p_ - 1));
    for (int from = 0; from < p_; ++from) {
      for (int to = 0; to < p_; ++to) {
        if (from == to) continue;
        Pending t{0, 0, {from, to}};
        for (const int c : routes_.route(from, to)) {
          t.most_crossed = std::max(t.most_crossed, crossed[static_cast<std::size_t>(c)]);
          t.crossings += crossed[static_cast<std::size_t>(c)];
        }
        pending.push_back(t);
      }
    }
    std::stable_sort(pending.begin(), pending.end(), [](const Pending& x, const Pending& y) {
      return std::tie(y.most_crossed, y.crossings) < std::tie(x.most_crossed, x.crossings);
    });
    for (const Pending& t : pending) {
      const auto [from, to] = t.move;
      int best = -1;
      std::pair<int, long long> best_cost;
      for (int k = 0; k < phases_; ++k) {
        if (sends_to(k, from) >= 0 || receives_from(k, to) >= 0) continue;
        const std::pair<int, long long> cost = cost_in(k, from, to);
        if (best < 0 || cost < best_cost) best = k, best_cost = cost;
      }
      if (best < 0) best = make_room(from, to);
      add(best, from, to);
    }
  }

 private:
  // A phase where `from` and `to` are both free, made by swapping two phases along an
  // alternating path (König): a, the cheapest phase where `from` is free; b, the first where `to`
  // is. `to` is busy in a; the path from `to` alternates a and b and cannot reach `from` (it
  // enters senders by a-edges, and `from` has none), so after the swap both are free in a.
  int make_room(int from, int to) {
    int a = -1, b = -1;
    std::pair<int, long long> a_cost;
    for (int k = 0; k < phases_; ++k) {
      if (sends_to(k, from) < 0) {
        const std::pair<int, long long> cost = cost_in(k, from, to);
        if (a < 0 || cost < a_cost) a = k, a_cost = cost;
      }
      if (b < 0 && receives_from(k, to) < 0) b = k;
    }
    // Each rank has fewer than p - 1 transfers placed, so both exist.
    std::vector<Move> a_moves, b_moves;
    for (int receiver = to;;) {
      const int sender = receives_from(a, receiver);
      if (sender < 0) break;
      a_moves.push_back({sender, receiver});
      const int next = sends_to(b, sender);
      if (next < 0) break;
      b_moves.push_back({sender, next});
      receiver = next;
    }
    swap_phases(a, b, a_moves, b_moves);
    return a;
  }

  // The alternating cycle of phases k and b through transfer `start` of phase k (all phases are
  // full permutations by now): k's transfers in it, and b's.
  bool cycle_through(int k, int b, Move start, std::vector<Move>& k_moves, std::vector<Move>& b_moves) {
    k_moves.clear();
    b_moves.clear();
    for (Move edge = start;;) {
      k_moves.push_back(edge);
      const int sender = receives_from(b, edge.to);
      b_moves.push_back({sender, edge.to});
      ++work_;
      if (sender == start.from) return true;
      if (static_cast<int>(k_moves.size()) >= kMaxCycleTransfers) return false;
      edge = {sender, sends_to(k, sender)};
    }
  }

  // An overloaded (phase, capacity) entry picked at random, and a transfer of that phase that
  // crosses that capacity, looking from a random sender on.
  std::pair<int, Move> overloaded_transfer() {
    const std::size_t entry = overloaded_[next_random() % overloaded_.size()];
    const int k = static_cast<int>(entry / static_cast<std::size_t>(capacities_));
    const int c = static_cast<int>(entry % static_cast<std::size_t>(capacities_));
    const int first = static_cast<int>(next_random() % static_cast<std::uint64_t>(p_));
    for (int i = 0;; ++i) {  // the capacity is loaded in phase k, so some transfer crosses it
      const int from = (first + i) % p_;
      const std::span<const int> route = routes_.route(from, sends_to(k, from));
      work_ += static_cast<long long>(route.size());
      if (std::find(route.begin(), route.end(), c) != route.end()) return {k, {from, sends_to(k, from)}};
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
    const long long budget = work_ + std::min(kWorkPerPair * p_ * p_, kMostWork);
    const long long start = work_;
    std::pair<int, long long> best{worst(), excess_};
    std::vector<std::vector<int>> best_destination = destination_, best_source = source_;
    std::vector<Move> k_moves, b_moves;
    while (phases_ > 1 && excess_ > 0 && work_ < budget) {
      const auto [k, move] = overloaded_transfer();
      const int b = (k + 1 + static_cast<int>(next_random() % static_cast<std::uint64_t>(phases_ - 1))) % phases_;
      if (!cycle_through(k, b, move, k_moves, b_moves)) continue;
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
        best_destination = destination_;
        best_source = source_;
      }
    }
    destination_ = std::move(best_destination);
    source_ = std::move(best_source);
    return best.first;
  }

  const RankRoutes& routes_;
  int p_;
  int phases_;
  int capacities_;
  std::vector<std::vector<int>> destination_;  // [phase][rank], -1: not placed yet
  std::vector<std::vector<int>> source_;
  std::vector<int> load_;               // [phase * capacities + capacity]: flows
  std::vector<long long> histogram_;    // how many (phase, capacity) pairs carry each load
  std::vector<int> overloaded_at_;      // [phase * capacities + capacity]: its place in overloaded_, or -1
  std::vector<std::size_t> overloaded_;  // the entries loaded above the target
  long long work_ = 0;                  // load updates so far
  int target_ = 0;                      // the bound: loads above it are the excess
  long long excess_ = 0;                // sum over (phase, capacity) of (load - target)^2 above it
  std::uint64_t random_ = 0x9e3779b97f4a7c15ULL;
};

// Whether `phases` are p - 1 permutations without fixed points that send every transfer once.
bool is_total_exchange(const Phases& phases, int p) {
  if (phases.size() != static_cast<std::size_t>(p - 1)) return false;
  std::vector<char> sent(static_cast<std::size_t>(p) * static_cast<std::size_t>(p), 0);
  for (const std::vector<int>& phase : phases) {
    if (phase.size() != static_cast<std::size_t>(p)) return false;
    std::vector<char> received(static_cast<std::size_t>(p), 0);
    for (int from = 0; from < p; ++from) {
      const int to = phase[static_cast<std::size_t>(from)];
      if (to < 0 || to >= p || to == from || received[static_cast<std::size_t>(to)]++) return false;
      if (sent[static_cast<std::size_t>(from) * static_cast<std::size_t>(p) + static_cast<std::size_t>(to)]++) return false;
    }
  }
  return true;
}

// The search's start: `structured` where it loads the capacities no more than the greedy
// colouring (it is not coloured at all when it is at the bound already), else the colouring.
// Phases that are no total exchange are not a start.
LinkawarePhases build_phases(const RankRoutes& routes, const Phases& structured) {
  const std::vector<long long> crossed = routes.crossings();
  std::optional<PhaseBuilder> start;
  if (is_total_exchange(structured, routes.size())) {
    start.emplace(routes, crossed);
    start->place(structured);
    if (start->at_bound()) return start->finish(true);
  }
  PhaseBuilder greedy(routes, crossed);
  greedy.place_greedily(crossed);
  if (start && start->score() <= greedy.score()) return start->finish(true);
  return greedy.finish(false);
}

class LinkawarePlan final : public RoundPlan {
 public:
  LinkawarePlan(const Problem& problem, LinkawarePhases phases) : problem_(problem), phases_(std::move(phases)) {}
  std::size_t rounds(int) const override { return std::max<std::size_t>(1, phases_.destination.size()); }
  void emit(int rank, std::size_t round, RoundSink& sink) const override {
    if (round == 0) sink.copy(problem_.send_segment(rank, rank), problem_.recv_segment(rank, rank));
    if (phases_.destination.empty()) return;  // one rank: the copy only
    const int to = phases_.destination[round][static_cast<std::size_t>(rank)];
    const int from = phases_.source[round][static_cast<std::size_t>(rank)];
    sink.recv(from, problem_.recv_segment(rank, from));
    sink.send(to, problem_.send_segment(rank, to));
  }

 private:
  Problem problem_;
  LinkawarePhases phases_;
};

}  // namespace

LinkawarePhases linkaware_phases(const RankRoutes& routes, const std::vector<std::vector<int>>& structured) {
  if (routes.size() < 2) return {};
  // The phases depend on the routes alone, not on the block size, and building them is the
  // costly part (0.1 s at p = 24 on the MLFM testbed, where the search's budget is spent): a
  // sweep over sizes on one communicator reuses the last phases built. Comparing the routes costs
  // O(p^2 h), which building them cost already.
  struct Built {
    RankRoutes routes;
    Phases structured;
    LinkawarePhases phases;
  };
  static std::mutex guard;
  static std::optional<Built> last;
  {
    const std::lock_guard<std::mutex> lock(guard);
    if (last && last->routes.same_routes(routes) && last->structured == structured) return last->phases;
  }
  LinkawarePhases phases = build_phases(routes, structured);
  const std::lock_guard<std::mutex> lock(guard);
  last.emplace(Built{routes, structured, phases});
  return phases;
}

Applicability supports_linkaware(const Problem& problem) {
  std::string why_not;
  if (!rank_routes(problem, &why_not)) return {false, "linkaware " + why_not};
  return {};
}

std::unique_ptr<RoundPlan> plan_linkaware(const Problem& problem) {
  const std::optional<RankRoutes> routes = rank_routes(problem, nullptr);
  if (!routes) return nullptr;  // supports() says why
  // Where the ranks form a box of a multi-layer full mesh, mlfm's phases are one flow per link
  // on the mesh's routes: the search starts from them (at the bound it has nothing to do).
  const std::optional<MlfmJob> box = mlfm_job_of(problem);
  return std::make_unique<LinkawarePlan>(problem, linkaware_phases(*routes, box ? mlfm_destinations(*box) : Phases{}));
}

}  // namespace topocoll
