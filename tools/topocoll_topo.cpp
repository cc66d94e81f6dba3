// topocoll-topo: prints the topology a run sees, as topology-aware algorithms will: the levels
// (outermost first), and for every rank its world rank, host and group at each level. Run it
// under mpirun (or smpirun) like the application, with the same TOPOCOLL_TOPOLOGY.
//   mpirun -np 8 topocoll-topo [--topology SPEC] [--format text|json]
// It also writes host-keyed topology files from other tools' descriptions of the machine, without
// MPI (src/topology/ibnetdiscover.hpp, src/topology/slurm_topology.hpp):
//   topocoll-topo --from-ibnetdiscover FILE [--output TOPOLOGY.json]
//   topocoll-topo --from-slurm-topology topology.conf [--output TOPOLOGY.json]
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "exec/topology_discovery.hpp"
#include "topology/ibnetdiscover.hpp"
#include "topology/slurm_topology.hpp"

namespace {

const char* const kUsage =
    "usage: mpirun -np N topocoll-topo [--topology SPEC] [--format text|json]\n"
    "       topocoll-topo --from-ibnetdiscover FILE [--output TOPOLOGY.json]\n"
    "       topocoll-topo --from-slurm-topology topology.conf [--output TOPOLOGY.json]\n"
    "  --topology SPEC  clusters:N1,N2,..., flat:N, pattern:REGEX or a topology file (default:\n"
    "                   $TOPOCOLL_TOPOLOGY; when neither is set, Slurm's switch tree where every\n"
    "                   rank has SLURM_TOPOLOGY_ADDR and SLURM_TOPOLOGY_ADDR_PATTERN, else only\n"
    "                   the node level from shared memory)\n"
    "                   pattern:REGEX: a regular expression matching the whole host name, whose\n"
    "                   named groups are the levels, outermost first:\n"
    "                   pattern:r(?<rack>[0-9]+)n[0-9]+ puts r12n3 in rack \"12\"\n"
    "  --format F       text (default) or json\n"
    "  --from-ibnetdiscover FILE   write the host-keyed topology file of ibnetdiscover's output:\n"
    "                              a host is the first word of its CA's description, levels are\n"
    "                              switches by distance from the hosts (..., spine, leaf)\n"
    "  --from-slurm-topology FILE  the same from Slurm's topology.conf (SwitchName= lines),\n"
    "                              levels from the root switch down\n"
    "  --output FILE    where --from-... writes (default: standard output); needs no mpirun\n";

struct Arguments {
  std::string topology;
  std::string format = "text";
  std::string from_ibnetdiscover, from_slurm_topology, output;  // a conversion, without MPI
  std::string error;
  bool help = false;
  bool view_options = false;  // --topology or --format given
  bool converts() const { return !from_ibnetdiscover.empty() || !from_slurm_topology.empty(); }
};

Arguments parse(int argc, char** argv) {
  Arguments args;
  if (const char* env = std::getenv("TOPOCOLL_TOPOLOGY")) args.topology = env;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    std::string* value = arg == "--topology"              ? &args.topology
                         : arg == "--format"              ? &args.format
                         : arg == "--from-ibnetdiscover"  ? &args.from_ibnetdiscover
                         : arg == "--from-slurm-topology" ? &args.from_slurm_topology
                         : arg == "--output"              ? &args.output
                                                          : nullptr;
    if (arg == "-h" || arg == "--help") {
      args.help = true;
    } else if (value != nullptr && i + 1 < argc && argv[i + 1][0] != '\0') {
      *value = argv[++i];
      args.view_options |= arg == "--topology" || arg == "--format";
    } else {
      args.error = "unknown or incomplete argument '" + arg + "'";
    }
  }
  if (!args.error.empty()) return args;
  if (args.format != "text" && args.format != "json") {
    args.error = "--format must be text or json, not '" + args.format + "'";
  } else if (!args.from_ibnetdiscover.empty() && !args.from_slurm_topology.empty()) {
    args.error = "give one of --from-ibnetdiscover and --from-slurm-topology";
  } else if (args.converts() && args.view_options) {
    args.error = "--topology and --format show the topology a run sees; --from-... converts a file";
  } else if (!args.converts() && !args.output.empty()) {
    args.error = "--output is where --from-ibnetdiscover or --from-slurm-topology writes";
  }
  return args;
}

