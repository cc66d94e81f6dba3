// Liu's flat model read off schedules: direct's one round by hand, and liu's start-ups against
// direct's.
#include <gtest/gtest.h>

#include "algorithms/registry.hpp"
#include "model/liu_flat_cost.hpp"

namespace topocoll {
namespace {

const LiuFlatParams kParams{2.0, 0.01, 0.001, 0.003};

TEST(LiuFlatCost, DirectIsOneRoundOfPMinusOneStartUps) {
  const Problem problem{4, 100, nullptr, {}};
  const Schedule schedule = build_full_schedule(*find_algorithm(Operation::alltoall, "direct"), problem);
  const LiuFlatCost cost = liu_flat_cost(schedule, kParams);
  // 3 start-ups, 300 bytes each way, the own block copied into the receive buffer.
  EXPECT_DOUBLE_EQ(cost.predicted_us, 3 * 2.0 + 300 * 0.01 + 100 * 0.003);
  EXPECT_EQ(cost.startups, 3u);
  EXPECT_EQ(cost.max_traffic, 300u);
}

TEST(LiuFlatCost, LiuStartsFewerMessagesAndMovesMoreBytes) {
  const UniformBlocks blocks(64);
  const Problem problem{64, 64, nullptr, {}, &blocks, Operation::alltoallv};
  const LiuFlatCost liu =
      liu_flat_cost(build_full_schedule(*find_algorithm(Operation::alltoallv, "liu"), problem), kParams);
  const LiuFlatCost direct =
      liu_flat_cost(build_full_schedule(*find_algorithm(Operation::alltoallv, "direct"), problem), kParams);
  EXPECT_EQ(liu.startups, 28u);  // 8 x 8: 7 + 7 + 7 + 7
  EXPECT_EQ(direct.startups, 63u);
  EXPECT_GT(liu.max_traffic, 3 * direct.max_traffic) << "four stages, plus headers";
}

TEST(LiuFlatCost, ParametersFromACalibratedMachine) {
  MachineCost machine;
  machine.levels = {{"cluster", 5.0, 100.0}, {"node", 1.0, 1000.0}};
  machine.send_overhead_us = 1.0;
  machine.injection_bytes_per_us = 50.0;
  machine.copy_bytes_per_us = 2000.0;
  const LiuFlatParams params = LiuFlatParams::of(machine);
  EXPECT_DOUBLE_EQ(params.startup_us, 6.0);
  EXPECT_DOUBLE_EQ(params.us_per_byte, 1.0 / 50.0);
  EXPECT_DOUBLE_EQ(params.us_per_copied_byte, 1.0 / 2000.0);
}

}  // namespace
}  // namespace topocoll
