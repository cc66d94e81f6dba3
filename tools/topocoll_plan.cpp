// topocoll-plan: builds an algorithm's schedule for a topology without running anything, and
// prints it round by round (text) or its statistics and predicted time (json). --verify runs
// the schedule verifier as well. --algorithm auto --calibration FILE picks the algorithm with
// the lowest time predicted by the calibrated cost model, shows every prediction, then goes on
// with the chosen algorithm (--choose-only stops there: the cost of choosing, and of one rank's
// schedule of the choice, at any number of ranks). --op scatter|gather --root R shows a rooted operation's schedule
// (blocks of --block-bytes each at the root, in rank order); --op alltoallv the same blocks as
// alltoall through alltoallv's registry (which adds liu), or with --pattern P [--seed N] the
// per-pair sizes of topocoll-bench's traffic pattern around --block-bytes. --network PLATFORM.xml --links
// counts the flows the schedule puts on every link of the platform's network, round by round,
// with the lower bound of the worst load (the busiest link's flows over the rounds); the network
// also gives linkaware its routes; --fluid prints instead the schedule's time in the fluid
// (max-min) model of SimGrid's flows on that network (plan_fluid.hpp). --svg FILE draws the schedule as a picture
// (plan_svg.hpp). For a scatter or gather, --calibration FILE with any algorithm also prints Kandalla et al.'s model of
// it (the root's messages per level, C3 C2 C1, and their predicted time); for alltoall and alltoallv, Liu's flat model
// (the predicted time). Start-ups on the critical path and L_max (the most bytes a rank moves, round by round the
// larger of its sends and receives) are printed for alltoall and alltoallv with or without a calibration.
#include <CLI/CLI.hpp>
#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "algorithms/group_level.hpp"
#include "algorithms/registry.hpp"
#include "algorithms/round_plan.hpp"
#include "bench_pattern.hpp"
#include "model/liu_flat_cost.hpp"
#include "model/root_path_cost.hpp"
#include "model/tam_wang.hpp"
#include "network/platform_description.hpp"
#include "plan_fluid.hpp"
#include "plan_machine.hpp"
#include "plan_svg.hpp"
#include "schedule/block_map.hpp"
#include "schedule/printer.hpp"
#include "schedule/statistics.hpp"
#include "schedule/verifier.hpp"
#include "select/auto_select.hpp"
#include "topology/topology.hpp"

using namespace topocoll;

