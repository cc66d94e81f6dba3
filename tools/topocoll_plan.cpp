// topocoll-plan: builds an algorithm's schedule for a topology without running anything, and
// prints it round by round (text) or its statistics and predicted time (json). --verify runs
// the schedule verifier as well.
#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "algorithms/registry.hpp"
#include "model/tam_wang.hpp"
#include "schedule/printer.hpp"
#include "schedule/statistics.hpp"
#include "schedule/verifier.hpp"
#include "topology/topology.hpp"

using namespace topocoll;

namespace {

void list_algorithms() {
  for (const AlltoallAlgorithm& a : alltoall_algorithms()) {
    std::cout << "  " << a.name << std::string(16 - std::min<std::size_t>(15, a.name.size()), ' ') << a.summary
              << '\n';
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"topocoll-plan: show the schedule of a collective algorithm on a topology"};
  std::string op = "alltoall", algorithm_name, topology_spec, format = "text";
  std::size_t block_bytes = 1;
  int group_width = AlgorithmKnobs{}.group_width;
  bool verify_it = false, list = false;
  app.add_option("--op", op, "collective operation")->check(CLI::IsMember({"alltoall"}));
  app.add_option("--algorithm,-a", algorithm_name, "algorithm name (--list shows them)");
  app.add_option("--topology,-t", topology_spec, "clusters:N1,N2,... or flat:N");
  app.add_option("--block-bytes,-b", block_bytes, "bytes of each block i->j")->capture_default_str();
  app.add_option("--group-width,-w", group_width, "group-shuffle: partners per round")->capture_default_str();
  app.add_option("--format,-f", format, "text (round by round) or json (statistics)")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  app.add_flag("--verify", verify_it, "also run the schedule verifier; exit 1 if it fails");
  app.add_flag("--list", list, "list the algorithms and exit");
  CLI11_PARSE(app, argc, argv);

  if (list) {
    list_algorithms();
    return 0;
  }
  if (algorithm_name.empty() || topology_spec.empty()) {
    std::cerr << "topocoll-plan: --algorithm and --topology are required (see --help)\n";
    return 2;
  }
  const AlltoallAlgorithm* algorithm = find_alltoall_algorithm(algorithm_name);
  if (!algorithm) {
    std::cerr << "topocoll-plan: unknown algorithm '" << algorithm_name << "' (known: " << alltoall_algorithm_names()
              << ")\n";
    return 2;
  }
  if (!algorithm->build) {
    std::cerr << "topocoll-plan: '" << algorithm_name << "' is the MPI library's own algorithm; it has no schedule\n";
    return 2;
  }
  std::string error;
  const auto topology = Topology::parse(topology_spec, &error);
  if (!topology) {
    std::cerr << "topocoll-plan: " << error << '\n';
    return 2;
  }
  AlltoallProblem problem{topology->size(), block_bytes, &*topology, AlgorithmKnobs{group_width}};
  const Applicability fits = algorithm->supports(problem);
  if (!fits.ok) {
    std::cerr << "topocoll-plan: " << algorithm_name << " does not apply: " << fits.reason << '\n';
    return 2;
  }

  const Schedule schedule = build_full_schedule(*algorithm, problem);
  const ScheduleStats stats = compute_stats(schedule, &*topology);
  const TamWangParams model = TamWangParams::table1(problem.size);
  Verdict verdict;
  if (verify_it) verdict = verify(schedule);

  if (format == "json") {
    nlohmann::json out = stats_to_json(stats);
    out["op"] = op;
    out["algorithm"] = algorithm_name;
    out["np"] = problem.size;
    out["block_bytes"] = block_bytes;
    out["topology"] = topology_spec;
    out["predicted_us_tam_wang_table1"] = algorithm->predict_us(problem, model);
    if (verify_it) {
      out["verified"] = verdict.ok;
      out["verifier_errors"] = verdict.errors;
    }
    std::cout << out.dump(2) << '\n';
  } else {
    std::cout << op << ' ' << algorithm_name << " on " << topology->describe() << ", " << block_bytes
              << " bytes per block: " << stats.rounds << " rounds, " << stats.total.messages << " messages ("
              << stats.cross.messages << " across " << topology->levels().front() << "s), " << stats.total.bytes
              << " bytes\n";
    print_schedule_text(std::cout, schedule);
    if (verify_it) std::cout << verdict.summary() << '\n';
  }
  return verify_it && !verdict.ok ? 1 : 0;
}
