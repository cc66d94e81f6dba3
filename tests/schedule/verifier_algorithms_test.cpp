// Every registered algorithm, for every p from 1 to 64 and spot checks up to 1024, is proven
// by the verifier: each block lands once, at its place; every send meets its receive.
#include <gtest/gtest.h>

#include "algorithms/registry.hpp"
#include "schedule/verifier.hpp"

namespace topocoll {
namespace {

void expect_verified(const Algorithm& algorithm, int p, std::size_t block_bytes, int group_width = 4) {
  Problem problem{p, block_bytes, nullptr, AlgorithmKnobs{group_width}};
  ASSERT_TRUE(algorithm.supports(problem).ok) << algorithm.name << ": " << algorithm.supports(problem).reason;
  const Verdict verdict = verify(build_full_schedule(algorithm, problem));
  EXPECT_TRUE(verdict.ok) << algorithm.name << " p=" << p << " B=" << block_bytes << " w=" << group_width << ": "
                          << verdict.summary();
}

class EveryAlgorithm : public ::testing::TestWithParam<std::string_view> {
 protected:
  const Algorithm& algorithm() const { return *find_algorithm(Operation::alltoall, GetParam()); }
};

TEST_P(EveryAlgorithm, VerifiedForEveryPUpTo64) {
  for (int p = 1; p <= 64; ++p) expect_verified(algorithm(), p, p % 2 ? 3 : 2);
}

TEST_P(EveryAlgorithm, VerifiedWithEmptyBlocks) {
  for (int p : {1, 2, 5, 16}) expect_verified(algorithm(), p, 0);
}

TEST_P(EveryAlgorithm, SpotChecksUpTo1024) {
  for (int p : {100, 127, 128, 255, 256, 1000, 1024}) expect_verified(algorithm(), p, 1);
}

// The flat algorithms: those that apply without a topology.
std::vector<std::string_view> schedule_algorithms() {
  std::vector<std::string_view> names;
  for (const Algorithm& a : algorithms_for(Operation::alltoall))
    if (a.has_schedule() && a.supports(Problem{4, 1, nullptr, {}}).ok) names.push_back(a.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Registry, EveryAlgorithm, ::testing::ValuesIn(schedule_algorithms()),
                         [](const auto& info) {
                           std::string name(info.param);
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

TEST(GroupShuffle, VerifiedForSeveralWidths) {
  const Algorithm& gs = *find_algorithm(Operation::alltoall, "group-shuffle");
  for (int w : {1, 2, 3, 5, 7, 64}) {
    for (int p = 1; p <= 33; ++p) expect_verified(gs, p, 2, w);
  }
}

TEST(GroupShuffle, RejectsWidthZero) {
  Problem problem{8, 4, nullptr, AlgorithmKnobs{0}};
  const Applicability fits = find_algorithm(Operation::alltoall, "group-shuffle")->supports(problem);
  EXPECT_FALSE(fits.ok);
  EXPECT_NE(fits.reason.find("width"), std::string::npos);
}

TEST(Registry, KnowsTheContractNames) {
  for (const char* name : {"direct", "shift", "pairwise", "group-shuffle", "bruck", "native"}) {
    EXPECT_NE(find_algorithm(Operation::alltoall, name), nullptr) << name;
  }
  EXPECT_EQ(find_algorithm(Operation::alltoall, "no-such"), nullptr);
}

}  // namespace
}  // namespace topocoll
