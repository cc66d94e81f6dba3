// The eager messages' copy bandwidth and the rendezvous cost fitted to measured exchanges: the
// model, given them, prices each exchange at its measured time; where the model stood, or cannot
// be fitted, none. The message envelope fitted to its probe's times.
#include "select/probe_fits.hpp"

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

TEST(ProbeFits, TheEagerCopiesThenPriceTheMeasuredExchange) {
  Calibration c = node();
  const Topology ranks = Topology::flat(16);
  const double bare_us = direct_us(c, 2048, ranks);
  // The node of docs/results.md: 23.4 us measured where the model without copies said about 16.
  const BusyMessagesCalibration eager{"same group", 16, 2048, 1.5 * bare_us};
  const auto rate = fit_eager_copy_bytes_per_s(c, eager, ranks);
  ASSERT_TRUE(rate);
  c.eager_messages = EagerMessagesCalibration{eager, rate};
  EXPECT_NEAR(direct_us(c, 2048, ranks), eager.exchange_us, 1e-6 * eager.exchange_us);
  // Smaller blocks pay less of it, blocks above the eager limit none.
  Calibration bare = node();
  EXPECT_GT(direct_us(c, 512, ranks), direct_us(bare, 512, ranks));
  EXPECT_DOUBLE_EQ(direct_us(c, 8192, ranks), direct_us(bare, 8192, ranks));
}

TEST(ProbeFits, NoEagerCopiesWhereTheModelStandsOrCannotBeFitted) {
  const Calibration c = node();
  const Topology ranks = Topology::flat(16);
  const double bare_us = direct_us(c, 2048, ranks);
  EXPECT_FALSE(fit_eager_copy_bytes_per_s(c, {"same group", 16, 2048, 1.09 * bare_us}, ranks))
      << "within the probe's 10%";
  EXPECT_FALSE(fit_eager_copy_bytes_per_s(c, {"same group", 16, 2048, 0.5 * bare_us}, ranks))
      << "the model prices it above";
  EXPECT_FALSE(fit_eager_copy_bytes_per_s(c, {"same group", 16, 8192, 3 * bare_us}, ranks))
      << "blocks above the eager limit";
  Calibration unlimited = c;
  unlimited.recv_overhead_until_bytes.reset();
  EXPECT_FALSE(fit_eager_copy_bytes_per_s(unlimited, {"same group", 16, 2048, 3 * bare_us}, ranks))
      << "no eager limit given";
}

// The rendezvous cost, fitted after the eager copies at blocks of twice the eager limit: the
// model then prices that exchange at its measured time, and eager blocks pay none of it.
TEST(ProbeFits, TheRendezvousCostThenPricesTheMeasuredExchange) {
  Calibration c = node();
  const Topology ranks = Topology::flat(16);
  const double bare_us = direct_us(c, 8192, ranks);
  const BusyMessagesCalibration rendezvous{"same group", 16, 8192, 1.4 * bare_us};
  const auto per_message_us = fit_rendezvous_us(c, rendezvous, ranks);
  ASSERT_TRUE(per_message_us);
  EXPECT_GT(*per_message_us, 0.0);
  c.rendezvous_messages = RendezvousMessagesCalibration{rendezvous, per_message_us};
  EXPECT_NEAR(direct_us(c, 8192, ranks), rendezvous.exchange_us, 1e-6 * rendezvous.exchange_us);
  EXPECT_DOUBLE_EQ(direct_us(c, 2048, ranks), direct_us(node(), 2048, ranks)) << "eager blocks pay none";
  EXPECT_FALSE(fit_rendezvous_us(c, {"same group", 16, 8192, 1.05 * bare_us}, ranks)) << "within the probe's 10%";
  EXPECT_FALSE(fit_rendezvous_us(c, {"same group", 16, 4096, 3 * bare_us}, ranks)) << "blocks within the eager limit";
}

// 16 flows of 256 messages of 8 bytes against one each, through a host's 12.5 GB/s link: SMPI's
// probe took 7.8336 us more, 24 bytes a message on the link, 16 beyond their own.
TEST(ProbeFits, TheEnvelopeIsWhatEachMessageAddsOnTheLink) {
  Calibration c = node();
  c.send_overhead_us = 0.0;
  c.recv_overhead_us = 0.0;
  c.group_links = {{"node", 0, 16, 16, 1.25e10}};
  const EnvelopeCalibration probe{"node", 16, 256, 8, 6.2544, 6.2544 + 255 * 16 * 24 / 12500.0, std::nullopt};
  const auto envelope = fit_envelope_bytes(c, probe);
  ASSERT_TRUE(envelope);
  EXPECT_NEAR(*envelope, 16.0, 1e-9);
  // Less than the messages' own bytes: none.
  EXPECT_EQ(fit_envelope_bytes(c, {"node", 16, 256, 8, 6.0, 6.0 + 255 * 16 * 4 / 12500.0, std::nullopt}),
            std::optional<double>(0.0));
  // Where posting (or completing) 255 more messages takes the CPUs about as long, the link was not
  // what set the time.
  c.recv_overhead_us = 7.8336 / 255 / 1.05;
  EXPECT_FALSE(fit_envelope_bytes(c, probe));
  c.recv_overhead_us = 0.0;
  // No link of that level in the calibration: nothing to fit against.
  EXPECT_FALSE(fit_envelope_bytes(c, {"switch", 16, 256, 8, probe.one_us, probe.many_us, std::nullopt}));
}

}  // namespace
}  // namespace topocoll
