// binomial: the tree MPI libraries use for scatter and gather by default (MPICH's, Open MPI's
// and MVAPICH2's baseline; Kandalla et al.'s T_binomial), over ranks relative to the root:
// ceil(log2 p) rounds; in scatter round j every rank holding a range of 2 * mask relative ranks
// (mask = 2^(L-1-j)) hands the upper half, its blocks in one message, to the first rank of that
// half; gather runs it backwards. Messages: one per rank (from its parent); the root sends
// ceil(log2 p) of them, the largest carrying half the data. Each block crosses up to log2 p
// links on its way, so every intermediate rank forwards its subtree through scratch.
#include <memory>

#include "algorithms/rooted_algorithms.hpp"
#include "algorithms/rooted_tree.hpp"

namespace topocoll {

namespace {

std::shared_ptr<const RootedTree> binomial_tree(const Problem& problem) {
  auto tree = std::make_shared<RootedTree>(problem.size, problem.root);
  std::vector<int> relative(static_cast<std::size_t>(problem.size));
  for (int i = 0; i < problem.size; ++i) relative[static_cast<std::size_t>(i)] = (problem.root + i) % problem.size;
  tree->add_binomial(relative, 0);
  tree->finish();
  return tree;
}

}  // namespace

Applicability supports_binomial(const Problem& problem) { return supports_rooted(problem, "binomial"); }

std::unique_ptr<RoundPlan> plan_binomial(const Problem& problem) { return plan_tree(problem, binomial_tree(problem)); }

void binomial_size_questions(const Problem& problem, int rank, SizeQuestions& out) {
  tree_size_questions(problem, *binomial_tree(problem), rank, out);
}

}  // namespace topocoll