// --from-ibnetdiscover or --from-slurm-topology: reads the file, writes the host-keyed topology
// file (notes on what was left out, and errors, on standard error). Exit status 0, or 2.
int convert(const Arguments& args) {
  const bool ib = !args.from_ibnetdiscover.empty();
  const std::string& path = ib ? args.from_ibnetdiscover : args.from_slurm_topology;
  const std::string what = std::string(ib ? "ibnetdiscover output" : "Slurm topology") + " '" + path + "'";
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) {
    std::cerr << "topocoll-topo: cannot read the " << what << '\n';
    return 2;
  }
  std::string error;
  std::vector<std::string> notes;
  const auto groups = ib ? topocoll::parse_ibnetdiscover(text.str(), &error, &notes)
                         : topocoll::parse_slurm_topology(text.str(), &error);
  for (const std::string& note : notes) std::cerr << "topocoll-topo: " << what << ": " << note << '\n';
  if (!groups) {
    std::cerr << "topocoll-topo: " << what << ": " << error << '\n';
    return 2;
  }
  const std::string json = topocoll::host_topology_json(*groups);
  if (args.output.empty()) {
    std::cout << json;
    return 0;
  }
  std::ofstream out(args.output);
  out << json;
  out.close();
  if (!out) {
    std::cerr << "topocoll-topo: cannot write '" << args.output << "'\n";
    return 2;
  }
  std::cout << "topocoll-topo: wrote " << args.output << ": " << groups->hosts.size() << " hosts, levels";
  for (const std::string& level : groups->levels) std::cout << ' ' << level;
  std::cout << '\n';
  return 0;
}

void print(const topocoll::Topology& topo, const topocoll::RankPlacement& placement, const std::string& format) {
  if (format == "json") {
    nlohmann::json ranks = nlohmann::json::array();
    for (int r = 0; r < topo.size(); ++r) {
      nlohmann::json groups = nlohmann::json::array();
      for (int l = 0; l < topo.level_count(); ++l) groups.push_back(topo.group(r, l));
      ranks.push_back({{"rank", r}, {"world_rank", placement.world_rank[r]}, {"host", placement.host[r]},
                       {"groups", groups}});
    }
    std::cout << nlohmann::json{{"levels", topo.levels()}, {"ranks", ranks}}.dump(2) << '\n';
    return;
  }
  std::cout << topo.describe() << '\n';
  for (int r = 0; r < topo.size(); ++r) {
    std::cout << "rank " << r << " (world " << placement.world_rank[r] << ", host " << placement.host[r] << "):";
    for (int l = 0; l < topo.level_count(); ++l) {
      std::cout << (l ? ", " : " ") << topo.levels()[l] << ' ' << topo.group(r, l);
    }
    std::cout << '\n';
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Arguments args = parse(argc, argv);  // before MPI_Init: a conversion needs no MPI
  if (args.error.empty() && !args.help && args.converts()) return convert(args);
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int status = 0;
  if (args.help || !args.error.empty()) {
    if (rank == 0) std::fprintf(args.help ? stdout : stderr, "%s%s%s", args.error.empty() ? "" : "topocoll-topo: ",
                                args.error.empty() ? "" : (args.error + "\n").c_str(), kUsage);
    status = args.help ? 0 : 2;
  } else {
    topocoll::Topology topo;
    topocoll::RankPlacement placement;
    auto failure = topocoll::exec::discover_placement(MPI_COMM_WORLD, placement);
    if (!failure) failure = topocoll::exec::discover_topology(MPI_COMM_WORLD, args.topology, topo);
    if (failure) {
      if (rank == 0) std::fprintf(stderr, "topocoll-topo: %s\n", failure->message.c_str());
      status = 2;
    } else if (rank == 0) {
      print(topo, placement, args.format);
    }
  }
  MPI_Finalize();
  return status;
}
