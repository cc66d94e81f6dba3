// Every algorithm of every operation's registry, over every topology shape it supports: flat
// (no topology), two clusters (even, one rank against the rest, uneven), three clusters,
// clusters of nodes (two levels), and a multi-layer full mesh's box of servers (mlfm). Each operation gets its layouts:
// alltoall uniform blocks; alltoallv per-pair sizes with empty blocks and gaps between blocks; scatter and gather
// uniform; their v forms with sizes, empty blocks and displacements out of order with gaps.
// Every schedule an algorithm builds for a problem it supports is proven by the verifier, and
// every algorithm with a schedule must have been proven on some problem (so a supports() that
// refuses everything fails here), except bruck on alltoallv, which needs equal blocks. Told to a
// sink that does not want places, each round has the same messages, each with the same bytes
// and touching more than one buffer exactly where the schedule's does (what decides whether the
// executor stages it, which the cost model charges without places); lg's too when it cuts its
// blocks into pieces. Recorded rank after rank over one schedule, each rank is as recorded afresh.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "algorithms/registry.hpp"
#include "schedule/round_sink.hpp"
#include "schedule/staging_rule.hpp"
#include "schedule/verifier.hpp"
#include "topology/topology_file.hpp"

namespace topocoll {
namespace {

struct Shape {
  std::string name;
  std::optional<Topology> topology;  // none: flat use
};

// The servers of a multi-layer full mesh as a box of layers x columns x slots (levels column,
// layer, slot; slots <= columns - 1): the most slots, then the most layers, that make p.
Shape mlfm_box_of_size(int p) {
  for (int m = p; m >= 1; --m) {
    for (int n = p; n >= 1; --n) {
      if (p % (n * m) != 0 || m > p / (n * m) - 1) continue;
      std::vector<std::vector<std::string>> paths;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < p / (n * m); ++j)
          for (int k = 0; k < m; ++k)
            paths.push_back({"column" + std::to_string(j), "layer" + std::to_string(i), "slot" + std::to_string(k)});
      return {"mlfm box " + std::to_string(n) + "x" + std::to_string(p / (n * m)) + "x" + std::to_string(m),
              topology_for_group_names({"column", "layer", "slot"}, paths)};
    }
  }
  return {"flat", std::nullopt};  // p = 1: no box (a box has two columns)
}

std::vector<Shape> shapes_of_size(int p) {
  std::vector<Shape> shapes{{"flat", std::nullopt}};
  std::string error;
  auto add = [&](const std::string& spec) {
    if (auto t = Topology::parse(spec, &error)) shapes.push_back({spec, std::move(*t)});
  };
  if (p >= 2) {
    add("clusters:" + std::to_string(p / 2) + "," + std::to_string(p - p / 2));
    add("clusters:1," + std::to_string(p - 1));
  }
  if (p >= 3) add("clusters:" + std::to_string(p / 3) + "," + std::to_string(p / 3) + "," + std::to_string(p - 2 * (p / 3)));
  if (p >= 4) {
    // Two clusters of nodes of two ranks (the last node may hold one).
    const Topology clusters = *Topology::parse("clusters:" + std::to_string(p / 2) + "," + std::to_string(p - p / 2), &error);
    std::vector<int> nodes(static_cast<std::size_t>(p));
    for (int r = 0; r < p; ++r) nodes[r] = r / 2;
    shapes.push_back({"clusters of nodes", clusters.with_inner_level("node", nodes)});
  }
  if (p >= 2) shapes.push_back(mlfm_box_of_size(p));
  return shapes;
}

// Sizes that vary per pair, with empty blocks.
std::size_t varied(int src, int dst) { return static_cast<std::size_t>((src * 7 + dst * 3) % 5); }

// Displacements at the root: blocks in reverse rank order, 3 unused bytes after each.
std::vector<std::size_t> reversed_with_gaps(const std::vector<std::size_t>& bytes) {
  std::vector<std::size_t> displacements(bytes.size());
  std::size_t at = 0;
  for (std::size_t d = bytes.size(); d-- > 0;) {
    displacements[d] = at;
    at += bytes[d] + 3;
  }
  return displacements;
}

// A message as a sink without places sees it: peer, bytes, whether it mixes buffers, rounds in flight.
using MessageTally = std::tuple<int, std::size_t, bool, std::size_t>;

MessageTally tally(int peer, std::span<const Segment> segments, std::size_t overlap_rounds) {
  std::size_t bytes = 0;
  for (const Segment& s : segments) bytes += s.length;
  return {peer, bytes, mixes_buffers(segments), overlap_rounds};
}

class WithoutPlaces final : public RoundSink {
 public:
  bool wants_places() const override { return false; }
  void copy(const Segment&, const Segment&) override {}
  void copy_after_posts(const Segment&, const Segment&) override {}
  void send(int peer, std::span<const Segment> segments, std::size_t overlap_rounds) override {
    sends.push_back(tally(peer, segments, overlap_rounds));
  }
  void recv(int peer, std::span<const Segment> segments, std::size_t overlap_rounds) override {
    recvs.push_back(tally(peer, segments, overlap_rounds));
  }
  std::vector<MessageTally> sends, recvs;
};

// Each round of `plan` told without places has the schedule's messages (in any order).
void expect_the_same_messages_without_places(const RoundPlan& plan, const Schedule& schedule, const std::string& what) {
  for (int r = 0; r < schedule.size; ++r) {
    const std::vector<Round>& rounds = schedule.ranks[static_cast<std::size_t>(r)].rounds;
    for (std::size_t t = 0; t < rounds.size(); ++t) {
      WithoutPlaces told;
      plan.emit(r, t, told);
      for (auto [mine, theirs] : {std::pair{&rounds[t].sends, &told.sends}, std::pair{&rounds[t].recvs, &told.recvs}}) {
        std::vector<MessageTally> expected;
        for (const Transfer& transfer : *mine)
          expected.push_back(tally(transfer.peer, transfer.segments, transfer.overlap_rounds));
        std::sort(expected.begin(), expected.end());
        std::sort(theirs->begin(), theirs->end());
        EXPECT_EQ(*theirs, expected) << what << ": rank " << r << " round " << t << " told without places";
      }
    }
  }
}

bool same_transfers(const std::vector<Transfer>& a, const std::vector<Transfer>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Transfer& x, const Transfer& y) {
    return x.peer == y.peer && x.segments == y.segments && x.overlap_rounds == y.overlap_rounds;
  });
}

