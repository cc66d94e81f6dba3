// The v forms' size exchange pairs up: what rank r learns from rank q is, in the same order,
// exactly what q tells r (the executor matches the two messages position by position), and no
// rank learns from or tells itself. Checked for every algorithm that asks questions.
#include <gtest/gtest.h>

#include "algorithms/registry.hpp"
#include "topology/topology.hpp"

namespace topocoll {
namespace {

Topology clusters_of(const std::vector<int>& sizes) {
  std::vector<std::vector<int>> groups;
  for (std::size_t c = 0; c < sizes.size(); ++c)
    for (int i = 0; i < sizes[c]; ++i) groups.push_back({static_cast<int>(c)});
  return Topology({"cluster"}, groups);
}

// Returns the number of sizes asked in all (so a caller can see the check was not vacuous).
std::size_t expect_paired(const Algorithm& a, const Problem& problem) {
  const int p = problem.size;
  std::vector<SizeQuestions> questions(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) {
    a.size_questions(problem, r, questions[static_cast<std::size_t>(r)]);
    EXPECT_EQ(questions[r].learn.size(), static_cast<std::size_t>(p)) << a.name;
    EXPECT_EQ(questions[r].tell.size(), static_cast<std::size_t>(p)) << a.name;
  }
  std::size_t asked = 0;
  for (int r = 0; r < p; ++r) {
    EXPECT_TRUE(questions[r].learn[r].empty()) << a.name << ": rank " << r << " learns from itself";
    EXPECT_TRUE(questions[r].tell[r].empty()) << a.name << ": rank " << r << " tells itself";
    for (int q = 0; q < p; ++q) {
      EXPECT_EQ(questions[r].learn[q], questions[q].tell[r]) << a.name << ": rank " << r << " from rank " << q;
      asked += questions[r].learn[q].size();
    }
  }
  return asked;
}

TEST(SizeQuestions, LgCollectorsLearnWhatTheirClusterTells) {
  const Algorithm& lg = *find_algorithm(Operation::alltoallv, "lg");
  ASSERT_NE(lg.size_questions, nullptr);
  for (const auto& sizes : std::vector<std::vector<int>>{{1, 1}, {2, 3}, {4, 4}, {5, 2}, {7, 3}}) {
    const Topology topology = clusters_of(sizes);
    const int p = topology.size();
    const KnownBlocks blocks(std::vector<std::vector<std::size_t>>(p, std::vector<std::size_t>(p, 3)));
    const Problem problem{p, 0, &topology, {}, &blocks, Operation::alltoallv};
    ASSERT_TRUE(lg.supports(problem).ok) << lg.supports(problem).reason;
    const std::size_t asked = expect_paired(lg, problem);
    if (sizes[0] > 1 || sizes[1] > 1) {
      EXPECT_GT(asked, 0u) << "clusters " << sizes[0] << "+" << sizes[1];
    }
  }
}

TEST(SizeQuestions, TreeRanksLearnTheirSubtreeFromTheRoot) {
  const Topology topology = clusters_of({3, 4, 2});
  for (Operation op : {Operation::scatterv, Operation::gatherv}) {
    for (const char* name : {"binomial", "topo"}) {
      const Algorithm& a = *find_algorithm(op, name);
      ASSERT_NE(a.size_questions, nullptr) << name;
      for (int p : {1, 2, 5, 9}) {
        for (int root = 0; root < p; ++root) {
          const RootedBlocks layout = RootedBlocks::uniform(
              op == Operation::scatterv ? RootedBlocks::Flow::from_root : RootedBlocks::Flow::to_root, root, p, 2);
          const Problem problem = Problem::rooted(op, layout, p == topology.size() ? &topology : nullptr);
          if (!a.supports(problem).ok) continue;
          const std::size_t asked = expect_paired(a, problem);
          // Every inner rank of a tree over 5 or more ranks learns its subtree's sizes.
          if (p >= 5) {
            EXPECT_GT(asked, 0u) << name << " p=" << p << " root=" << root;
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace topocoll
