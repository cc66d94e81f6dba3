// The model's parameters fitted to the calibration's probes of direct among the node's busy
// ranks (EagerMessagesCalibration, RendezvousMessagesCalibration): what topocoll-calibrate
// stores as eager_messages.copy_bytes_per_s and rendezvous_messages.per_message_us; and the
// bytes each message adds on a link (EnvelopeCalibration's envelope_bytes).
#pragma once

#include <optional>

#include "select/calibration.hpp"
#include "topology/topology.hpp"

namespace topocoll {

// The model (calibration.machine(): busy_factor applied, no eager copies) prices direct among
// the ranks of `ranks` (the topology of the probe's ranks: they share every group) with blocks
// of exchange.bytes; where that is more than kProbeNoise below exchange.exchange_us, the copy
// bandwidth in bytes per second at which it prices it at exchange.exchange_us. Nullopt where
// the model stands, where there is no eager limit or the blocks exceed it, or where no copy
// bandwidth reaches the measured time.
std::optional<double> fit_eager_copy_bytes_per_s(const Calibration& calibration,
                                                 const BusyMessagesCalibration& exchange, const Topology& ranks);

// The same for blocks above the eager limit (calibration.machine() with its eager copies, no
// rendezvous cost): the CPU time per message received at which the model prices the exchange
// at its measured time (MachineCost::rendezvous_us). Nullopt where the model stands, where there
// is no eager limit or the blocks are within it, or where no cost up to 1 ms reaches it.
std::optional<double> fit_rendezvous_us(const Calibration& calibration, const BusyMessagesCalibration& exchange,
                                        const Topology& ranks);

// The bytes each message of `probe` added on its group's link (the calibration's group link of
// probe.level): the many messages' extra time at the link's bandwidth, over the extra
// messages, less their own bytes; at least 0. Nullopt where the link did not set that time:
// where it is within 10% of what the ranks' CPUs take to post or complete the extra messages
// (send_overhead_us, recv_overhead_us each; the probe's senders and receivers are different
// ranks, running at once), or where the calibration has no such link.
std::optional<double> fit_envelope_bytes(const Calibration& calibration, const EnvelopeCalibration& probe);

}  // namespace topocoll
