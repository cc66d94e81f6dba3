// Traffic forms of the flat alltoall algorithms (direct, shift, pairwise, group-shuffle, bruck):
// the same peers and bytes as their builders in src/algorithms, as loads for the round meter.
// Every form puts the rank's own block (its only local copy) in its first round.
#include "model/alltoall_traffic.hpp"

#include <algorithm>
#include <vector>

#include "algorithms/edge_colouring.hpp"
#include "model/hierarchical_cost.hpp"

namespace topocoll {

namespace {

// Runs `rounds` rounds; `fill(round, rank, load)` describes one rank's part of one round.
template <typename Fill>
double run_rounds(int rounds, const Problem& problem, const MachinePricing& pricing, double give_up_above_us,
                  Fill fill) {
  RoundCostMeter meter(pricing);
  RankRoundLoad load;
  double total = 0.0;
  for (int t = 0; t < std::max(rounds, 1); ++t) {
    for (int r = 0; r < problem.size; ++r) {
      load.clear();
      if (t == 0) load.copy_bytes = problem.bytes(r, r);
      if (t < rounds) fill(t, r, load);
      meter.add(r, load);
    }
    total += meter.finish_round();
    if (total > give_up_above_us) break;
  }
  return total;
}

void exchange_with(int partner, int rank, const Problem& problem, RankRoundLoad& load) {
  load.sends.push_back({partner, problem.bytes(rank, partner)});
  load.recvs.push_back({partner, problem.bytes(partner, rank)});
}

double direct(const Problem& problem, const MachinePricing& pricing, double give_up_above_us) {
  const int p = problem.size;
  return run_rounds(1, problem, pricing, give_up_above_us, [&](int, int rank, RankRoundLoad& load) {
    for (int i = 1, to = rank + 1, from = rank - 1; i < p; ++i, ++to, --from) {
      if (to == p) to = 0;
      if (from < 0) from = p - 1;
      load.sends.push_back({to, problem.bytes(rank, to)});
      load.recvs.push_back({from, problem.bytes(from, rank)});
    }
  });
}

double shift(const Problem& problem, const MachinePricing& pricing, double give_up_above_us) {
  const int p = problem.size;
  return run_rounds(p - 1, problem, pricing, give_up_above_us, [&](int round, int rank, RankRoundLoad& load) {
    const int to = (rank + round + 1) % p;
    const int from = (rank - round - 1 + p) % p;
    load.sends.push_back({to, problem.bytes(rank, to)});
    load.recvs.push_back({from, problem.bytes(from, rank)});
  });
}

double pairwise(const Problem& problem, const MachinePricing& pricing, double give_up_above_us) {
  const int p = problem.size;
  return run_rounds(pairwise_round_count(p), problem, pricing, give_up_above_us,
                    [&](int round, int rank, RankRoundLoad& load) {
                      const int partner = pairwise_partner(round, rank, p);
                      if (partner >= 0) exchange_with(partner, rank, problem, load);
                    });
}

double group_shuffle(const Problem& problem, const MachinePricing& pricing, double give_up_above_us) {
  const int p = problem.size;
  const int colours = pairwise_round_count(p);
  const int w = problem.knobs.group_width;
  const int rounds = (colours + w - 1) / w;
  return run_rounds(rounds, problem, pricing, give_up_above_us, [&](int round, int rank, RankRoundLoad& load) {
    for (int c = round * w; c < std::min((round + 1) * w, colours); ++c) {
      const int partner = pairwise_partner(c, rank, p);
      if (partner >= 0) exchange_with(partner, rank, problem, load);
    }
  });
}

double bruck(const Problem& problem, const MachinePricing& pricing, double give_up_above_us) {
  const int p = problem.size;
  int rounds = 0;
  while ((1 << rounds) < p) ++rounds;
  std::vector<std::size_t> blocks(static_cast<std::size_t>(rounds), 0);  // indices in [1, p) with bit k set
  for (int k = 0; k < rounds; ++k)
    for (int i = 1; i < p; ++i) blocks[k] += (i >> k) & 1;
  return run_rounds(rounds, problem, pricing, give_up_above_us, [&](int round, int rank, RankRoundLoad& load) {
    const int step = 1 << round;
    load.sends.push_back({(rank + step) % p, blocks[round] * problem.block_bytes});
    load.recvs.push_back({(rank - step + p) % p, blocks[round] * problem.block_bytes});
  });
}

}  // namespace

std::optional<double> predict_from_traffic_us(std::string_view algorithm, const Problem& problem,
                                              const MachinePricing& pricing, double give_up_above_us) {
  if (problem.size < 1) return std::nullopt;
  if (algorithm == "direct") return direct(problem, pricing, give_up_above_us);
  if (algorithm == "shift") return shift(problem, pricing, give_up_above_us);
  if (algorithm == "pairwise") return pairwise(problem, pricing, give_up_above_us);
  if (algorithm == "group-shuffle" && problem.knobs.group_width >= 1) {
    return group_shuffle(problem, pricing, give_up_above_us);
  }
  if (algorithm == "bruck" && !problem.variable()) return bruck(problem, pricing, give_up_above_us);
  if (algorithm == "lg") return predict_lg_from_traffic_us(problem, pricing, give_up_above_us);
  if (algorithm == "overlap") return predict_overlap_from_traffic_us(problem, pricing);
  return std::nullopt;
}

}  // namespace topocoll
