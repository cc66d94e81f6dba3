// Where Slurm says a process runs. Under the topology/tree plugin Slurm sets, in every task's
// environment, SLURM_TOPOLOGY_ADDR (the switches from the root down, then the node:
// "s2.s0.tux3") and SLURM_TOPOLOGY_ADDR_PATTERN (what each part is: "switch.switch.node"). The
// executor gathers every rank's pair; this turns them into a topology. MPI-free.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "topology/topology.hpp"

namespace topocoll {

struct SlurmAddress {
  std::string address;  // SLURM_TOPOLOGY_ADDR
  std::string pattern;  // SLURM_TOPOLOGY_ADDR_PATTERN
};

// The parts of `slurm.address`: its switches outermost first, then the node, as the pattern
// says. On error returns nullopt and sets `error`: the address and the pattern differ in parts,
// a part is empty, the pattern has a part other than "switch" and "node", or "node" is not its
// last part alone.
std::optional<std::vector<std::string>> slurm_address_parts(const SlurmAddress& slurm, std::string* error);

// The topology of the ranks whose addresses `ranks` lists (rank r's at r): the switch levels
// (named by switch_level_names), then "node". Paths of switches of different length line up at
// the root (PadAt::inner); a rank under no switch is its own group at every switch level. Errors
// name the rank and its two values.
std::optional<Topology> topology_from_slurm_addresses(const std::vector<SlurmAddress>& ranks, std::string* error);

}  // namespace topocoll