bool same_rank(const RankSchedule& a, const RankSchedule& b) {
  const auto same_copy = [](const LocalCopy& x, const LocalCopy& y) {
    return x.from == y.from && x.to == y.to && x.after_posts == y.after_posts;
  };
  const auto same_round = [&](const Round& x, const Round& y) {
    return std::equal(x.copies.begin(), x.copies.end(), y.copies.begin(), y.copies.end(), same_copy) &&
           same_transfers(x.sends, y.sends) && same_transfers(x.recvs, y.recvs);
  };
  return a.scratch_bytes == b.scratch_bytes && a.metadata == b.metadata &&
         std::equal(a.rounds.begin(), a.rounds.end(), b.rounds.begin(), b.rounds.end(), same_round);
}

// Each rank recorded over the one before it (topocoll-plan's statistics read the ranks so), last
// rank first, is the schedule recorded afresh: nothing of an earlier rank stays.
void expect_the_same_recorded_over_one_schedule(const RoundPlan& plan, const Schedule& schedule,
                                                const std::string& what) {
  RankSchedule reused;
  for (int r = schedule.size - 1; r >= 0; --r) {
    record_rank(plan, r, reused);
    EXPECT_TRUE(same_rank(reused, schedule.ranks[static_cast<std::size_t>(r)]))
        << what << ": rank " << r << " recorded over rank " << r + 1;
  }
}

// Verifies `algorithm` on `problem` when it applies; returns whether it did.
bool verified_if_supported(const Algorithm& algorithm, const Problem& problem, const BlockMap& layout,
                           const std::string& what) {
  if (!algorithm.supports(problem).ok) return false;
  const Schedule schedule = build_full_schedule(algorithm, problem);
  const Verdict verdict = verify(schedule, layout);
  EXPECT_TRUE(verdict.ok) << algorithm.name << ", " << what << ": " << verdict.summary();
  if (const auto plan = algorithm.plan(problem)) {
    expect_the_same_messages_without_places(*plan, schedule, std::string(algorithm.name) + ", " + what);
    expect_the_same_recorded_over_one_schedule(*plan, schedule, std::string(algorithm.name) + ", " + what);
  }
  return true;
}

