// Scatter and gather along a tree rooted at the operation's root. Scatter: each rank receives,
// in one message from its parent, the blocks of its whole subtree (its own into its receive
// buffer, the rest into scratch), then forwards each child the blocks of that child's subtree,
// one message per child. Gather is the mirror image: rounds in reverse order, messages upward,
// each rank sending its parent its own block followed by its subtree's. The root works from
// and into the user's buffers (one segment per block, at the blocks' places); the other ranks'
// scratch holds their subtree's blocks in tree order, so every forwarded message is one
// contiguous piece of it. binomial and topo are trees built here; the plan is written once.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "algorithms/problem.hpp"
#include "algorithms/round_plan.hpp"

namespace topocoll {

// Edges from parent to child, each in the scatter round the child receives in.
class RootedTree {
 public:
  RootedTree(int size, int root);

  // Scatter round `round`: `parent` sends `child` its subtree. Every rank but the root gets
  // exactly one parent, in a round after its parent's own.
  void add_edge(int parent, int child, int round);
  // A flat phase among `members` (members[0] the phase's root, who holds all their data):
  // binomial (ceil(log2 n) rounds, halving) or a star (one round), from round `first_round`.
  // Returns the rounds it takes.
  int add_binomial(const std::vector<int>& members, int first_round);
  int add_star(const std::vector<int>& members, int first_round);
  // Orders every rank's subtree once all edges are in (tree order: a rank, then its children's
  // subtrees in the order of their rounds).
  void finish();

  int root() const { return root_; }
  int size() const { return static_cast<int>(parent_.size()); }
  int rounds() const { return rounds_; }
  int parent(int rank) const { return parent_[rank]; }
  int receive_round(int rank) const { return round_[rank]; }
  const std::vector<int>& children(int rank) const { return children_[rank]; }
  // The ranks of rank's subtree in tree order, rank first.
  std::pair<const int*, const int*> subtree(int rank) const;

 private:
  int root_;
  int rounds_ = 0;
  std::vector<int> parent_, round_;
  std::vector<std::vector<int>> children_;
  std::vector<int> order_, first_, count_;
};

// The plan of a tree: scatter or gather by the problem's operation.
std::unique_ptr<RoundPlan> plan_tree(const Problem& problem, std::shared_ptr<const RootedTree> tree);

// The v forms: a rank learns from the root (who holds every size of the operation) the sizes
// of its subtree's blocks, to place them in scratch; the root tells each rank those.
void tree_size_questions(const Problem& problem, const RootedTree& tree, int rank, SizeQuestions& out);

}  // namespace topocoll
