#include "model/fluid_schedule.hpp"

#include <algorithm>
#include <cstddef>
#include <set>
#include <tuple>
#include <vector>

#include "model/fluid_bottlenecks.hpp"
#include "model/fluid_flows.hpp"
#include "model/fluid_ranks.hpp"
#include "model/fluid_rounds.hpp"

namespace topocoll {

namespace {

// What the automatic reading needs to know of the sampled ranks' posts. O(sample x messages per rank).
struct SampledPosts {
  bool ranks_differ = false;              // in some cluster, in their rounds or a round's messages and bytes
  double messages = 0.0;                  // sent by all ranks, each sampled rank standing for its weight
  std::size_t most_hosts_in_a_round = 0;  // hosts a rank sends to in one round, at most
};

SampledPosts read_sampled_posts(const RoundPlan& plan, int size, const network::Network& network,
                                std::span<const int> host_of_rank) {
  const std::vector<int> cluster = fluid::clusters_of_ranks(size, network, host_of_rank);
  const RankSample sample(cluster, size, RankReading::sampled_at_scale);
  using Posts = std::tuple<std::size_t, std::size_t, std::size_t, std::size_t>;  // sent, bytes, received, bytes
  std::vector<std::vector<Posts>> first_of_cluster;  // per cluster: its first sampled rank's rounds
  fluid::RankRoundTally tally;
  std::vector<Posts> rounds;
  SampledPosts posts;
  std::vector<int> to_hosts;
  for (const SampledRank& s : sample.ranks()) {
    rounds.clear();
    std::size_t staged = 0;
    for (std::size_t t = 0; t < plan.rounds(s.rank); ++t) {
      tally.start(staged);
      plan.emit(s.rank, t, tally);
      Posts round{tally.sent.size(), 0, tally.received.size(), 0};
      for (const auto& m : tally.sent) std::get<1>(round) += m.bytes;
      for (const auto& m : tally.received) std::get<3>(round) += m.bytes;
      rounds.push_back(round);
      posts.messages += s.weight * static_cast<double>(tally.sent.size());
      to_hosts.clear();
      for (const auto& m : tally.sent) {
        if (m.peer >= 0 && m.peer < size) to_hosts.push_back(host_of_rank[static_cast<std::size_t>(m.peer)]);
      }
      std::sort(to_hosts.begin(), to_hosts.end());
      const auto hosts = static_cast<std::size_t>(std::unique(to_hosts.begin(), to_hosts.end()) - to_hosts.begin());
      posts.most_hosts_in_a_round = std::max(posts.most_hosts_in_a_round, hosts);
    }
    const auto c = static_cast<std::size_t>(cluster[static_cast<std::size_t>(s.rank)]);
    if (first_of_cluster.size() <= c) first_of_cluster.resize(c + 1);
    if (first_of_cluster[c].empty()) {
      first_of_cluster[c] = rounds;
    } else if (first_of_cluster[c] != rounds) {
      posts.ranks_differ = true;
    }
  }
  return posts;
}

// The automatic reading's measure of the work of reading skewed traffic link by link: messages
// x the routes in flight, at most every host sending to as many hosts as a rank does in a round.
double every_link_work(const SampledPosts& posts, std::span<const int> host_of_rank) {
  const auto hosts = static_cast<double>(std::set<int>(host_of_rank.begin(), host_of_rank.end()).size());
  return posts.messages * hosts * std::min(hosts, static_cast<double>(posts.most_hosts_in_a_round));
}

}  // namespace

FluidTime fluid_time(const RoundPlan& plan, int size, const network::Network& network,
                     std::span<const int> host_of_rank, const FluidParameters& parameters, FluidReading reading) {
  if (reading == FluidReading::bottlenecks) return fluid::time_by_bottlenecks(plan, size, network, host_of_rank, parameters);
  if (reading == FluidReading::every_link ||
      (reading == FluidReading::automatic && size <= RankSample::kEveryRankUpTo)) {
    return fluid::time_by_rank(plan, size, network, host_of_rank, parameters);
  }
  const SampledPosts posts = read_sampled_posts(plan, size, network, host_of_rank);
  FluidTime time;
  if (reading == FluidReading::automatic && posts.ranks_differ) {
    time = every_link_work(posts, host_of_rank) <= kMostSkewedEveryLinkWork
               ? fluid::time_by_rank(plan, size, network, host_of_rank, parameters)
               : fluid::time_by_bottlenecks(plan, size, network, host_of_rank, parameters);
  } else {
    time = fluid::time_in_rounds(plan, size, network, host_of_rank, parameters, true, RankReading::sampled_at_scale);
  }
  time.ranks_differ = posts.ranks_differ;
  return time;
}

}  // namespace topocoll
