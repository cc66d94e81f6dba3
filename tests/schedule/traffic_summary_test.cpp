// auto's view of an irregular call: the summary's combination is the same in any order, even
// traffic keeps the uniform stand-in, and the stand-in of skewed or sparse traffic carries the
// summary's loads (within its rounding), is a valid layout and makes the model see the skew.
#include "select/traffic_summary.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "algorithms/registry.hpp"
#include "model/hierarchical_cost.hpp"
#include "model_machines.hpp"
#include "schedule/verifier.hpp"
#include "select/auto_select.hpp"

namespace topocoll {
namespace {

// The summary of a whole matrix, rank by rank in the given order.
TrafficSummary summarise(const std::vector<std::vector<std::size_t>>& bytes, const std::vector<int>& order) {
  const int p = static_cast<int>(bytes.size());
  TrafficSummary all;
  bool first = true;
  for (int r : order) {
    std::vector<std::size_t> received(static_cast<std::size_t>(p));
    for (int s = 0; s < p; ++s) received[s] = bytes[s][r];
    const TrafficSummary one = TrafficSummary::of_rank(r, bytes[r], received);
    all = first ? one : combine(all, one);
    first = false;
  }
  return all;
}

std::vector<std::vector<std::size_t>> uniform_matrix(int p, std::size_t b) {
  return std::vector<std::vector<std::size_t>>(static_cast<std::size_t>(p), std::vector<std::size_t>(p, b));
}

TEST(TrafficSummary, CombinesAlikeInAnyOrderAndBreaksTiesByRank) {
  std::mt19937 random(7);
  std::vector<std::vector<std::size_t>> bytes = uniform_matrix(9, 0);
  for (auto& row : bytes)
    for (auto& b : row) b = random() % 3 == 0 ? 0 : random() % 1000;
  std::vector<int> order(9);
  for (int i = 0; i < 9; ++i) order[i] = i;
  const TrafficSummary forward = summarise(bytes, order);
  std::reverse(order.begin(), order.end());
  EXPECT_EQ(summarise(bytes, order).words(), forward.words());
  std::shuffle(order.begin(), order.end(), random);
  EXPECT_EQ(summarise(bytes, order).words(), forward.words());
  std::uint64_t total = 0, nonempty = 0, most = 0;
  for (const auto& row : bytes) {
    std::uint64_t sent = 0;
    for (std::size_t b : row) total += b, nonempty += b > 0, sent += b;
    most = std::max(most, sent);
  }
  EXPECT_EQ(forward.total_bytes, total);
  EXPECT_EQ(forward.nonempty_blocks, nonempty);
  EXPECT_EQ(forward.most_sent, most);
  EXPECT_EQ(TrafficSummary::from_words(forward.words().data()).words(), forward.words());

  // Ranks 2 and 5 send and receive the most alike: the lower one is named, whatever the order.
  std::vector<std::vector<std::size_t>> tie = uniform_matrix(6, 1);
  tie[2][2] = tie[5][5] = 50;
  EXPECT_EQ(summarise(tie, {5, 4, 3, 2, 1, 0}).most_sent_rank, 2u);
  EXPECT_EQ(summarise(tie, {0, 1, 2, 3, 4, 5}).most_sent_rank, 2u);
  EXPECT_EQ(summarise(tie, {5, 2, 0, 1, 3, 4}).most_received_rank, 2u);
}

TEST(TrafficSummary, EvenTrafficKeepsTheUniformStandIn) {
  EXPECT_FALSE(skewed_shape(summarise(uniform_matrix(16, 100), std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
                                                                                   12, 13, 14, 15}),
                            16, nullptr));
  EXPECT_FALSE(skewed_shape(TrafficSummary{}, 16, nullptr));  // nothing to move
  // Two ranks: nothing to balance.
  std::vector<std::vector<std::size_t>> two = {{0, 1000}, {1, 1}};
  EXPECT_FALSE(skewed_shape(summarise(two, {0, 1}), 2, nullptr));
}

// p ranks, every block b except rank `hot`'s column, whose blocks are `factor` times larger.
TrafficSummary hotspot(int p, std::size_t b, int hot, std::size_t factor) {
  std::vector<std::vector<std::size_t>> bytes = uniform_matrix(p, b);
  for (int s = 0; s < p; ++s) bytes[s][hot] = factor * b;
  std::vector<int> order(static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i) order[i] = i;
  return summarise(bytes, order);
}

TEST(TrafficSummary, TheStandInCarriesTheSummarysLoads) {
  const Topology clusters = test_machines::two_clusters(10, 14);
  for (const Topology* topology : {static_cast<const Topology*>(nullptr), &clusters}) {
    for (int sparse_k : {0, 3}) {
      const int p = 24;
      std::vector<std::vector<std::size_t>> bytes = uniform_matrix(p, 200);
      for (int s = 0; s < p; ++s) {
        for (int d = 0; d < p; ++d)
          if (sparse_k > 0 && (d - s + p) % p % 8 != 0) bytes[s][d] = 0;  // 3 blocks per row
        bytes[s][13] *= 20;                                                   // rank 13 receives most
      }
      std::vector<int> order(p);
      for (int i = 0; i < p; ++i) order[i] = i;
      const TrafficSummary summary = summarise(bytes, order);
      const std::optional<TrafficShape> shape = skewed_shape(summary, p, topology);
      ASSERT_TRUE(shape);
      EXPECT_EQ(shape->blocks_per_row, sparse_k > 0 ? 3 : p);
      // Placed at the first rank of its outermost group: 13 is the fourth of cluster 1 (10..23).
      EXPECT_EQ(shape->hot_receiver, topology ? 10 : 13);
      const TrafficStandIn stand_in(*shape);
      double total = 0, hot_column = 0, hot_row = 0;
      for (int s = 0; s < p; ++s) {
        int row_blocks = 0, column_blocks = 0;
        for (int d = 0; d < p; ++d) {
          total += static_cast<double>(stand_in.bytes(s, d));
          row_blocks += stand_in.bytes(s, d) > 0;
          column_blocks += stand_in.bytes(d, s) > 0;
        }
        EXPECT_EQ(row_blocks, shape->blocks_per_row);
        EXPECT_EQ(column_blocks, shape->blocks_per_row);
        hot_column += static_cast<double>(stand_in.bytes(s, shape->hot_receiver));
        hot_row += static_cast<double>(stand_in.bytes(shape->hot_sender, s));
      }
      EXPECT_NEAR(total, static_cast<double>(summary.total_bytes), 0.1 * static_cast<double>(summary.total_bytes));
      EXPECT_NEAR(hot_column, static_cast<double>(summary.most_received), 0.1 * static_cast<double>(summary.most_received));
      EXPECT_NEAR(hot_row, static_cast<double>(summary.most_sent), 0.1 * static_cast<double>(summary.most_sent));
    }
  }
}

// A schedule built on the stand-in is valid: its layout (block d at d times the largest) holds.
TEST(TrafficSummary, TheStandInIsAValidAlltoallvLayout) {
  const std::optional<TrafficShape> shape = skewed_shape(hotspot(11, 64, 4, 30), 11, nullptr);
  ASSERT_TRUE(shape);
  const TrafficStandIn stand_in(*shape);
  Problem problem{11, shape->average_block_bytes, nullptr, {}};
  problem.blocks = &stand_in;
  problem.operation = Operation::alltoallv;
  for (const char* name : {"direct", "pairwise", "bruck", "liu"}) {
    const Algorithm* algorithm = find_algorithm(Operation::alltoallv, name);
    ASSERT_NE(algorithm, nullptr);
    if (!algorithm->supports(problem).ok) continue;
    const Verdict verdict = verify(build_full_schedule(*algorithm, problem), stand_in);
    EXPECT_TRUE(verdict.ok) << name << ": " << verdict.summary();
  }
}

// The model sees the skew: priced on the stand-in, direct's time grows with the hot rank's load
// while the uniform stand-in of the same total would not tell them apart.
TEST(TrafficSummary, TheModelSeesTheHotRank) {
  const MachineCost machine = test_machines::fast_crossbar();
  const int p = 32;
  const TrafficSummary even = hotspot(p, 4096, 3, 1), hot = hotspot(p, 4096, 3, 24);
  const std::optional<TrafficShape> shape = skewed_shape(hot, p, nullptr);
  ASSERT_TRUE(shape);
  const TrafficStandIn stand_in(*shape);
  Problem skewed{p, shape->average_block_bytes, nullptr, {}};
  skewed.blocks = &stand_in;
  skewed.operation = Operation::alltoallv;
  const Problem uniform{p, shape->average_block_bytes, nullptr, {}};
  const auto direct_us = [&](const Problem& problem) {
    for (const AlgorithmPrediction& prediction : select_algorithm(problem, machine).predictions)
      if (prediction.algorithm == "direct") return *prediction.predicted_us;
    return 0.0;
  };
  EXPECT_FALSE(skewed_shape(even, p, nullptr));
  // The hot rank receives 24 blocks' worth from each of 32 ranks, 768 blocks against the
  // average's 53: its link, not the average's, sets direct's time.
  EXPECT_GT(direct_us(skewed), 5.0 * direct_us(uniform));
}

}  // namespace
}  // namespace topocoll

