// Every algorithm's schedule pinned by a digest, so that reshaping the core (issue 11) provably
// changes no schedule: p = 1..64 flat and on two and three clusters, overlap with 2 stripes, the
// two-cluster shapes of the study (20 + 40, 30 + 30) and the MLFM paper's four jobs (mlfm-box).
// The expected digests are in schedule_digests.txt; "n/a" pins that an algorithm does not apply. After a deliberate change
// of a schedule, regenerate the file with TOPOCOLL_WRITE_DIGESTS=PATH and say why in the commit.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>

#include "algorithms/registry.hpp"
#include "topology/topology.hpp"
#include "topology/topology_file.hpp"

#ifndef TOPOCOLL_SOURCE_DIR
#error "TOPOCOLL_SOURCE_DIR must name the source tree"
#endif

namespace topocoll {
namespace {

// FNV-1a over the schedule's numbers, in order.
class Digest {
 public:
  void add(std::uint64_t value) {
    for (int i = 0; i < 8; ++i) {
      hash_ ^= (value >> (8 * i)) & 0xffu;
      hash_ *= 0x100000001b3ull;
    }
  }
  void add(const Segment& s) {
    add(static_cast<std::uint64_t>(s.buffer));
    add(s.offset);
    add(s.length);
  }
  std::string hex() const {
    std::ostringstream out;
    out << std::hex << hash_;
    return out.str();
  }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

std::string digest_of(const Schedule& schedule) {
  Digest d;
  d.add(static_cast<std::uint64_t>(schedule.size));
  for (const RankSchedule& rank : schedule.ranks) {
    d.add(rank.scratch_bytes);
    d.add(rank.rounds.size());
    for (const Round& round : rank.rounds) {
      d.add(round.copies.size());
      for (const LocalCopy& c : round.copies) {
        d.add(c.from);
        d.add(c.to);
        if (c.after_posts) d.add(std::uint64_t{1});  // left out when false: older digests hold
      }
      for (const auto* transfers : {&round.sends, &round.recvs}) {
        d.add(transfers->size());
        for (const Transfer& t : *transfers) {
          d.add(static_cast<std::uint64_t>(t.peer));
          d.add(t.overlap_rounds);
          d.add(t.segments.size());
          for (const Segment& s : t.segments) d.add(s);
        }
      }
    }
  }
  return d.hex();
}

struct Case {
  std::string algorithm;
  std::string topology;  // a shorthand, or "flat" for none
  std::size_t block_bytes = 0;
  int stripes = 0;
  std::string key() const {
    return algorithm + " " + topology + " B=" + std::to_string(block_bytes) + " stripes=" + std::to_string(stripes);
  }
};

// "mlfm-box:N,L,M": the servers of a multi-layer full mesh's box in box order, as the topology
// file of topocoll-platform mlfm names them (levels column, layer, slot).
std::optional<Topology> mlfm_box(const std::string& spec) {
  int n = 0, l = 0, m = 0;
  if (std::sscanf(spec.c_str(), "mlfm-box:%d,%d,%d", &n, &l, &m) != 3) return std::nullopt;
  std::vector<std::vector<std::string>> paths;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < l; ++j)
      for (int k = 0; k < m; ++k)
        paths.push_back({"column" + std::to_string(j), "layer" + std::to_string(i), "slot" + std::to_string(k)});
  return topology_for_group_names({"column", "layer", "slot"}, paths);
}

std::string outcome(const Case& c, int p) {
  const Algorithm& algorithm = *find_algorithm(Operation::alltoall, c.algorithm);
  std::optional<Topology> topology;
  if (c.topology.rfind("mlfm-box:", 0) == 0) {
    topology = mlfm_box(c.topology);
  } else if (c.topology != "flat") {
    topology = Topology::parse(c.topology, nullptr);
  }
  Problem problem{p, c.block_bytes, topology ? &*topology : nullptr, AlgorithmKnobs{}};
  problem.knobs.stripes = c.stripes;
  if (!algorithm.supports(problem).ok) return "n/a";
  return digest_of(build_full_schedule(algorithm, problem));
}

std::string clusters(int a, int b) { return "clusters:" + std::to_string(a) + "," + std::to_string(b); }

// key -> digest for every case.
std::map<std::string, std::string> every_outcome() {
  std::map<std::string, std::string> out;
  for (const Algorithm& a : algorithms_for(Operation::alltoall)) {
    if (!a.has_schedule()) continue;
    const std::string name(a.name);
    for (int p = 1; p <= 64; ++p) {
      std::vector<Case> cases;
      if (!a.needs_topology) cases.push_back({name, "flat", 5, 0});
      if (p >= 2) {
        cases.push_back({name, clusters(p / 2, p - p / 2), 5, 0});
        cases.push_back({name, clusters(1, p - 1), 5, 0});
      }
      if (p >= 3) {
        cases.push_back({name, "clusters:1," + std::to_string((p - 1) / 2) + "," + std::to_string(p - 1 - (p - 1) / 2),
                         5, 0});
      }
      if (name == "overlap" && p >= 2) cases.push_back({name, clusters(p / 2, p - p / 2), 5, 2});
      for (const Case& c : cases) out[c.key() + " p=" + std::to_string(p)] = outcome(c, p);
    }
    for (const std::string& shape : {clusters(20, 40), clusters(30, 30)}) {
      const Case c{name, shape, 1024, 0};
      out[c.key() + " p=60"] = outcome(c, 60);
    }
    // The MLFM paper's four jobs (12, 18, 24 A, 24 B servers).
    for (const auto& [box, p] : {std::pair{"2,3,2", 12}, std::pair{"3,3,2", 18}, std::pair{"3,4,2", 24},
                                 std::pair{"2,4,3", 24}}) {
      const Case c{name, std::string("mlfm-box:") + box, 1024, 0};
      out[c.key() + " p=" + std::to_string(p)] = outcome(c, p);
    }
  }
  return out;
}

TEST(ScheduleDigests, EveryScheduleIsAsRecorded) {
  const std::map<std::string, std::string> actual = every_outcome();
  if (const char* path = std::getenv("TOPOCOLL_WRITE_DIGESTS")) {
    std::ofstream out(path);
    for (const auto& [key, digest] : actual) out << key << " " << digest << "\n";
    GTEST_SKIP() << "wrote " << actual.size() << " digests to " << path;
  }
  std::ifstream in(std::string(TOPOCOLL_SOURCE_DIR) + "/tests/schedule/schedule_digests.txt");
  ASSERT_TRUE(in) << "tests/schedule/schedule_digests.txt is missing";
  std::map<std::string, std::string> recorded;
  for (std::string line; std::getline(in, line);) {
    const auto space = line.rfind(' ');
    if (space != std::string::npos) recorded[line.substr(0, space)] = line.substr(space + 1);
  }
  EXPECT_EQ(recorded.size(), actual.size()) << "cases recorded and computed differ in number";
  int differences = 0;
  for (const auto& [key, digest] : actual) {
    const auto it = recorded.find(key);
    if (it == recorded.end()) {
      ADD_FAILURE() << "not recorded: " << key;
    } else if (it->second != digest) {
      ADD_FAILURE() << key << ": schedule digest " << digest << ", recorded " << it->second;
    } else {
      continue;
    }
    if (++differences >= 20) break;
  }
}

}  // namespace
}  // namespace topocoll
