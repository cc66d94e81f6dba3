#include "model/fluid_rounds.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "model/fluid_flows.hpp"

namespace topocoll::fluid {

namespace {

// With a cost per message posted, a rank's sends start one after the other; they are read as
// this many batches of equal length (each at its middle message's post), so that a rank adds a
// few classes, not one per message.
constexpr std::size_t kPostBatches = 8;

// Flows alike within a round: the capacities of their route (the same for every pair of hosts
// whose links are read alike), its penalty and cap, their bytes, start and due round.
using ClassKey = std::tuple<std::vector<int>, std::vector<int>, double, double, double, double, std::size_t>;

}  // namespace

FluidTime time_in_rounds(const RoundPlan& plan, int size, const network::Network& network,
                         std::span<const int> host_of_rank, const FluidParameters& parameters, bool alike,
                         RankReading reading) {
  const RankSample sample(clusters_of_ranks(size, network, host_of_rank), size, reading);
  FluidNetwork fluid;
  FluidLinks links(network, parameters, alike, fluid);
  std::size_t rounds = 0;
  for (const SampledRank& s : sample.ranks()) rounds = std::max(rounds, plan.rounds(s.rank));

  std::vector<std::size_t> staged_so_far(sample.ranks().size(), 0);  // per sampled rank
  RankRoundTally tally;
  // Routes alike (links alike: the same capacities) merge once their classes are made.
  std::map<ClassKey, double> classes;
  RankRoundCpu cpu;
  double round_start = 0.0;
  for (std::size_t t = 0; t < rounds; ++t) {
    classes.clear();
    double cpu_end = round_start;
    double copying_out_us = 0.0;  // the longest CPU work of a rank once its last receive is in
    for (std::size_t slot = 0; slot < sample.ranks().size(); ++slot) {
      const SampledRank& s = sample.ranks()[slot];
      if (t >= plan.rounds(s.rank)) continue;
      tally.start(staged_so_far[slot]);
      plan.emit(s.rank, t, tally);
      tally.finish();
      read_rank_round_cpu(parameters, tally, round_start, cpu);
      const double posting = cpu.posting_us;
      const std::size_t n = tally.sent.size();
      const int host = host_of_rank[static_cast<std::size_t>(s.rank)];
      for (std::size_t k = 0; k < n; ++k) {
        const RankRoundTally::Message& sent = tally.sent[k];
        if (sent.peer < 0 || sent.peer >= size) throw std::invalid_argument("fluid model: a message to no rank");
        const FluidRoute& route = links.route(host, host_of_rank[static_cast<std::size_t>(sent.peer)]);
        const std::size_t batch = k * kPostBatches / n;
        const std::size_t middle = std::min(n - 1, (2 * batch + 1) * n / (2 * kPostBatches));
        const double bytes = static_cast<double>(sent.bytes) + parameters.envelope_bytes;
        classes[ClassKey{route.capacities, route.back_capacities, route.penalty, route.rate_cap, bytes,
                         posting + cpu.posted_by[middle] + route.latency_us, t + sent.overlap_rounds}] += s.weight;
      }
      copying_out_us = std::max(copying_out_us, cpu.copying_out_us);
      cpu_end = std::max(cpu_end, cpu.done_us);
    }
    for (const auto& [key, count] : classes) {
      const auto& [capacities, back, penalty, rate_cap, bytes, start_us, due] = key;
      fluid.add(links.flows(FluidRoute{capacities, back, 0.0, penalty, rate_cap}, count, bytes, start_us, due));
    }
    // A rank completes its last receive and copies its staged receives out once they are in.
    fluid.run_until(std::max(fluid.run_through(t) + copying_out_us, cpu_end));
    round_start = fluid.now_us();
  }
  FluidTime result;
  result.us = round_start;
  result.rounds = rounds;
  result.flow_classes = fluid.flow_classes();
  result.events = fluid.events();
  result.links_alike = alike;
  result.every_rank = sample.every_rank();
  return result;
}

}  // namespace topocoll::fluid
