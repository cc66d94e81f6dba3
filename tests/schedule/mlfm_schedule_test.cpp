// mlfm, proven link by link (issue 14): on the multi-layer full mesh's own routes
// (network/mlfm.hpp), every phase of the algorithm puts at most one flow on each directed link,
// for the paper's four jobs on its 32-server testbed and for every valid box of D = 3 and
// D = 4; the shift pattern on the same boxes puts M flows on some link (2 on the paper's first
// three jobs, 3 on 24 B). Also: each phase is a permutation whose inverse is mlfm_source, the
// schedules pass the verifier, the routes go through the spines the paper names, and the
// algorithm says why it does not apply to ranks that are no box.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <random>
#include <set>

#include "algorithms/mlfm.hpp"
#include "algorithms/registry.hpp"
#include "network/mlfm.hpp"
#include "schedule/link_loads.hpp"
#include "schedule/verifier.hpp"
#include "topology/topology_file.hpp"

namespace topocoll {
namespace {

network::MlfmSpec mesh(int d, int last_layer_servers = 0) {
  network::MlfmSpec spec;
  spec.d = d;
  spec.last_layer_servers = last_layer_servers;
  return spec;
}

// The paper's testbed: D = 3, two servers on each leaf of the last layer.
network::MlfmSpec testbed() { return mesh(3, 2); }

// The job's servers in rank order (layer, column, slot), as `topocoll-platform mlfm --job`
// writes its hostfile, and the topology its topology file gives them (read as topocoll's
// loader reads it: a group is its path of names).
struct Job {
  Topology topology;
  std::vector<int> host_of_rank;
};

std::vector<std::string> names_of(const network::MlfmServer& s) {
  return {"column" + std::to_string(s.column), "layer" + std::to_string(s.layer), "slot" + std::to_string(s.slot)};
}

// `order[r]`: the server index (in box order) of rank r; identity when empty.
Job job_on(const network::MlfmSpec& spec, const MlfmShape& shape, std::vector<int> order = {}) {
  std::vector<network::MlfmServer> servers;
  for (int i = 0; i < shape.layers; ++i)
    for (int j = 0; j < shape.columns; ++j)
      for (int k = 0; k < shape.slots; ++k) servers.push_back({i, j, k});
  if (order.empty()) {
    for (std::size_t s = 0; s < servers.size(); ++s) order.push_back(static_cast<int>(s));
  }
  std::vector<std::vector<std::string>> paths;
  Job job;
  for (const int s : order) {
    paths.push_back(names_of(servers[static_cast<std::size_t>(s)]));
    job.host_of_rank.push_back(network::mlfm_host(spec, servers[static_cast<std::size_t>(s)]));
  }
  job.topology = topology_for_group_names({"column", "layer", "slot"}, paths);
  return job;
}

// Every box the network can run: 1 <= N <= D, 1 <= M <= L - 1 <= D, M servers on each leaf.
std::vector<MlfmShape> valid_boxes(const network::MlfmSpec& spec) {
  std::vector<MlfmShape> boxes;
  for (int n = 1; n <= spec.layers(); ++n) {
    for (int l = 2; l <= spec.columns(); ++l) {
      for (int m = 1; m <= l - 1; ++m) {
        if (!network::check_box(spec, {n, l, m})) boxes.push_back({n, l, m});
      }
    }
  }
  return boxes;
}

int worst_load(const char* algorithm, const network::MlfmSpec& spec, const MlfmShape& shape) {
  const Job job = job_on(spec, shape);
  const Problem problem{shape.size(), 64, &job.topology, {}};
  const Algorithm& a = *find_algorithm(Operation::alltoall, algorithm);
  EXPECT_TRUE(a.supports(problem).ok) << a.supports(problem).reason;
  const Schedule schedule = build_full_schedule(a, problem);
  EXPECT_TRUE(verify(schedule).ok) << algorithm << " " << shape.layers << "," << shape.columns << "," << shape.slots
                                   << ": " << verify(schedule).summary();
  return link_loads(schedule, network::mlfm_network(spec), job.host_of_rank).max_flows_per_link;
}

std::string name_of(const MlfmShape& s) {
  return std::to_string(s.layers) + "," + std::to_string(s.columns) + "," + std::to_string(s.slots);
}

TEST(MlfmSchedule, EveryPhaseIsAPermutationAndTheSourceItsInverse) {
  for (int n = 1; n <= 4; ++n) {
    for (int l = 2; l <= 5; ++l) {
      for (int m = 1; m <= l - 1; ++m) {
        const MlfmShape shape{n, l, m};
        std::set<std::pair<int, int>> pairs;  // (from, to) over all phases
        for (int q = 0; q < shape.size(); ++q) {
          const MlfmPhase phase = mlfm_phase(shape, q);
          std::set<int> reached;
          for (int i = 0; i < n; ++i) {
            for (int j = 0; j < l; ++j) {
              for (int k = 0; k < m; ++k) {
                const MlfmPosition from{i, j, k};
                const MlfmPosition to = mlfm_destination(shape, from, phase);
                ASSERT_TRUE(to.layer < n && to.column < l && to.slot < m) << name_of(shape);
                EXPECT_TRUE(mlfm_source(shape, to, phase) == from) << name_of(shape) << " phase " << q;
                EXPECT_EQ(phase.t != 0, to.column != j) << name_of(shape) << " phase " << q;
                reached.insert(shape.index(to));
                pairs.insert({shape.index(from), shape.index(to)});
              }
            }
          }
          EXPECT_EQ(reached.size(), static_cast<std::size_t>(shape.size())) << name_of(shape) << " phase " << q;
        }
        EXPECT_EQ(pairs.size(), static_cast<std::size_t>(shape.size() * shape.size())) << name_of(shape);
      }
    }
  }
}

TEST(MlfmSchedule, PhaseZeroIsEachServerToItself) {
  const MlfmShape shape{2, 4, 3};
  const MlfmPhase zero = mlfm_phase(shape, 0);
  EXPECT_TRUE(mlfm_destination(shape, {1, 2, 1}, zero) == (MlfmPosition{1, 2, 1}));
  const MlfmPhase last = mlfm_phase(shape, shape.size() - 1);
  EXPECT_EQ(last.s, 1);
  EXPECT_EQ(last.t, 3);
  EXPECT_EQ(last.u, 2);
}

// The paper's Fig. 2a: from leaf (0, 0) with (s, t) = (1, 3) on l = 4: slot 0 goes to column
// 0+3+0+1 = 4 -> wraps past its own column to (0+3+0+2) % 4 = 1.
TEST(MlfmSchedule, DestinationsOfThePaper) {
  const MlfmShape shape{3, 4, 2};
  const MlfmPosition slot0 = mlfm_destination(shape, {0, 0, 0}, {1, 3, 0});
  EXPECT_TRUE(slot0 == (MlfmPosition{1, 1, 0}));
  const MlfmPosition slot1 = mlfm_destination(shape, {0, 0, 1}, {1, 3, 1});
  EXPECT_TRUE(slot1 == (MlfmPosition{1, 2, 0}));
  const MlfmPosition first = mlfm_destination(shape, {0, 0, 0}, {1, 1, 0});
  EXPECT_TRUE(first == (MlfmPosition{1, 2, 0}));
}

TEST(MlfmSchedule, NoLinkCarriesTwoFlowsInAPhaseOnThePapersJobs) {
  // 12, 18, 24 A, 24 B servers on the testbed; the shift pattern's worst load beside.
  const std::vector<std::pair<MlfmShape, int>> jobs = {{{2, 3, 2}, 2}, {{3, 3, 2}, 2}, {{3, 4, 2}, 2}, {{2, 4, 3}, 3}};
  for (const auto& [shape, shift_worst] : jobs) {
    EXPECT_EQ(worst_load("mlfm", testbed(), shape), 1) << name_of(shape);
    EXPECT_EQ(worst_load("shift", testbed(), shape), shift_worst) << name_of(shape);
  }
}

TEST(MlfmSchedule, NoLinkCarriesTwoFlowsInAPhaseOnEveryBoxOfD3AndD4) {
  for (int d : {3, 4}) {
    const std::vector<MlfmShape> boxes = valid_boxes(mesh(d));
    EXPECT_EQ(boxes.size(), static_cast<std::size_t>(d * d * (d + 1) / 2));  // N < D+1, sum of (L-1) over L
    std::string shift_loads;
    for (const MlfmShape& shape : boxes) {
      EXPECT_EQ(worst_load("mlfm", mesh(d), shape), 1) << "D=" << d << " box " << name_of(shape);
      // shift's ranks are consecutive on a leaf: when a step sends a leaf's M servers to another
      // column's leaf, all M go up through the one spine of the two columns.
      const int shift = worst_load("shift", mesh(d), shape);
      EXPECT_EQ(shift, shape.slots) << "D=" << d << " box " << name_of(shape);
      shift_loads += " " + name_of(shape) + ":" + std::to_string(shift);
    }
    std::cout << "D=" << d << " shift's worst flows per link (N,L,M:flows):" << shift_loads << '\n';
  }
}

TEST(MlfmSchedule, RoutesGoThroughTheSpinesThePaperNames) {
  const network::MlfmSpec spec = testbed();
  const network::Network net = network::mlfm_network(spec);
  EXPECT_EQ(net.host_count(), 32);
  EXPECT_EQ(spec.servers(), 32);
  std::vector<network::Hop> hops;
  const auto spines_on = [&](const network::MlfmServer& a, const network::MlfmServer& b) {
    net.route(network::mlfm_host(spec, a), network::mlfm_host(spec, b), hops);
    std::vector<std::string> spines;
    for (const network::Hop& h : hops) {
      const std::string& id = net.links[static_cast<std::size_t>(h.link)].id;
      if (id.rfind("spine", 0) == 0) spines.push_back(id);
    }
    return spines;
  };
  // Between columns: the spine of the two columns, either way.
  EXPECT_EQ(spines_on({0, 1, 0}, {2, 3, 1}), std::vector<std::string>{"spine1.3"});
  EXPECT_EQ(spines_on({2, 3, 1}, {0, 1, 0}), std::vector<std::string>{"spine1.3"});
  // Within column 2 between layers: spine {2, (2 + k + 1) mod 4}, k the sender's slot.
  EXPECT_EQ(spines_on({0, 2, 0}, {1, 2, 2}), std::vector<std::string>{"spine2.3"});
  EXPECT_EQ(spines_on({0, 2, 1}, {1, 2, 2}), std::vector<std::string>{"spine0.2"});
  EXPECT_EQ(spines_on({1, 2, 2}, {0, 2, 1}), std::vector<std::string>{"spine1.2"});
  // Within a leaf: no spine, the two servers' links and the leaf.
  EXPECT_TRUE(spines_on({1, 0, 0}, {1, 0, 2}).empty());
  ASSERT_FALSE(hops.empty());
  EXPECT_EQ(net.links[static_cast<std::size_t>(hops.front().link)].id, "server1.0.0-0");
  EXPECT_EQ(net.links[static_cast<std::size_t>(hops.back().link)].id, "server1.0.2-0");
  EXPECT_TRUE(hops.back().down);
}

TEST(MlfmSchedule, SaysWhyItDoesNotApply) {
  const Algorithm& mlfm = *find_algorithm(Operation::alltoall, "mlfm");
  const Topology clusters = *Topology::parse("clusters:6,6", nullptr);
  const Applicability on_clusters = mlfm.supports(Problem{12, 8, &clusters, {}});
  EXPECT_FALSE(on_clusters.ok);
  EXPECT_NE(on_clusters.reason.find("column, layer, slot"), std::string::npos) << on_clusters.reason;
  EXPECT_FALSE(mlfm.supports(Problem{12, 8, nullptr, {}}).ok);

  // Three slots on three columns: M > L - 1.
  const Job wide = job_on(mesh(3), {1, 3, 3});
  const Applicability too_wide = mlfm.supports(Problem{9, 8, &wide.topology, {}});
  EXPECT_FALSE(too_wide.ok);
  EXPECT_NE(too_wide.reason.find("slots <= columns - 1"), std::string::npos) << too_wide.reason;

  // A box with a server missing: one leaf holds a single server.
  const Job holed = job_on(mesh(3), {2, 3, 2});
  const Topology eleven = holed.topology.restricted_to({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  const Applicability missing = mlfm.supports(Problem{11, 8, &eleven, {}});
  EXPECT_FALSE(missing.ok);
  EXPECT_NE(missing.reason.find("as many servers on every leaf"), std::string::npos) << missing.reason;

  // A column with one leaf less.
  const Topology short_column = holed.topology.restricted_to({0, 1, 2, 3, 4, 5, 8, 9, 10, 11});
  const Applicability uneven = mlfm.supports(Problem{10, 8, &short_column, {}});
  EXPECT_FALSE(uneven.ok);
  EXPECT_NE(uneven.reason.find("as many leaves in every column"), std::string::npos) << uneven.reason;

  // Two ranks on one server.
  const Topology doubled = topology_for_group_names(
      {"column", "layer", "slot"}, {{"column0", "layer0", "slot0"}, {"column1", "layer0", "slot0"},
                                    {"column0", "layer0", "slot0"}, {"column1", "layer0", "slot0"}});
  const Applicability shared = mlfm.supports(Problem{4, 8, &doubled, {}});
  EXPECT_FALSE(shared.ok);
  EXPECT_NE(shared.reason.find("one rank per server"), std::string::npos) << shared.reason;

  // The node level the executor adds inside is ignored.
  const Topology with_nodes = holed.topology.with_inner_level("node", std::vector<int>(12, 0));
  EXPECT_TRUE(mlfm.supports(Problem{12, 8, &with_nodes, {}}).ok) << mlfm.supports(Problem{12, 8, &with_nodes, {}}).reason;
}

TEST(MlfmSchedule, RankOrderIsFreeTheCoordinatesComeFromTheTopology) {
  // The paper's jobs with their ranks reversed and shuffled: still every block once, still no
  // shared link (a column's leaves and a leaf's servers may be numbered in any order).
  const network::MlfmSpec spec = testbed();
  std::mt19937 rng(14);
  for (const MlfmShape& shape : {MlfmShape{2, 3, 2}, MlfmShape{3, 3, 2}, MlfmShape{3, 4, 2}, MlfmShape{2, 4, 3}}) {
    std::vector<int> order(static_cast<std::size_t>(shape.size()));
    for (int r = 0; r < shape.size(); ++r) order[static_cast<std::size_t>(r)] = shape.size() - 1 - r;
    for (int shuffle = 0; shuffle < 4; ++shuffle) {
      const Job job = job_on(spec, shape, order);
      const Problem problem{shape.size(), 8, &job.topology, {}};
      const Schedule schedule = build_full_schedule(*find_algorithm(Operation::alltoall, "mlfm"), problem);
      EXPECT_TRUE(verify(schedule).ok) << verify(schedule).summary();
      EXPECT_EQ(link_loads(schedule, network::mlfm_network(spec), job.host_of_rank).max_flows_per_link, 1)
          << name_of(shape) << " order " << shuffle;
      EXPECT_EQ(schedule.ranks[0].rounds.size(), static_cast<std::size_t>(shape.size() - 1));
      std::shuffle(order.begin(), order.end(), rng);
    }
  }
}

// A job that is not the paper's box but has its shape (layers 1 and 2 in one column, 0 and 2 in
// the other, slots 2 and 0 on some leaves): each column is still one column in every layer, so
// no link is shared either.
TEST(MlfmSchedule, AnyLeavesOfEachColumnAndAnyServersOfEachLeaf) {
  const network::MlfmSpec spec = mesh(3);
  const std::vector<network::MlfmServer> servers = {{1, 0, 0}, {1, 0, 2}, {2, 0, 1}, {2, 0, 2},
                                                    {0, 3, 2}, {0, 3, 0}, {2, 3, 0}, {2, 3, 1},
                                                    {0, 1, 1}, {0, 1, 0}, {1, 1, 2}, {1, 1, 1}};
  std::vector<std::vector<std::string>> paths;
  std::vector<int> hosts;
  for (const network::MlfmServer& s : servers) {
    paths.push_back(names_of(s));
    hosts.push_back(network::mlfm_host(spec, s));
  }
  const Topology topology = topology_for_group_names({"column", "layer", "slot"}, paths);
  const Schedule schedule =
      build_full_schedule(*find_algorithm(Operation::alltoall, "mlfm"), Problem{12, 8, &topology, {}});
  EXPECT_TRUE(verify(schedule).ok) << verify(schedule).summary();
  EXPECT_EQ(link_loads(schedule, network::mlfm_network(spec), hosts).max_flows_per_link, 1);
}

}  // namespace
}  // namespace topocoll
