// The eager messages' copy bandwidth fitted to a measured exchange: the model, given it, prices
// that exchange at its measured time; where the model stood, or cannot be fitted, none.
#include "select/eager_copy_fit.hpp"

#include <gtest/gtest.h>

#include <span>

#include "algorithms/registry.hpp"
#include "select/auto_select.hpp"

namespace topocoll {
namespace {

// One node of 16 ranks: 0.4 us latency, 9 GB/s a flow, o = 0.14, o_r = 0.16, eager up to 4 KiB.
Calibration node() {
  Calibration c;
  c.ranks = 16;
  c.topology = "flat:16";
  c.levels = {{"same group", 0, 1, 0.4, 9e9, {}}};
  c.send_overhead_us = 0.14;
  c.recv_overhead_us = 0.16;
  c.recv_overhead_until_bytes = 4096;
  c.node = {8, 1.4e10, 8.5e9};
  c.copy = {4e9, "measured"};
  return c;
}

double direct_us(const Calibration& c, std::size_t bytes, const Topology& ranks) {
  const Algorithm* direct = find_algorithm(Operation::alltoall, "direct");
  const Problem problem{ranks.size(), bytes, &ranks, {}};
  return *select_algorithm(problem, c.machine(), Predictions::all, std::span(direct, 1))
              .predictions.front()
              .predicted_us;
}

TEST(EagerCopyFit, TheModelThenPricesTheMeasuredExchange) {
  Calibration c = node();
  const Topology ranks = Topology::flat(16);
  const double bare_us = direct_us(c, 2048, ranks);
  // The node of docs/results.md: 23.4 us measured where the model without copies said about 16.
  EagerMessagesCalibration eager{"same group", 16, 2048, 1.5 * bare_us, std::nullopt};
  const auto rate = fit_eager_copy_bytes_per_s(c, eager, ranks);
  ASSERT_TRUE(rate);
  eager.copy_bytes_per_s = rate;
  c.eager_messages = eager;
  EXPECT_NEAR(direct_us(c, 2048, ranks), eager.exchange_us, 1e-6 * eager.exchange_us);
  // Smaller blocks pay less of it, blocks above the eager limit none.
  Calibration bare = node();
  EXPECT_GT(direct_us(c, 512, ranks), direct_us(bare, 512, ranks));
  EXPECT_DOUBLE_EQ(direct_us(c, 8192, ranks), direct_us(bare, 8192, ranks));
}

TEST(EagerCopyFit, NoneWhereTheModelStandsOrCannotBeFitted) {
  const Calibration c = node();
  const Topology ranks = Topology::flat(16);
  const double bare_us = direct_us(c, 2048, ranks);
  EXPECT_FALSE(fit_eager_copy_bytes_per_s(c, {"same group", 16, 2048, 1.09 * bare_us, std::nullopt}, ranks))
      << "within the probe's 10%";
  EXPECT_FALSE(fit_eager_copy_bytes_per_s(c, {"same group", 16, 2048, 0.5 * bare_us, std::nullopt}, ranks))
      << "the model prices it above";
  EXPECT_FALSE(fit_eager_copy_bytes_per_s(c, {"same group", 16, 8192, 3 * bare_us, std::nullopt}, ranks))
      << "blocks above the eager limit";
  Calibration unlimited = c;
  unlimited.recv_overhead_until_bytes.reset();
  EXPECT_FALSE(fit_eager_copy_bytes_per_s(unlimited, {"same group", 16, 2048, 3 * bare_us, std::nullopt}, ranks))
      << "no eager limit given";
}

}  // namespace
}  // namespace topocoll
