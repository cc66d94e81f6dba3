// linkaware: a total exchange in p - 1 phases that keeps the most flows on any link in any phase
// low, from the routes between the ranks (the network's, or the topology read as a tree:
// rank_routes.hpp), for any allocation: issue 14 part 3, beyond the multi-layer full mesh paper's
// boxes. Each phase is a permutation without fixed points (every rank sends one block and
// receives one), so the executor's one-message-per-round semantics hold; p - 1 phases because
// that is the fewest in which each rank can send its p - 1 blocks one at a time (so the bound
// below is against the same number of rounds as shift and mlfm).
//
// How: the p(p-1) transfers are bipartite edges (sender -> receiver) to colour with p - 1 phases
// (transfer_colouring.cpp).
// 1. Greedy: transfers whose routes cross the most crossed capacity go first (those are the ones
//    to spread evenly), each into the phase, among those where its sender and receiver are both
//    still free, where the most loaded capacity of its route is least loaded (then the least
//    total load, then the lowest phase). When no phase has both free, König's alternating path
//    (phases a, where the sender is free, and b, where the receiver is) swaps phase along a path
//    and frees the receiver in a: so p - 1 phases always suffice.
// 2. Local search (simulated annealing, deterministic): a transfer on a capacity loaded above the
//    bound in some phase k (the pair picked at random from a list kept up to date), another
//    phase b, and the swap of k and b along the alternating cycle of their two permutations
//    through that transfer (both stay permutations; cycles of more than kMaxCycleTransfers
//    transfers of k are not tried: a long swap moves many transfers at once and rarely helps).
//    The cost is the sum of squared loads above the bound; a swap that raises it is kept with a
//    probability that falls over the work budget. The best phases seen (the fewest flows on the
//    busiest link, then the least cost) are kept. It stops at the bound or when the budget is
//    spent; alone, it does not always reach the bound where a schedule at the bound exists.
// 3. Structured starts, kept where they load the capacities no more than the greedy colouring
//    (taken as they are, with nothing coloured or searched, at the bound):
//    - where the ranks form a box of a multi-layer full mesh (their topology or their network's
//      groups say so: mlfm_job_of), mlfm's phases: one flow per link on the mesh's routes, where
//      the search alone stops at 2 on 24 B and at 2, 4, 5 on the full meshes of D = 3, 5, 6;
//    - else, where they hold the same positions in every column (column_prism.hpp: the whole
//      32-server testbed, whose last layer is shorter, is such a prism and no box), phases that
//      rotate with the columns: the same colouring and search over orbits (v, w, d), the message
//      from position v of each column j to position w of column j + d, whose routes are the
//      union of the columns' routes. Rotating the columns maps the mesh onto itself, so a
//      symmetric schedule exists wherever mlfm's exists, and the search has p / columns classes
//      to place instead of p. On the whole testbed it reaches one flow per link in 0.1 s, where
//      the search over all phases stops at 2; on nearly full prisms of D = 4 (70, 75 servers) it
//      stops at 2 too.
// Bound: a capacity crossed by F of the p(p-1) transfers carries at least ceil(F / (p-1)) flows
// in some phase; `bound` is the largest over the capacities (the tests compare against it).
// Cost (C capacities, h hops per route): routes p^2 h; greedy O(p^3 h) (every phase tried for
// each transfer) and O(p (p + C)) memory for phases and loads; the search at most
// min(kWorkPerPair p^2, kMostWork) load updates (transfer_colouring.cpp); a structured start
// O(p^2 h) to place and weigh, and a prism's search the same budget again. topocoll-plan's CPU
// time: 0.01 s at p = 60 on two clusters, 0.2 s at p = 256 flat, 0.3 s at p = 256 on two
// clusters (100 + 156), 0.12 s on the whole 32-server MLFM testbed (a prism).
// Rounds: p - 1 (the local copy in the first). Messages per rank: p - 1, one per round. Bytes per
// rank: (p-1)*B; alltoallv: its own blocks in the same phases (the phases ignore sizes).
#include "algorithms/linkaware.hpp"

#include <mutex>
#include <optional>
#include <utility>

#include "algorithms/mlfm.hpp"
#include "algorithms/transfer_colouring.hpp"

