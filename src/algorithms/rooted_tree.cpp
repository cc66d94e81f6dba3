#include "algorithms/rooted_tree.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace topocoll {

RootedTree::RootedTree(int size, int root)
    : root_(root),
      parent_(static_cast<std::size_t>(size), -1),
      round_(static_cast<std::size_t>(size), -1),
      children_(static_cast<std::size_t>(size)) {}

void RootedTree::add_edge(int parent, int child, int round) {
  parent_[child] = parent;
  round_[child] = round;
  children_[parent].push_back(child);
  rounds_ = std::max(rounds_, round + 1);
}

int RootedTree::add_binomial(const std::vector<int>& members, int first_round) {
  const int n = static_cast<int>(members.size());
  int levels = 0;
  while ((1 << levels) < n) ++levels;
  // Round j: every holder v (a multiple of 2 * mask) hands v + mask the upper half of its range.
  for (int j = 0; j < levels; ++j) {
    const int mask = 1 << (levels - 1 - j);
    for (int v = 0; v + mask < n; v += 2 * mask) add_edge(members[v], members[v + mask], first_round + j);
  }
  return levels;
}

int RootedTree::add_star(const std::vector<int>& members, int first_round) {
  for (std::size_t i = 1; i < members.size(); ++i) add_edge(members[0], members[i], first_round);
  return members.size() > 1 ? 1 : 0;
}

void RootedTree::finish() {
  const int p = size();
  for (auto& kids : children_) {
    std::stable_sort(kids.begin(), kids.end(), [&](int a, int b) { return round_[a] < round_[b]; });
  }
  order_.clear();
  first_.assign(static_cast<std::size_t>(p), 0);
  count_.assign(static_cast<std::size_t>(p), 1);
  std::vector<int> stack{root_};
  while (!stack.empty()) {
    const int r = stack.back();
    stack.pop_back();
    first_[r] = static_cast<int>(order_.size());
    order_.push_back(r);
    for (auto it = children_[r].rbegin(); it != children_[r].rend(); ++it) stack.push_back(*it);
  }
  if (static_cast<int>(order_.size()) != p) {
    throw std::logic_error("the tree reaches " + std::to_string(order_.size()) + " of " + std::to_string(p) + " ranks");
  }
  for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
    const int r = *it;
    if (r == root_) continue;
    count_[parent_[r]] += count_[r];
    if (parent_[r] != root_ && round_[r] <= round_[parent_[r]]) {
      throw std::logic_error("rank " + std::to_string(r) + " would get its blocks before its parent has them");
    }
  }
  rounds_ = std::max(rounds_, 1);
}

std::pair<const int*, const int*> RootedTree::subtree(int rank) const {
  const int* begin = order_.data() + first_[rank];
  return {begin, begin + count_[rank]};
}

namespace {

class TreePlan final : public RoundPlan {
 public:
  TreePlan(const Problem& problem, std::shared_ptr<const RootedTree> tree)
      : problem_(problem), tree_(std::move(tree)), scatter_(flows_from_root(problem.operation)) {}

  std::size_t rounds(int) const override { return static_cast<std::size_t>(tree_->rounds()); }

  std::size_t scratch_bytes(int rank) const override {
    if (rank == tree_->root()) return 0;
    const auto [begin, end] = tree_->subtree(rank);
    return bytes_of(begin + 1, end);
  }

  void emit(int rank, std::size_t round, RoundSink& sink) const override {
    const int root = tree_->root();
    // The scatter round this round stands for: gather runs the rounds backwards.
    const int tree_round = scatter_ ? static_cast<int>(round) : tree_->rounds() - 1 - static_cast<int>(round);
    // The root's own block: copied while its first round's messages are in flight.
    if (rank == root && round == 0) {
      sink.copy_after_posts(problem_.send_segment(root, root), problem_.recv_segment(root, root));
    }
    if (rank != root && tree_->receive_round(rank) == tree_round) to_parent(rank, sink);
    for (int child : tree_->children(rank)) {
      if (tree_->receive_round(child) == tree_round) to_child(rank, child, sink);
    }
  }

 private:
  std::size_t block_bytes(int rank) const {
    return scatter_ ? problem_.bytes(tree_->root(), rank) : problem_.bytes(rank, tree_->root());
  }
  std::size_t bytes_of(const int* begin, const int* end) const {
    std::size_t total = 0;
    for (const int* r = begin; r != end; ++r) total += block_bytes(*r);
    return total;
  }

  // One message with the parent or a child: blocks flow down in scatter, up in gather. Sent
  // even when empty: a rank's own block size comes from its own arguments, which its parent
  // cannot see (it learnt the size the root expects), so only a message on every edge lets a
  // disagreement be reported instead of leaving the parent waiting.
  void message(int peer, bool with_parent, const std::vector<Segment>& segments, RoundSink& sink) const {
    if (scatter_ != with_parent) {
      sink.send(peer, segments, 0);
    } else {
      sink.recv(peer, segments, 0);
    }
  }

  // The rank's own block, then the rest of its subtree's from scratch.
  void to_parent(int rank, RoundSink& sink) const {
    const int root = tree_->root();
    const auto [begin, end] = tree_->subtree(rank);
    const Segment own = scatter_ ? problem_.recv_segment(rank, root) : problem_.send_segment(rank, root);
    std::vector<Segment> segments{own};
    if (end - begin > 1) segments.push_back(scratch_range(0, bytes_of(begin + 1, end)));
    message(tree_->parent(rank), true, segments, sink);
  }

  // The child's subtree: per block from the root's buffer, one piece of scratch elsewhere.
  void to_child(int rank, int child, RoundSink& sink) const {
    const auto [begin, end] = tree_->subtree(child);
    std::vector<Segment> segments;
    if (rank == tree_->root()) {
      for (const int* d = begin; d != end; ++d) {
        segments.push_back(scatter_ ? problem_.send_segment(rank, *d) : problem_.recv_segment(rank, *d));
      }
    } else {
      const int* mine = tree_->subtree(rank).first;
      segments.push_back(scratch_range(bytes_of(mine + 1, begin), bytes_of(begin, end)));
    }
    message(child, false, segments, sink);
  }

  Problem problem_;
  std::shared_ptr<const RootedTree> tree_;
  bool scatter_;
};

}  // namespace

std::unique_ptr<RoundPlan> plan_tree(const Problem& problem, std::shared_ptr<const RootedTree> tree) {
  return std::make_unique<TreePlan>(problem, std::move(tree));
}

void tree_size_questions(const Problem& problem, const RootedTree& tree, int rank, SizeQuestions& out) {
  out.reset(problem.size);
  const int root = tree.root();
  // The blocks below `member` in its subtree, as pairs with the root.
  const auto below = [&](int member) {
    std::vector<std::pair<int, int>> blocks;
    const auto [begin, end] = tree.subtree(member);
    for (const int* d = begin + 1; d < end; ++d) {
      blocks.push_back(flows_from_root(problem.operation) ? std::pair{root, *d} : std::pair{*d, root});
    }
    return blocks;
  };
  if (rank != root) {
    out.learn[static_cast<std::size_t>(root)] = below(rank);
    return;
  }
  for (int peer = 0; peer < problem.size; ++peer) {
    if (peer != root) out.tell[static_cast<std::size_t>(peer)] = below(peer);
  }
}

}  // namespace topocoll
