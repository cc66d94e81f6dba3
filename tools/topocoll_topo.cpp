// topocoll-topo: prints the topology a run sees, as topology-aware algorithms will: the levels
// (outermost first), and for every rank its world rank, host and group at each level. Run it
// under mpirun (or smpirun) like the application, with the same TOPOCOLL_TOPOLOGY.
//   mpirun -np 8 topocoll-topo [--topology SPEC] [--format text|json]
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "exec/topology_discovery.hpp"

namespace {

const char* const kUsage =
    "usage: topocoll-topo [--topology SPEC] [--format text|json]\n"
    "  --topology SPEC  clusters:N1,N2,..., flat:N or a topology file (default: $TOPOCOLL_TOPOLOGY;\n"
    "                   when neither is set, only the node level from shared memory)\n"
    "  --format F       text (default) or json\n";

struct Arguments {
  std::string topology;
  std::string format = "text";
  std::string error;
  bool help = false;
};

Arguments parse(int argc, char** argv) {
  Arguments args;
  if (const char* env = std::getenv("TOPOCOLL_TOPOLOGY")) args.topology = env;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      args.help = true;
    } else if ((arg == "--topology" || arg == "--format") && i + 1 < argc) {
      (arg == "--topology" ? args.topology : args.format) = argv[++i];
    } else {
      args.error = "unknown or incomplete argument '" + arg + "'";
    }
  }
  if (args.error.empty() && args.format != "text" && args.format != "json") {
    args.error = "--format must be text or json, not '" + args.format + "'";
  }
  return args;
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
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const Arguments args = parse(argc, argv);
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
