// What topocoll-plan plans for: the topology (a shorthand, or a topology file or host-name pattern
// with the hostfile that places the ranks, as topocoll-platform writes them), and, with
// --network, the network a platform describes and the host each rank runs on, for the link loads
// of a schedule.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "network/network.hpp"
#include "schedule/link_loads.hpp"
#include "topology/topology.hpp"

namespace topocoll::tools {

struct PlanMachine {
  Topology topology;
  // Each rank's host name, from the hostfile (rank r on line r mod lines, as smpirun and
  // mpirun --map-by with a hostfile place them); empty for a shorthand.
  std::vector<std::string> rank_hosts;
};

// `spec` is a shorthand (clusters:N1,N2,..., flat:N), a topology file or a host-name pattern
// (pattern:REGEX). A file needs the hostfile (`hostfile`, or NAME.hosts beside
// NAME.topology.json), a pattern needs `hostfile`; either describes `np` ranks (0: one per
// hostfile line). Throws std::runtime_error saying what is wrong.
PlanMachine load_plan_machine(const std::string& spec, const std::string& hostfile, int np);

// The network host each rank runs on: by host name when the ranks have hosts, else rank r on
// host r mod hosts. Throws std::runtime_error for a host the network does not have.
std::vector<int> hosts_of_ranks(const network::Network& network, const PlanMachine& machine);

// The link loads in the JSON output, and round by round in the text output.
void add_link_loads(nlohmann::json& out, const LinkLoads& loads);
void print_link_loads(std::ostream& out, const LinkLoads& loads);

}  // namespace topocoll::tools
