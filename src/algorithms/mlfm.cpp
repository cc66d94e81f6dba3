// mlfm: Shimizu, Miwa and Nakashima's congestion-free total exchange among a box of servers
// of a multi-layer full mesh (mlfm-congestion-free-all-to-all.txt, section 2; NOTES.md). The
// ranks are servers (i, j, k): layer i < n, column j < l, slot k < m, 1 <= m <= l - 1. In phase
// (s, t, u) server (i, j, k) sends its block to ((i+s)%n, j', (k+u)%m): for t != 0 in another
// column, j' = (j+t+k+1)%l when t+k+1 < l and (j+t+k+2)%l otherwise; for t = 0 in its own
// column (j' = j), which the network routes through spine {j, (j+k+1) mod (D+1)}. Each phase is
// a permutation, and on the mesh's routes no link carries two of its flows (the tests check it
// link by link). Why: with t != 0 the m servers of a leaf reach m different columns (the
// offset is injective in k), so m different spines and up-links, and a leaf receives from one
// leaf per other column, one server each; with t = 0 they stay in their column through m
// different spines, their physical slots being different. Neither argument needs the job's
// numbering of a column's leaves or of a leaf's servers to be the network's, only each column
// to be one column in every layer (mlfm_job). Each rank receives from the inverse of the map.
// Rounds: n*l*m - 1 (phase (0,0,0) is the local copy, in the first round). Messages per rank:
// p-1, one per round. Bytes per rank: (p-1)*B; alltoallv: its own blocks, same phases.
#include "algorithms/mlfm.hpp"

#include <utility>

#include "topology/topology_file.hpp"

