// The eager messages' copy bandwidth that makes the model price a measured exchange
// (EagerMessagesCalibration): what topocoll-calibrate stores as eager_messages.copy_bytes_per_s.
#pragma once

#include <optional>

#include "select/calibration.hpp"
#include "topology/topology.hpp"

namespace topocoll {

// The model (calibration.machine(), busy_factor applied, no eager copies) prices direct among
// the ranks of `ranks` (the topology of the probe's ranks: they share every group) with blocks
// of eager.bytes; where that is more than kProbeNoise below eager.exchange_us, the copy
// bandwidth in bytes per second at which it prices it at eager.exchange_us. Nullopt where the
// model stands, where there is no eager limit or the blocks exceed it, or where no copy
// bandwidth reaches the measured time.
std::optional<double> fit_eager_copy_bytes_per_s(const Calibration& calibration, const EagerMessagesCalibration& eager,
                                                 const Topology& ranks);

}  // namespace topocoll