namespace topocoll {

namespace {

using Phases = std::vector<std::vector<int>>;  // [phase][rank]: whom the rank sends to

// `structured` as a colouring of the transfers of transfers_of (the transfer from `from` to `to`
// is from * (p - 1) + to, less one above `from`); empty where it names no other rank.
Phases as_transfers(const Phases& structured, int p) {
  Phases table(structured.size());
  for (std::size_t k = 0; k < structured.size(); ++k) {
    if (structured[k].size() != static_cast<std::size_t>(p)) return {};
    for (int from = 0; from < p; ++from) {
      const int to = structured[k][static_cast<std::size_t>(from)];
      if (to < 0 || to >= p || to == from) return {};
      table[k].push_back(from * (p - 1) + (to < from ? to : to - 1));
    }
  }
  return table;
}

// The phases that rotate with the columns of `prism`: in each, a rank at position v of column j
// sends to position w of column j + d (mod the columns), with v's w and d the same in every
// column. They are a colouring of orbits (v, w, d), each the columns' messages at once, with
// the union of their routes: the positions as classes, the same p - 1 phases.
Phases column_symmetric_phases(const RankRoutes& routes, const std::vector<long long>& crossed, const ColumnPrism& prism) {
  const int p = routes.size(), columns = prism.columns, positions = prism.positions();
  struct Orbit {
    int from, to, shift;
  };
  std::vector<Orbit> orbits;
  TransferGraph graph;
  graph.classes = positions;
  graph.phases = p - 1;
  graph.capacities = routes.capacities();
  std::vector<int> route;
  for (int v = 0; v < positions; ++v) {
    for (int w = 0; w < positions; ++w) {
      for (int d = 0; d < columns; ++d) {
        if (v == w && d == 0) continue;
        route.clear();
        for (int j = 0; j < columns; ++j) {
          const std::span<const int> hops = routes.route(prism.rank(v, j), prism.rank(w, (j + d) % columns));
          route.insert(route.end(), hops.begin(), hops.end());
        }
        graph.add(v, w, route);
        orbits.push_back({v, w, d});
      }
    }
  }
  const TransferColouring colouring = colour_transfers(graph, crossed, p, {});
  Phases destination(colouring.transfer.size(), std::vector<int>(static_cast<std::size_t>(p)));
  for (std::size_t k = 0; k < colouring.transfer.size(); ++k) {
    for (const int t : colouring.transfer[k]) {
      const Orbit& o = orbits[static_cast<std::size_t>(t)];
      for (int j = 0; j < columns; ++j) {
        destination[k][static_cast<std::size_t>(prism.rank(o.from, j))] = prism.rank(o.to, (j + o.shift) % columns);
      }
    }
  }
  return destination;
}

// Whether `prism` has two columns or more and places each of the p ranks once.
bool places_every_rank_once(const ColumnPrism& prism, int p) {
  if (prism.columns < 2 || prism.rank_at.size() != static_cast<std::size_t>(p) || p % prism.columns != 0) return false;
  std::vector<char> placed(static_cast<std::size_t>(p), 0);
  for (const int r : prism.rank_at) {
    if (r < 0 || r >= p || placed[static_cast<std::size_t>(r)]++) return false;
  }
  return true;
}

// `crossed`: routes.crossings(), which both colourings weigh against.
LinkawarePhases build_phases(const RankRoutes& routes, const std::vector<long long>& crossed, const Phases& structured) {
  const int p = routes.size();
  const TransferGraph graph = transfers_of(routes);
  const TransferColouring colouring = colour_transfers(graph, crossed, p, as_transfers(structured, p));
  LinkawarePhases phases;
  phases.destination.assign(colouring.transfer.size(), std::vector<int>(static_cast<std::size_t>(p)));
  phases.source = phases.destination;
  for (std::size_t k = 0; k < colouring.transfer.size(); ++k) {
    for (const int t : colouring.transfer[k]) {
      const int from = graph.sender[static_cast<std::size_t>(t)], to = graph.receiver[static_cast<std::size_t>(t)];
      phases.destination[k][static_cast<std::size_t>(from)] = to;
      phases.source[k][static_cast<std::size_t>(to)] = from;
    }
  }
  phases.worst_load = colouring.worst_load;
  phases.bound = colouring.bound;
  phases.from_structured = colouring.from_start;
  return phases;
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

LinkawarePhases linkaware_phases(const RankRoutes& routes, const std::vector<std::vector<int>>& structured,
                                 const ColumnPrism& prism) {
  if (routes.size() < 2) return {};
  // The phases depend on the routes alone, not on the block size, and building them is the
  // costly part (0.1 s at p = 24 on the MLFM testbed, where the search's budget is spent): a
  // sweep over sizes on one communicator, and every alltoallv of one (whose plan is built per
  // call), reuse the last phases built. Comparing the routes is O(1) (their fingerprints).
  struct Built {
    RankRoutes routes;
    Phases structured;
    ColumnPrism prism;
    LinkawarePhases phases;
  };
  static std::mutex guard;
  static std::optional<Built> last;
  {
    const std::lock_guard<std::mutex> lock(guard);
    if (last && last->routes.same_routes(routes) && last->structured == structured && last->prism == prism) {
      return last->phases;
    }
  }
  const bool symmetric = structured.empty() && places_every_rank_once(prism, routes.size());
  const std::vector<long long> crossed = routes.crossings();
  LinkawarePhases phases =
      build_phases(routes, crossed, symmetric ? column_symmetric_phases(routes, crossed, prism) : structured);
  const std::lock_guard<std::mutex> lock(guard);
  last.emplace(Built{routes, structured, prism, phases});
  return phases;
}

Applicability supports_linkaware(const Problem& problem) {
  std::string why_not;
  if (!routes_available(problem, &why_not)) return {false, "linkaware " + why_not};
  return {};
}

std::unique_ptr<RoundPlan> plan_linkaware(const Problem& problem) {
  std::optional<RankRoutes> built;
  const RankRoutes* routes = problem.routes;
  if (routes == nullptr) {
    built = rank_routes(problem, nullptr);
    if (!built) return nullptr;  // supports() says why
    routes = &*built;
  }
  // Where the ranks form a box of a multi-layer full mesh, mlfm's phases are one flow per link
  // on the mesh's routes: the search starts from them (at the bound it has nothing to do).
  // Elsewhere, where they form a prism of the network's columns, from the phases that rotate
  // with the columns.
  const std::optional<MlfmJob> box = mlfm_job_of(problem);
  const std::optional<ColumnPrism> prism = box ? std::nullopt : column_prism_of(problem);
  return std::make_unique<LinkawarePlan>(
      problem, linkaware_phases(*routes, box ? mlfm_destinations(*box) : Phases{}, prism ? *prism : ColumnPrism{}));
}

}  // namespace topocoll