namespace topocoll {

namespace {

int wrap(int value, int modulus) { return ((value % modulus) + modulus) % modulus; }

// How far (mod l) a server in slot `slot` sends across columns in a phase with t != 0: t+k+1,
// or t+k+2 once that reaches l, which skips the server's own column.
int column_offset(const MlfmShape& shape, int t, int slot) {
  return t + slot + 1 < shape.columns ? t + slot + 1 : t + slot + 2;
}

}  // namespace

MlfmPhase mlfm_phase(const MlfmShape& shape, int q) {
  return {q / (shape.columns * shape.slots), (q / shape.slots) % shape.columns, q % shape.slots};
}

MlfmPosition mlfm_destination(const MlfmShape& shape, const MlfmPosition& from, const MlfmPhase& phase) {
  const int column = phase.t == 0 ? from.column
                                  : (from.column + column_offset(shape, phase.t, from.slot)) % shape.columns;
  return {(from.layer + phase.s) % shape.layers, column, (from.slot + phase.u) % shape.slots};
}

MlfmPosition mlfm_source(const MlfmShape& shape, const MlfmPosition& to, const MlfmPhase& phase) {
  const int slot = wrap(to.slot - phase.u, shape.slots);
  const int column = phase.t == 0 ? to.column : wrap(to.column - column_offset(shape, phase.t, slot), shape.columns);
  return {wrap(to.layer - phase.s, shape.layers), column, slot};
}

std::optional<MlfmJob> mlfm_job(const Topology* topology, int size, std::string* why_not) {
  const auto fail = [why_not](std::string reason) {
    if (why_not) *why_not = "mlfm " + std::move(reason);
    return std::nullopt;
  };
  if (!topology || topology->size() != size) {
    return fail("needs a topology describing all " + std::to_string(size) + " ranks");
  }
  // Inner levels (the node level the executor adds) may follow; one rank per server is checked below.
  const std::vector<std::string>& levels = topology->levels();
  if (levels.size() < 3 || levels[0] != "column" || levels[1] != "layer" || levels[2] != "slot") {
    return fail("needs a multi-layer full mesh's topology, levels column, layer, slot (topocoll-platform mlfm); "
                "this one has " + topology->describe());
  }
  // A column is a group of level 0, the same in every layer; a leaf a group of level 1 (within
  // its column); a server a group of level 2. Each column's leaves and each leaf's servers are
  // numbered in order of first appearance.
  const int columns = topology->group_count(0);
  std::vector<int> leaves_of_column(static_cast<std::size_t>(columns), 0);
  std::vector<int> layer_of_leaf(static_cast<std::size_t>(topology->group_count(1)), -1);
  std::vector<int> servers_of_leaf(layer_of_leaf.size(), 0);
  std::vector<int> rank_of_server(static_cast<std::size_t>(topology->group_count(2)), -1);
  MlfmJob job;
  for (int r = 0; r < size; ++r) {
    const auto column = static_cast<std::size_t>(topology->group(r, 0));
    const auto leaf = static_cast<std::size_t>(topology->group(r, 1));
    int& owner = rank_of_server[static_cast<std::size_t>(topology->group(r, 2))];
    if (owner >= 0) {
      return fail("needs one rank per server; ranks " + std::to_string(owner) + " and " + std::to_string(r) +
                  " share one");
    }
    owner = r;
    if (layer_of_leaf[leaf] < 0) layer_of_leaf[leaf] = leaves_of_column[column]++;
    job.position_of_rank.push_back({layer_of_leaf[leaf], static_cast<int>(column), servers_of_leaf[leaf]++});
  }
  job.shape = {leaves_of_column.front(), columns, servers_of_leaf.front()};
  MlfmShape& shape = job.shape;
  for (int c = 0; c < columns; ++c) {
    if (leaves_of_column[static_cast<std::size_t>(c)] != shape.layers) {
      return fail("needs the ranks to fill a box: as many leaves in every column (column " + std::to_string(c) +
                  " has " + std::to_string(leaves_of_column[static_cast<std::size_t>(c)]) + ", column 0 " +
                  std::to_string(shape.layers) + ")");
    }
  }
  for (const int servers : servers_of_leaf) {
    if (servers != shape.slots) {
      return fail("needs the ranks to fill a box: as many servers on every leaf (" + std::to_string(servers) +
                  " and " + std::to_string(shape.slots) + ")");
    }
  }
  if (columns < 2 || shape.slots > columns - 1) {
    return fail("needs 1 <= slots <= columns - 1; the ranks use " + std::to_string(columns) + " columns and " +
                std::to_string(shape.slots) + " slots");
  }
  job.rank_at.assign(static_cast<std::size_t>(size), -1);
  for (int r = 0; r < size; ++r) {
    job.rank_at[static_cast<std::size_t>(shape.index(job.position_of_rank[static_cast<std::size_t>(r)]))] = r;
  }
  return job;
}

std::optional<MlfmJob> mlfm_job_of(const Problem& problem) {
  if (problem.topology != nullptr) {
    if (std::optional<MlfmJob> job = mlfm_job(problem.topology, problem.size, nullptr)) return job;
  }
  const NetworkPlacement* placement = problem.network;
  if (placement == nullptr || placement->network == nullptr ||
      placement->host_of_rank.size() != static_cast<std::size_t>(problem.size)) {
    return std::nullopt;
  }
  const network::Network& net = *placement->network;
  std::vector<std::vector<std::string>> paths;
  for (const int host : placement->host_of_rank) {
    if (host < 0 || host >= net.host_count()) return std::nullopt;
    const std::vector<std::string>& groups = net.clusters[static_cast<std::size_t>(net.cluster_of(host))].groups;
    if (groups.size() != net.levels.size()) return std::nullopt;
    paths.push_back(groups);
  }
  const Topology topology = topology_for_group_names(net.levels, paths);
  return mlfm_job(&topology, problem.size, nullptr);
}

std::vector<std::vector<int>> mlfm_destinations(const MlfmJob& job) {
  const int size = job.shape.size();
  std::vector<std::vector<int>> destination(static_cast<std::size_t>(size - 1), std::vector<int>(static_cast<std::size_t>(size)));
  for (int q = 1; q < size; ++q) {
    const MlfmPhase phase = mlfm_phase(job.shape, q);
    for (int rank = 0; rank < size; ++rank) {
      const MlfmPosition to = mlfm_destination(job.shape, job.position_of_rank[static_cast<std::size_t>(rank)], phase);
      destination[static_cast<std::size_t>(q - 1)][static_cast<std::size_t>(rank)] =
          job.rank_at[static_cast<std::size_t>(job.shape.index(to))];
    }
  }
  return destination;
}

Applicability supports_mlfm(const Problem& problem) {
  std::string why_not;
  if (!mlfm_job(problem.topology, problem.size, &why_not)) return {false, why_not};
  return {};
}

namespace {

class MlfmPlan final : public RoundPlan {
 public:
  MlfmPlan(const Problem& problem, MlfmJob job) : problem_(problem), job_(std::move(job)) {}
  std::size_t rounds(int) const override { return static_cast<std::size_t>(job_.shape.size() - 1); }
  void emit(int rank, std::size_t round, RoundSink& sink) const override {
    if (round == 0) sink.copy(problem_.send_segment(rank, rank), problem_.recv_segment(rank, rank));
    const MlfmPhase phase = mlfm_phase(job_.shape, static_cast<int>(round) + 1);
    const MlfmPosition& at = job_.position_of_rank[static_cast<std::size_t>(rank)];
    const int to = rank_at(mlfm_destination(job_.shape, at, phase));
    const int from = rank_at(mlfm_source(job_.shape, at, phase));
    sink.recv(from, problem_.recv_segment(rank, from));
    sink.send(to, problem_.send_segment(rank, to));
  }

 private:
  int rank_at(const MlfmPosition& at) const { return job_.rank_at[static_cast<std::size_t>(job_.shape.index(at))]; }

  Problem problem_;
  MlfmJob job_;
};

}  // namespace

std::unique_ptr<RoundPlan> plan_mlfm(const Problem& problem) {
  std::optional<MlfmJob> job = mlfm_job(problem.topology, problem.size, nullptr);
  if (!job) return nullptr;  // supports() says why
  return std::make_unique<MlfmPlan>(problem, std::move(*job));
}

}  // namespace topocoll
