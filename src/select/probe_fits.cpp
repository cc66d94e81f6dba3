// Fitting the model's eager copies and rendezvous cost to the measured exchanges (probe_fits.hpp).
#include "select/probe_fits.hpp"

#include <algorithm>
#include <functional>
#include <span>

#include "algorithms/registry.hpp"
#include "select/auto_select.hpp"

namespace topocoll {

namespace {

// direct's price among `ranks` with blocks of `bytes` on `machine`.
double direct_us(const MachineCost& machine, const Topology& ranks, std::size_t bytes) {
  const Algorithm* direct = find_algorithm(Operation::alltoall, "direct");
  const Problem problem{ranks.size(), bytes, &ranks, {}};
  const AutoChoice choice = select_algorithm(problem, machine, Predictions::all, std::span(direct, 1));
  return choice.predictions.front().predicted_us.value_or(0.0);
}

// The x > 0 at which price(x), which grows with x, reaches `measured_us`: nullopt where price(0)
// is within kProbeNoise of it or above, or where no x up to `most` reaches it. Brackets the
// measured time from `first` up by doubling, then bisects.
std::optional<double> solve(const std::function<double(double)>& price, double measured_us, double first, double most) {
  if (!(measured_us > price(0.0) * (1.0 + kProbeNoise))) return std::nullopt;
  double low = 0.0, high = first;
  while (price(high) < measured_us) {
    low = high;
    high *= 2;
    if (high > most) return std::nullopt;
  }
  for (int i = 0; i < 60 && high - low > high * 1e-9; ++i) {
    const double middle = (low + high) / 2;
    (price(middle) < measured_us ? low : high) = middle;
  }
  return high;
}

}  // namespace

std::optional<double> fit_eager_copy_bytes_per_s(const Calibration& calibration,
                                                 const BusyMessagesCalibration& exchange, const Topology& ranks) {
  MachineCost machine = calibration.machine();
  machine.eager_copy_bytes_per_us.reset();
  machine.rendezvous_us.reset();
  if (!machine.recv_overhead_until_bytes || exchange.bytes > *machine.recv_overhead_until_bytes) return std::nullopt;
  if (check_machine(machine)) return std::nullopt;
  // The model's price with a CPU cost of `us_per_byte` per eager byte copied (0: none); up to a
  // millisecond a byte: beyond, the copies are not what is missing.
  const auto price = [&](double us_per_byte) {
    machine.eager_copy_bytes_per_us.reset();
    if (us_per_byte > 0) machine.eager_copy_bytes_per_us = 1.0 / us_per_byte;
    return direct_us(machine, ranks, exchange.bytes);
  };
  const auto us_per_byte = solve(price, exchange.exchange_us, 1e-6, 1e3);
  if (!us_per_byte) return std::nullopt;
  return 1e6 / *us_per_byte;
}

std::optional<double> fit_rendezvous_us(const Calibration& calibration, const BusyMessagesCalibration& exchange,
                                        const Topology& ranks) {
  MachineCost machine = calibration.machine();
  machine.rendezvous_us.reset();
  if (!machine.recv_overhead_until_bytes || exchange.bytes <= *machine.recv_overhead_until_bytes) return std::nullopt;
  if (check_machine(machine)) return std::nullopt;
  const auto price = [&](double us) {
    machine.rendezvous_us = us;
    return direct_us(machine, ranks, exchange.bytes);
  };
  return solve(price, exchange.exchange_us, 1e-3, 1e3);
}

std::optional<double> fit_envelope_bytes(const Calibration& calibration, const EnvelopeCalibration& probe) {
  const auto link = std::find_if(calibration.group_links.begin(), calibration.group_links.end(),
                                 [&](const GroupCapacityCalibration& g) { return g.level == probe.level; });
  if (link == calibration.group_links.end() || probe.flows < 1 || probe.messages < 2) return std::nullopt;
  const double extra_messages = static_cast<double>(probe.messages - 1);
  const double extra_us = probe.many_us - probe.one_us;
  const double cpu_us =
      extra_messages * std::max(calibration.send_overhead_us, calibration.recv_overhead_us.value_or(0.0));
  if (!(extra_us > 1.1 * cpu_us)) return std::nullopt;
  const double per_message = extra_us * 1e-6 * link->bytes_per_s / (extra_messages * probe.flows);
  return std::max(0.0, per_message - static_cast<double>(probe.bytes));
}

}  // namespace topocoll