namespace topocoll {
namespace {

// The two stages of the summary exchange (summary_routes) tell every rank every rank's summary:
// each row's once, through matched messages (every receive has its send, and no other), with
// about 2 sqrt(p) messages a rank.
TEST(SummaryRoutes, EveryRankLearnsEveryRankThroughMatchedMessages) {
  for (int p = 1; p <= 100; ++p) {
    std::vector<SummaryRoutes> routes;
    for (int r = 0; r < p; ++r) routes.push_back(summary_routes(r, p));
    // Stage 1: rank r knows itself and its row peers, the peers being mutual.
    std::vector<std::vector<bool>> row_knows(p, std::vector<bool>(p, false));
    for (int r = 0; r < p; ++r) {
      row_knows[r][r] = true;
      for (int peer : routes[r].row_peers) {
        row_knows[r][peer] = true;
        const auto& back = routes[peer].row_peers;
        EXPECT_EQ(std::count(back.begin(), back.end(), r), 1) << "p " << p << ", " << r << " <-> " << peer;
      }
    }
    // Stage 2: a source's row summary, received once from each source, which sends it to r.
    std::size_t most_messages = 0;
    for (int r = 0; r < p; ++r) {
      std::vector<int> learned(p, 0);
      for (int q = 0; q < p; ++q) learned[q] += row_knows[r][q] ? 1 : 0;
      for (int source : routes[r].row_sources) {
        const auto& to = routes[source].row_destinations;
        EXPECT_EQ(std::count(to.begin(), to.end(), r), 1) << "p " << p << ": " << source << " -> " << r;
        for (int q = 0; q < p; ++q) learned[q] += row_knows[source][q] ? 1 : 0;
      }
      for (int q = 0; q < p; ++q) EXPECT_EQ(learned[q], 1) << "p " << p << ": rank " << r << " learns " << q;
      std::size_t sent_to = 0;
      for (int d = 0; d < p; ++d) {
        const auto& from = routes[d].row_sources;
        sent_to += static_cast<std::size_t>(std::count(from.begin(), from.end(), r));
      }
      EXPECT_EQ(sent_to, routes[r].row_destinations.size()) << "p " << p << ", rank " << r;
      most_messages = std::max(most_messages, routes[r].row_peers.size() + routes[r].row_destinations.size());
    }
    int c = 1;
    while (c * c < p) ++c;
    EXPECT_LE(most_messages, static_cast<std::size_t>(3 * c)) << "p " << p;
  }
}

}  // namespace
}  // namespace topocoll
