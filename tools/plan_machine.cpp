// topocoll-plan's topology, network and link loads (see plan_machine.hpp).
#include "plan_machine.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

#include "network/host_lookup.hpp"
#include "topology/topology_file.hpp"

namespace topocoll::tools {

namespace {

std::vector<std::string> read_hostfile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read the hostfile " + path);
  std::vector<std::string> hosts;
  for (std::string line; std::getline(in, line);) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    hosts.push_back(line.substr(first, line.find_first_of(" \t\r:", first) - first));
  }
  if (hosts.empty()) throw std::runtime_error("the hostfile " + path + " names no host");
  return hosts;
}

// NAME.hosts beside NAME.topology.json.
std::string hostfile_beside(const std::string& topology_file) {
  const std::string suffix = ".topology.json";
  if (topology_file.size() <= suffix.size() ||
      topology_file.compare(topology_file.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return "";
  }
  return topology_file.substr(0, topology_file.size() - suffix.size()) + ".hosts";
}

std::string describe(const LinkLoad& load) {
  return load.link + (load.direction.empty() ? "" : " " + load.direction) + " " + std::to_string(load.flows);
}

}  // namespace

PlanMachine load_plan_machine(const std::string& spec, const std::string& hostfile, int np) {
  std::string error;
  const bool pattern = spec.rfind("pattern:", 0) == 0;  // names groups by host, like a file
  if (!pattern && !std::filesystem::is_regular_file(spec)) {
    if (!hostfile.empty()) {
      throw std::runtime_error("--hostfile goes with a topology file or a pattern, not a shorthand");
    }
    auto topology = Topology::parse(spec, &error);
    if (!topology) throw std::runtime_error(error);
    if (np != 0 && np != topology->size()) {
      throw std::runtime_error("--np " + std::to_string(np) + " but " + spec + " describes " +
                               std::to_string(topology->size()) + " ranks");
    }
    return {std::move(*topology), {}};
  }
  const std::string hosts_path = hostfile.empty() && !pattern ? hostfile_beside(spec) : hostfile;
  if (hosts_path.empty() || !std::filesystem::exists(hosts_path)) {
    throw std::runtime_error(std::string(pattern ? "the pattern " : "the topology file ") + spec +
                             " needs the hostfile that places the ranks (--hostfile)");
  }
  const std::vector<std::string> lines = read_hostfile(hosts_path);
  const int ranks = np != 0 ? np : static_cast<int>(lines.size());
  if (ranks < 1) throw std::runtime_error("--np must be at least 1");
  PlanMachine machine;
  for (int r = 0; r < ranks; ++r) machine.rank_hosts.push_back(lines[static_cast<std::size_t>(r) % lines.size()]);
  auto topology = load_topology_for(spec, RankPlacement::whole_world(machine.rank_hosts), &error);
  if (!topology) throw std::runtime_error(error);
  machine.topology = std::move(*topology);
  // Several ranks on one host (a hostfile line per rank): the node level the library would
  // discover from shared memory, unless the file has one.
  const auto& levels = machine.topology.levels();
  const std::set<std::string> distinct(machine.rank_hosts.begin(), machine.rank_hosts.end());
  if (distinct.size() < machine.rank_hosts.size() && std::find(levels.begin(), levels.end(), "node") == levels.end()) {
    std::map<std::string, int> node_of;
    std::vector<int> nodes;
    for (const std::string& host : machine.rank_hosts) {
      nodes.push_back(node_of.emplace(host, static_cast<int>(node_of.size())).first->second);
    }
    machine.topology = machine.topology.with_inner_level("node", nodes);
  }
  return machine;
}

std::vector<int> hosts_of_ranks(const network::Network& network, const PlanMachine& machine) {
  const int ranks = machine.topology.size();
  if (machine.rank_hosts.empty()) {
    std::vector<int> hosts(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r) hosts[r] = r % network.host_count();
    return hosts;
  }
  std::string error;
  auto hosts = network::host_indices(network, machine.rank_hosts, &error);
  if (!hosts) throw std::runtime_error(error);
  return std::move(*hosts);
}

void add_link_loads(nlohmann::json& out, const LinkLoads& loads) {
  out["max_flows_per_link"] = loads.max_flows_per_link;
  out["rounds_with_shared_links"] = loads.rounds_with_shared_links;
  if (loads.max_flows_per_link > 0) {
    out["worst_link"] = {{"link", loads.worst.link},
                         {"direction", loads.worst.direction},
                         {"flows", loads.worst.flows},
                         {"round", loads.worst_round}};
  }
  nlohmann::json rounds = nlohmann::json::array();
  for (const RoundLinkLoads& round : loads.rounds) rounds.push_back(round.max_flows);
  out["max_flows_per_round"] = rounds;
  out["link_load_bound"] = loads.link_load_bound;
  if (loads.link_load_bound > 0) {
    out["busiest_link_overall"] = {{"link", loads.busiest_overall.link},
                                   {"direction", loads.busiest_overall.direction},
                                   {"flows", loads.busiest_overall.flows}};
  }
}

void print_link_loads(std::ostream& out, const LinkLoads& loads) {
  out << "link loads: at most " << loads.max_flows_per_link << " flows on a link";
  if (loads.max_flows_per_link > 0) out << " (" << describe(loads.worst) << ", round " << loads.worst_round << ")";
  out << "; " << loads.rounds_with_shared_links << " of " << loads.rounds.size()
      << " rounds put two flows or more on a link\n";
  if (loads.link_load_bound > 0) {
    out << "lower bound: " << loads.link_load_bound << " flows on a link in some round (" << describe(loads.busiest_overall)
        << " flows over the whole schedule, " << loads.rounds.size() << " rounds)\n";
  }
  for (std::size_t t = 0; t < loads.rounds.size(); ++t) {
    out << "  round " << t << ": ";
    if (loads.rounds[t].busiest.empty()) out << "no link";
    for (std::size_t i = 0; i < loads.rounds[t].busiest.size(); ++i) {
      out << (i ? ", " : "") << describe(loads.rounds[t].busiest[i]);
    }
    out << '\n';
  }
}

}  // namespace topocoll::tools
