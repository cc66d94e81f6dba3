// Fitting the eager messages' copy bandwidth to a measured exchange (eager_copy_fit.hpp).
#include "select/eager_copy_fit.hpp"

#include <span>

#include "algorithms/registry.hpp"
#include "select/auto_select.hpp"

namespace topocoll {

std::optional<double> fit_eager_copy_bytes_per_s(const Calibration& calibration, const EagerMessagesCalibration& eager,
                                                 const Topology& ranks) {
  MachineCost machine = calibration.machine();
  machine.eager_copy_bytes_per_us.reset();
  if (!machine.recv_overhead_until_bytes || eager.bytes > *machine.recv_overhead_until_bytes) return std::nullopt;
  if (check_machine(machine)) return std::nullopt;
  const Algorithm* direct = find_algorithm(Operation::alltoall, "direct");
  const Problem problem{ranks.size(), eager.bytes, &ranks, {}};
  // The model's price with a CPU cost of `us_per_byte` per eager byte copied (0: none).
  const auto priced_us = [&](double us_per_byte) {
    machine.eager_copy_bytes_per_us.reset();
    if (us_per_byte > 0) machine.eager_copy_bytes_per_us = 1.0 / us_per_byte;
    const AutoChoice choice = select_algorithm(problem, machine, Predictions::all, std::span(direct, 1));
    return choice.predictions.front().predicted_us.value_or(0.0);
  };
  const double measured_us = eager.exchange_us;
  if (!(measured_us > priced_us(0.0) * (1.0 + kProbeNoise))) return std::nullopt;
  // The price grows with the cost per byte: bracket the measured time, then bisect.
  double low = 0.0, high = 1e-6;
  while (priced_us(high) < measured_us) {
    low = high;
    high *= 2;
    if (high > 1e3) return std::nullopt;  // a millisecond a byte: the copies are not what is missing
  }
  for (int i = 0; i < 60 && high - low > high * 1e-9; ++i) {
    const double middle = (low + high) / 2;
    (priced_us(middle) < measured_us ? low : high) = middle;
  }
  return 1e6 / high;
}

}  // namespace topocoll
