// linear: the root exchanges every block itself. Scatter: the root posts a send of block
// root -> d to every other rank d, in the order d = root+1, root+2, ... (mod p), and each rank
// receives its block; gather: the mirror image. The root's own block is a local copy, made
// while the messages are in flight.
// Rounds: 1. Messages at the root: p-1, one per rank elsewhere. Every byte leaves (or enters)
// through the root's link: (p-1) blocks, the lower bound of a flat machine and the schedule
// that topology-aware scatter and gather improve on when the root's link is not the bottleneck.
#include "algorithms/rooted_algorithms.hpp"

#include <string>

namespace topocoll {

Applicability supports_linear(const Problem& problem) { return supports_rooted(problem, "linear"); }

namespace {

class LinearPlan final : public RoundPlan {
 public:
  explicit LinearPlan(const Problem& problem) : problem_(problem) {}
  std::size_t rounds(int) const override { return 1; }
  void emit(int rank, std::size_t, RoundSink& sink) const override {
    const int root = problem_.root;
    const bool scatter = flows_from_root(problem_.operation);
    if (rank != root) {
      if (scatter) {
        sink.recv(root, problem_.recv_segment(rank, root));
      } else {
        sink.send(root, problem_.send_segment(rank, root));
      }
      return;
    }
    for (int i = 1; i < problem_.size; ++i) {
      const int peer = (root + i) % problem_.size;
      if (scatter) {
        sink.send(peer, problem_.send_segment(root, peer));
      } else {
        sink.recv(peer, problem_.recv_segment(root, peer));
      }
    }
    sink.copy_after_posts(problem_.send_segment(root, root), problem_.recv_segment(root, root));
  }

 private:
  Problem problem_;
};

}  // namespace

std::unique_ptr<RoundPlan> plan_linear(const Problem& problem) { return std::make_unique<LinearPlan>(problem); }

}  // namespace topocoll