namespace {

// The text format lists every rank's rounds up to this many ranks.
constexpr int kMostRanksListed = 1024;
// Every rank's schedule is held at once (the verifier, link loads, the picture) up to this many.
constexpr int kMostRanksHeld = 4096;

// Kandalla et al.'s model of a rooted schedule: C_l and the time per level.
void print_root_path(const RootPathCost& cost, double contention) {
  std::cout << "Kandalla et al.'s model (the root's messages one after another, alpha " << contention << "): "
            << std::fixed << std::setprecision(3) << cost.predicted_us << " us;";
  for (const RootPathLevel& level : cost.levels) {
    std::cout << ' ' << level.level << ": C " << level.messages << ", " << level.bytes << " bytes, "
              << level.predicted_us << " us;";
  }
  std::cout << std::defaultfloat << '\n';
}

nlohmann::json root_path_json(const RootPathCost& cost, double contention) {
  nlohmann::json levels = nlohmann::json::array();
  for (const RootPathLevel& level : cost.levels) {
    levels.push_back({{"level", level.level}, {"messages", level.messages}, {"bytes", level.bytes},
                      {"predicted_us", level.predicted_us}});
  }
  return {{"contention", contention}, {"predicted_us", cost.predicted_us}, {"levels", levels}};
}

// The blocks of `pattern` among p ranks around m bytes: by destination where the pattern's sizes
// depend on it alone (O(p) memory), else every block's size (O(p^2)).
std::unique_ptr<BlockMap> pattern_blocks(const bench::TrafficPattern& pattern, int p, std::size_t m) {
  if (pattern.by_destination()) {
    std::vector<std::size_t> to(static_cast<std::size_t>(p));
    for (int j = 0; j < p; ++j) to[static_cast<std::size_t>(j)] = pattern.bytes(0, j, p, m);
    return std::make_unique<DestinationBlocks>(std::move(to));
  }
  std::vector<std::vector<std::size_t>> bytes(static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i) {
    auto& row = bytes[static_cast<std::size_t>(i)];
    for (int j = 0; j < p; ++j) row.push_back(pattern.bytes(i, j, p, m));
  }
  return std::make_unique<KnownBlocks>(std::move(bytes));
}

void list_algorithms(Operation operation) {
  for (const Algorithm& a : algorithms_for(operation)) {
    std::cout << "  " << a.name << std::string(16 - std::min<std::size_t>(15, a.name.size()), ' ') << a.summary
              << '\n';
  }
}

// The auto choice in the text format: the chosen name, then every prediction.
void print_auto_choice(const AutoChoice& choice, Operation operation, const std::string& calibration, double all_us,
                       double choose_us) {
  std::cout << "auto (calibration " << calibration << "): " << describe_run(choice.algorithm, choice.knobs, operation)
            << "; predicting all took "
            << std::fixed << std::setprecision(1) << all_us << " us, choosing alone " << choose_us << " us\n";
  for (const AlgorithmPrediction& p : choice.predictions) {
    std::cout << "  " << std::left << std::setw(15) << p.algorithm << std::right;
    if (p.predicted_us) {
      std::cout << std::setw(16) << std::setprecision(1) << *p.predicted_us << " us  (" << p.note << ")\n";
    } else {
      std::cout << "  " << p.note << '\n';
    }
  }
  std::cout.unsetf(std::ios::floatfield);
  std::cout << std::setprecision(6);
}

nlohmann::json auto_choice_json(const AutoChoice& choice, const std::string& calibration, double all_us,
                                double choose_us) {
  nlohmann::json predictions = nlohmann::json::array();
  for (const AlgorithmPrediction& p : choice.predictions) {
    predictions.push_back({{"algorithm", p.algorithm},
                           {"predicted_us", p.predicted_us ? nlohmann::json(*p.predicted_us) : nlohmann::json()},
                           {"note", p.note},
                           {"stripes", p.knobs.stripes},
                           {"group_level", p.knobs.group_level},
                           {"topo_linear_phases", p.knobs.topo_linear_phases},
                           {"topo_skipped_levels", p.knobs.topo_skipped_levels}});
  }
  return {{"calibration", calibration},
          {"chosen", choice.algorithm},
          {"stripes", choice.knobs.stripes},
          {"group_level", choice.knobs.group_level},
          {"topo_linear_phases", choice.knobs.topo_linear_phases},
          {"topo_skipped_levels", choice.knobs.topo_skipped_levels},
          {"predict_all_us", all_us},
          {"choose_us", choose_us},
          {"predictions", predictions}};
}

// --choose-only: the choice, its timings, and the time of rank 0's schedule of it (its plan and
// its part recorded, what a rank's executor does on a first call); `machine_us`: the time to read
// the topology (and network) and place the ranks, as a communicator's set-up does.
int print_choice_only(const AutoChoice& choice, const Problem& problem, const Algorithm& algorithm,
                      const std::string& format, const std::string& calibration_path, double all_us, double choose_us,
                      double machine_us) {
  const auto start = std::chrono::steady_clock::now();
  const RankSchedule mine = algorithm.build(problem, 0);
  const double schedule_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  if (format == "json") {
    nlohmann::json out = {{"op", std::string(to_string(problem.operation))},
                          {"np", problem.size},
                          {"block_bytes", problem.block_bytes},
                          {"auto", auto_choice_json(choice, calibration_path, all_us, choose_us)},
                          {"rank_schedule_us", schedule_us},
                          {"rank_schedule_rounds", mine.rounds.size()},
                          {"machine_us", machine_us}};
    std::cout << out.dump(2) << '\n';
  } else {
    print_auto_choice(choice, problem.operation, calibration_path, all_us, choose_us);
    std::cout << "rank 0's schedule of " << choice.algorithm << ": " << mine.rounds.size() << " rounds, built in "
              << std::fixed << std::setprecision(1) << schedule_us << " us\n"
              << "the machine (topology, network, placement) read in " << machine_us << " us\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"topocoll-plan: show the schedule of a collective algorithm on a topology"};
  std::string op = "alltoall", algorithm_name, topology_spec, format = "text";
  std::size_t block_bytes = 1;
  int group_width = AlgorithmKnobs{}.group_width;
  int stripes = 0, root = 0, group_level = -1;
  bool verify_it = false, list = false, choose_only = false;
  std::string calibration_path, hostfile, network_path;
  int np = 0;
  bool links = false;
  std::string pattern_text, svg_path;
  std::uint64_t seed = 1;
  double contention = 1.0;
  tools::FluidOptions fluid;
  app.add_option("--op", op, "collective operation: alltoall, alltoallv (blocks of --block-bytes each), scatter or gather")
      ->check(CLI::IsMember({"alltoall", "alltoallv", "scatter", "gather"}))
      ->capture_default_str();
  app.add_option("--root,-r", root, "scatter, gather: the root rank")->check(CLI::NonNegativeNumber)->capture_default_str();
  app.add_option("--algorithm,-a", algorithm_name, "algorithm name (--list shows them), or auto");
  app.add_option("--topology,-t", topology_spec,
                 "clusters:N1,N2,..., flat:N, a topology file (NAME.topology.json of topocoll-platform) or "
                 "pattern:REGEX (the named groups of a regular expression on the host names of --hostfile: "
                 "the levels, outermost first)");
  app.add_option("--hostfile", hostfile,
                 "a topology file's or a pattern's hostfile: rank r on line r mod lines (default: NAME.hosts)");
  app.add_option("--np", np, "ranks, with a topology file (default: one per hostfile line)")->check(CLI::PositiveNumber);
  app.add_option("--network", network_path,
                 "the SimGrid platform the ranks run on (made by topocoll-platform; its recorded command gives the "
                 "network)");
  app.add_flag("--links", links, "with --network: the flows the schedule puts on every link, round by round");
  app.add_option("--block-bytes,-b", block_bytes, "bytes of each block i->j")->capture_default_str();
  app.add_option("--group-width,-w", group_width, "group-shuffle: partners per round")->capture_default_str();
  app.add_option("--stripes,-s", stripes,
                 "overlap: messages per block across the outermost level (0: one; auto chooses)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--group-level,-g", group_level,
                 "lg, overlap: the topology level whose groups they use (0: the outermost; -1: the outermost, "
                 "or under auto each level priced)")
      ->check(CLI::Range(-1, kMaxGroupLevel))
      ->capture_default_str();
  app.add_option("--format,-f", format, "text (round by round) or json (statistics)")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  app.add_option("--pattern", pattern_text,
                 "alltoallv: topocoll-bench's traffic pattern around --block-bytes (uniform, random, zipf:S, "
                 "sparse:K, hotspot:H)");
  app.add_option("--seed", seed, "with --pattern: its seed, as topocoll-bench's")->capture_default_str();
  app.add_option("--svg", svg_path,
                 "also draw the schedule as an SVG picture in FILE: ranks grouped by the topology's levels, "
                 "rounds left to right, one arrow per message (its width its bytes); with --network, every loaded "
                 "link's flows per round under it");
  app.add_flag("--verify", verify_it, "also run the schedule verifier; exit 1 if it fails");
  app.add_flag("--list", list, "list the algorithms of --op and exit");
  app.add_flag("--choose-only", choose_only,
               "with --algorithm auto: stop once chosen (no full schedule, no statistics), and time one rank's "
               "schedule of the choice as the executor builds it (rank_schedule_us)");
  app.add_option("--calibration,-c", calibration_path,
                 "auto: calibration file of the machine (scripts/calibrate.sh writes platforms/NAME.calibration.json); "
                 "scatter, gather: also Kandalla et al.'s cost model of the algorithm on it");
  app.add_option("--contention", contention,
                 "scatter, gather with --calibration: the model's contention factor alpha on the outermost level "
                 "(1: a quiet network)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  tools::add_fluid_options(app, fluid);
  CLI11_PARSE(app, argc, argv);

  if (list) {
    list_algorithms(*operation_named(op));
    return 0;
  }
  if (algorithm_name.empty() || topology_spec.empty()) {
    std::cerr << "topocoll-plan: --algorithm and --topology are required (see --help)\n";
    return 2;
  }
  const Operation operation = *operation_named(op);
  const bool choose = algorithm_name == "auto";
  std::optional<Calibration> calibration;
  if (choose || !calibration_path.empty()) {
    std::string why;
    if (calibration_path.empty()) why = "--algorithm auto needs --calibration FILE";
    if (!why.empty() || !(calibration = load_calibration(calibration_path, &why))) {
      std::cerr << "topocoll-plan: " << why << '\n';
      return 2;
    }
  }
  const Algorithm* algorithm = choose ? nullptr : find_algorithm(operation, algorithm_name);
  if (!algorithm && !choose) {
    std::cerr << "topocoll-plan: unknown " << op << " algorithm '" << algorithm_name
              << "' (known: " << algorithm_names(operation) << ")\n";
    return 2;
  }
  if (algorithm && !algorithm->has_schedule()) {
    std::cerr << "topocoll-plan: '" << algorithm_name << "' is the MPI library's own algorithm; it has no schedule\n";
    return 2;
  }
  if (choose_only && !choose) {
    std::cerr << "topocoll-plan: --choose-only needs --algorithm auto\n";
    return 2;
  }
  if (!pattern_text.empty() && operation != Operation::alltoallv) {
    std::cerr << "topocoll-plan: --pattern is for --op alltoallv\n";
    return 2;
  }
  if (links && network_path.empty()) {
    std::cerr << "topocoll-plan: --links needs --network PLATFORM.xml\n";
    return 2;
  }
  if (fluid.on && network_path.empty()) {
    std::cerr << "topocoll-plan: --fluid needs --network PLATFORM.xml\n";
    return 2;
  }
  tools::PlanMachine machine;
  std::optional<network::Network> network;
  std::vector<int> rank_hosts;
  const auto reading = std::chrono::steady_clock::now();
  try {
    machine = tools::load_plan_machine(topology_spec, hostfile, np);
    if (!network_path.empty()) {
      network = network::network_of_platform(network_path);
      rank_hosts = tools::hosts_of_ranks(*network, machine);
    }
  } catch (const std::exception& e) {
    std::cerr << "topocoll-plan: " << e.what() << '\n';
    return 2;
  }
  const double machine_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - reading).count();
  const Topology* topology = &machine.topology;
  if (is_rooted(operation) && root >= topology->size()) {
    std::cerr << "topocoll-plan: --root " << root << " is not a rank of " << topology_spec << " ("
              << topology->size() << " ranks)\n";
    return 2;
  }
  const RootedBlocks rooted_layout =
      RootedBlocks::uniform(RootedBlocks::flow_of(operation), root, topology->size(), block_bytes);
  const UniformBlocks uniform_layout(block_bytes);
  Problem problem{topology->size(), block_bytes, topology, AlgorithmKnobs{group_width}};
  if (is_rooted(operation)) {
    problem = Problem::rooted(operation, rooted_layout, topology);
    problem.block_bytes = block_bytes;
    problem.knobs.group_width = group_width;
  }
  std::optional<bench::TrafficPattern> pattern;
  std::unique_ptr<BlockMap> pattern_layout;
  if (!pattern_text.empty()) {
    try {
      pattern = bench::TrafficPattern::parse(pattern_text, seed);
      pattern_layout = pattern_blocks(*pattern, topology->size(), block_bytes);
    } catch (const std::exception& e) {
      std::cerr << "topocoll-plan: " << e.what() << '\n';
      return 2;
    }
  }
  const BlockMap& layout = is_rooted(operation) ? static_cast<const BlockMap&>(rooted_layout)
                           : pattern_layout     ? static_cast<const BlockMap&>(*pattern_layout)
                                                : uniform_layout;
  if (operation == Operation::alltoallv) {
    problem.blocks = &layout;
    problem.operation = operation;
  }
  problem.knobs.stripes = stripes;
  problem.knobs.group_level = group_level;
  // With --network, algorithms that read routes (linkaware) take the platform's, not the tree the
  // topology implies.
  NetworkPlacement placement;
  if (network) {
    placement = {&*network, rank_hosts};
    problem.network = &placement;
  }
  std::optional<AutoChoice> choice;
  double all_us = 0.0, choose_us = 0.0;  // time to predict every algorithm, and to choose only
  if (choose) {
    auto start = std::chrono::steady_clock::now();
    choice = select_algorithm(problem, *calibration);
    all_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    start = std::chrono::steady_clock::now();
    const AutoRun chosen = choose_algorithm(problem, *calibration);  // what the executor runs
    choose_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    if (choice->algorithm.empty()) {
      std::cerr << "topocoll-plan: auto found nothing to predict: "
                << (choice->predictions.empty() ? "no algorithm" : choice->predictions.front().note) << '\n';
      return 2;
    }
    if (chosen.algorithm != choice->algorithm || chosen.knobs != choice->knobs) {
      std::cerr << "topocoll-plan: internal error: auto chose " << describe_run(chosen.algorithm, chosen.knobs, operation)
                << " and " << describe_run(choice->algorithm, choice->knobs, operation) << '\n';
      return 1;
    }
    algorithm = find_algorithm(operation, choice->algorithm);
    algorithm_name = choice->algorithm;
    problem.knobs = choice->knobs;  // the schedule shown is the one auto runs
    if (choose_only) return print_choice_only(*choice, problem, *algorithm, format, calibration_path, all_us, choose_us,
                                              machine_us);
  }
  const Applicability fits = algorithm->supports(problem);
  if (!fits.ok) {
    std::cerr << "topocoll-plan: " << algorithm_name << " does not apply: " << fits.reason << '\n';
    return 2;
  }
  if (fluid.on) return tools::print_fluid_time(*algorithm, problem, *network, rank_hosts, fluid, format);

  // Every rank's schedule at once only where something reads it whole (the rounds listed, the
  // verifier, link loads, the picture, the rooted model); the statistics and the flat models
  // are read one rank at a time, so that thousands of ranks fit in memory.
  const bool list_rounds = format == "text" && problem.size <= kMostRanksListed;
  const bool rooted_model = is_rooted(operation) && calibration.has_value();
  const bool whole = list_rounds || verify_it || links || !svg_path.empty() || rooted_model;
  if (whole && problem.size > kMostRanksHeld) {
    std::cerr << "topocoll-plan: --verify, --links, --svg and the rooted model read every rank's schedule at once: "
              << "at most " << kMostRanksHeld << " ranks (this topology has " << problem.size
              << "); without them the statistics are read one rank at a time\n";
    return 2;
  }
  Schedule schedule;
  StatsAccumulator stats_of_ranks(topology);
  std::optional<LiuFlatAccumulator> flat_of_ranks;
  // Tam-Wang's time: the registry's closed form, or read off the ranks in this same pass (the
  // json format shows it; predict_tam_wang_us would build every rank's schedule again).
  const TamWangParams model = TamWangParams::table1(problem.size);
  std::optional<TamWangAccumulator> tam_wang_of_ranks;
  if (format == "json" && algorithm->predict_us == nullptr) tam_wang_of_ranks.emplace(model);
  if (!is_rooted(operation)) {
    flat_of_ranks.emplace(calibration ? LiuFlatParams::of(calibration->machine()) : LiuFlatParams{});
  }
  const auto take = [&](int rank, const RankSchedule& part) {
    stats_of_ranks.add(rank, part);
    if (flat_of_ranks) flat_of_ranks->add(part);
    if (tam_wang_of_ranks) tam_wang_of_ranks->add(part);
  };
  if (whole) {
    schedule = build_full_schedule(*algorithm, problem);
    for (int r = 0; r < problem.size; ++r) take(r, schedule.ranks[static_cast<std::size_t>(r)]);
  } else {
    const std::unique_ptr<RoundPlan> plan = algorithm->plan(problem);
    RankSchedule rank_at_hand;  // each rank recorded over the one before
    for (int r = 0; r < problem.size; ++r) {
      record_rank(*plan, r, rank_at_hand);
      take(r, rank_at_hand);
    }
  }
  const ScheduleStats& stats = stats_of_ranks.stats();
  Verdict verdict;
  if (verify_it) verdict = verify(schedule, layout);
  std::optional<LinkLoads> loads;
  if (links) loads = link_loads(schedule, *network, rank_hosts);
  if (!svg_path.empty()) {
    if (stats.total.messages > tools::kMostSvgMessages) {
      std::cerr << "topocoll-plan: --svg draws at most " << tools::kMostSvgMessages << " messages; this schedule has "
                << stats.total.messages << " (fewer ranks, or another algorithm)\n";
      return 2;
    }
    // Every loaded link of every round, not only the busiest the --links table lists.
    std::optional<LinkLoads> every_link;
    if (network) every_link = link_loads(schedule, *network, rank_hosts, std::numeric_limits<std::size_t>::max());
    std::ofstream file(svg_path);
    const tools::SvgCaption caption{op + " " + algorithm_name + " on " + topology->describe() + ", " +
                                    std::to_string(block_bytes) + " bytes per block: " + std::to_string(stats.rounds) +
                                    " rounds, " + std::to_string(stats.total.messages) + " messages"};
    tools::write_schedule_svg(file, schedule, *topology, every_link ? &*every_link : nullptr, caption);
    if (!file.flush()) {
      std::cerr << "topocoll-plan: cannot write " << svg_path << '\n';
      return 2;
    }
    std::cerr << "topocoll-plan: wrote " << svg_path << '\n';
  }
  // Liu's flat model: its start-ups and L_max need no calibration, its time does.
  std::optional<LiuFlatCost> flat;
  if (flat_of_ranks) flat = flat_of_ranks->result();
  std::optional<RootPathCost> root_path;
  if (is_rooted(operation) && calibration) {
    const MachineCost machine_cost = calibration->machine();
    if (const auto why = check_machine(machine_cost)) {
      std::cerr << "topocoll-plan: the calibration " << calibration_path << " describes no machine: " << *why << '\n';
      return 2;
    }
    root_path = root_path_cost(schedule, root, MachinePricing(machine_cost, topology, topology->size()), contention);
  }

  if (format == "json") {
    nlohmann::json out = stats_to_json(stats);
    out["op"] = op;
    out["algorithm"] = algorithm_name;
    out["np"] = problem.size;
    out["block_bytes"] = block_bytes;
    out["topology"] = topology_spec;
    if (is_rooted(operation)) out["root"] = root;
    out["predicted_us_tam_wang_table1"] =
        tam_wang_of_ranks ? tam_wang_of_ranks->result() : algorithm->predict_us(problem, model);
    if (choice) out["auto"] = auto_choice_json(*choice, calibration_path, all_us, choose_us);
    if (root_path) out["root_path_model"] = root_path_json(*root_path, contention);
    if (pattern) out["pattern"] = pattern->describe();
    if (flat) {
      out["startups"] = flat->startups;
      out["max_traffic_bytes"] = flat->max_traffic;
      if (calibration) {
        out["liu_flat_model"] = {{"predicted_us", flat->predicted_us},
                                 {"startups", flat->startups},
                                 {"max_traffic_bytes", flat->max_traffic}};
      }
    }
    if (loads) tools::add_link_loads(out, *loads);
    if (verify_it) {
      out["verified"] = verdict.ok;
      out["verifier_errors"] = verdict.errors;
    }
    std::cout << out.dump(2) << '\n';
  } else {
    if (choice) print_auto_choice(*choice, operation, calibration_path, all_us, choose_us);
    std::cout << op << ' ' << algorithm_name << " on " << topology->describe() << ", " << block_bytes
              << " bytes per block: " << stats.rounds << " rounds, " << stats.total.messages << " messages ("
              << stats.cross.messages << " across " << topology->levels().front() << "s), " << stats.total.bytes
              << " bytes, at most " << stats.max_messages_per_rank << " messages sent by one rank\n";
    if (stats.by_level.size() > 2) {
      // Kandalla et al.'s C3, C2, C1 for a switch tree: messages by the outermost level they cross.
      std::cout << "messages by the outermost level they cross:";
      for (std::size_t l = 0; l < stats.by_level.size(); ++l) {
        const bool inside = l + 1 == stats.by_level.size();
        std::cout << (l ? ", " : " ") << (inside ? "within a " + topology->levels().back()
                                                 : "between " + topology->levels()[l] + "s")
                  << ' ' << stats.by_level[l].messages;
      }
      std::cout << '\n';
    }
    if (root_path) print_root_path(*root_path, contention);
    if (pattern) {
      std::cout << "traffic " << pattern->describe() << " around "
                << block_bytes << " bytes per block\n";
    }
    if (flat && calibration) {
      std::cout << "Liu's flat model (" << calibration_path << "): " << flat->predicted_us << " us, "
                << flat->startups << " start-ups on the critical path, L_max " << flat->max_traffic << " bytes\n";
    } else if (flat) {
      std::cout << flat->startups << " start-ups on the critical path, L_max " << flat->max_traffic << " bytes\n";
    }
    if (list_rounds) {
      print_schedule_text(std::cout, schedule);
    } else {
      std::cout << "(the rounds of each rank are listed up to " << kMostRanksListed
                << " ranks; --format json gives these statistics)\n";
    }
    if (loads) tools::print_link_loads(std::cout, *loads);
    if (verify_it) std::cout << verdict.summary() << '\n';
  }
  return verify_it && !verdict.ok ? 1 : 0;
}