TEST(RegistrySweep, EveryAlgorithmOfEveryOperationOnEveryShape) {
  std::map<std::string, int> proven;  // "operation algorithm" -> problems verified
  std::map<std::string, int> proven_on_topology;
  for (Operation op : kOperations) {
    for (const Algorithm& algorithm : algorithms_for(op)) {
      if (!algorithm.has_schedule()) continue;
      const std::string key = std::string(to_string(op)) + " " + std::string(algorithm.name);
      proven[key] += 0;
      for (int p : {1, 2, 3, 5, 8, 13}) {
        for (const Shape& shape : shapes_of_size(p)) {
          const Topology* topology = shape.topology ? &*shape.topology : nullptr;
          std::vector<std::pair<Problem, std::unique_ptr<BlockMap>>> problems;
          const std::string where = "p=" + std::to_string(p) + " on " + shape.name;
          if (op == Operation::alltoall) {
            problems.push_back({Problem{p, 3, topology, {}}, std::make_unique<UniformBlocks>(3)});
          } else if (op == Operation::alltoallv) {
            std::vector<std::vector<std::size_t>> bytes(p, std::vector<std::size_t>(p));
            for (int s = 0; s < p; ++s)
              for (int d = 0; d < p; ++d) bytes[s][d] = varied(s, d);
            auto blocks = std::make_unique<KnownBlocks>(bytes, 2);
            Problem problem{p, 0, topology, {}, blocks.get(), op};
            problems.push_back({problem, std::move(blocks)});
          } else {
            const auto flow = RootedBlocks::flow_of(op);
            for (int root : {0, p / 2, p - 1}) {
              std::unique_ptr<RootedBlocks> layout;
              if (is_variable(op)) {
                std::vector<std::size_t> bytes(static_cast<std::size_t>(p));
                for (int d = 0; d < p; ++d) bytes[d] = varied(root, d);
                layout = std::make_unique<RootedBlocks>(flow, root, bytes, reversed_with_gaps(bytes));
              } else {
                layout = std::make_unique<RootedBlocks>(RootedBlocks::uniform(flow, root, p, 4));
              }
              const Problem problem = Problem::rooted(op, *layout, topology);
              problems.push_back({problem, std::move(layout)});
            }
          }
          for (auto& [problem, layout] : problems) {
            const std::string what = std::string(to_string(op)) + " " + where + " root " + std::to_string(problem.root);
            if (verified_if_supported(algorithm, problem, *layout, what)) {
              ++proven[key];
              if (topology) ++proven_on_topology[key];
            }
          }
        }
      }
    }
  }
  // bruck is listed for alltoallv so that asking for it says why it does not apply there.
  EXPECT_EQ(proven["alltoallv bruck"], 0);
  proven.erase("alltoallv bruck");
  for (const auto& [key, count] : proven) EXPECT_GT(count, 0) << key << " was never verified";
  // The topology-aware ones ran on topologies, and so did the flat ones (they ignore it).
  for (const auto& [key, count] : proven) {
    if (count > 0) {
      EXPECT_GT(proven_on_topology[key], 0) << key << " never ran with a topology";
    }
  }
}

// lg cuts blocks into pieces under its knobs (a piece size, or a cap on scratch), and then tells
// the cost model its rounds by counting: the pieces' messages, told without places, are the
// schedule's too, the last piece partial.
TEST(RegistrySweep, LgCutIntoPiecesTellsWhatItsScheduleHas) {
  const Algorithm* lg = find_algorithm(Operation::alltoall, "lg");
  ASSERT_NE(lg, nullptr);
  int proven = 0;
  for (int p : {2, 3, 5, 8, 13}) {
    for (const Shape& shape : shapes_of_size(p)) {
      if (!shape.topology) continue;
      for (const AlgorithmKnobs knobs : {AlgorithmKnobs{.segment_bytes = 2}, AlgorithmKnobs{.max_scratch_bytes = 24}}) {
        Problem problem{p, 5, &*shape.topology, knobs};
        const UniformBlocks layout(5);
        const std::string what = "alltoall p=" + std::to_string(p) + " on " + shape.name + ", pieces of " +
                                 std::to_string(knobs.segment_bytes) + " B, scratch cap " +
                                 std::to_string(knobs.max_scratch_bytes) + " B";
        if (verified_if_supported(*lg, problem, layout, what)) ++proven;
      }
    }
  }
  EXPECT_GT(proven, 10);
}

}  // namespace
}  // namespace topocoll
