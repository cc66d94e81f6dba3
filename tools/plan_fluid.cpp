#include "plan_fluid.hpp"

#include <chrono>
#include <exception>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "algorithms/round_plan.hpp"
#include "select/auto_select.hpp"

namespace topocoll::tools {

void add_fluid_options(CLI::App& app, FluidOptions& options) {
  app.add_flag("--fluid", options.on,
               "with --network: the time of the schedule in the fluid (max-min) model of SimGrid's flows, instead of "
               "the statistics (docs/algorithms.md, \"The fluid model\")");
  app.add_option("--fluid-reading", options.reading,
                 "--fluid: every-link (every rank, every link alone: exact), links-alike (a sample of ranks beyond 320, "
                 "the host links of a cluster read alike, which spreads skewed traffic evenly), bottlenecks (every "
                 "rank, every link alone, each round as long as its most loaded link: no sharing worked out) or auto "
                 "(every-link up to 320 ranks; beyond, links-alike where the sampled ranks of each cluster post alike "
                 "in every round, and where they do not every-link while that stays within minutes, bottlenecks "
                 "past that: docs/algorithms.md)")
      ->check(CLI::IsMember({"auto", "every-link", "links-alike", "bottlenecks"}))
      ->capture_default_str();
  app.add_option("--copy-bandwidth", options.copy_bandwidth,
                 "--fluid: bytes/s of the local copies (topocoll-bench's --copy-bandwidth in the simulation)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--overhead-us", options.overhead_us,
                 "--fluid: CPU time per message sent and per message received (SMPI's smpi/os and smpi/or)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_flag("--crosstraffic", options.parameters.crosstraffic,
               "--fluid: SimGrid's network/crosstraffic:1 (each flow loads its way back with 5% of itself)");
  app.add_option("--weight-s", options.parameters.weight_s,
                 "--fluid: SimGrid's network/weight-S (8775 for the SMPI model, 20537 for CM02)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
}

int print_fluid_time(const Algorithm& algorithm, const Problem& problem, const network::Network& network,
                     const std::vector<int>& rank_hosts, FluidOptions options, const std::string& format) {
  options.parameters.copy_bytes_per_us = options.copy_bandwidth / 1e6;
  options.parameters.send_overhead_us = options.overhead_us;
  options.parameters.recv_overhead_us = options.overhead_us;
  const FluidReading reading = options.reading == "every-link"    ? FluidReading::every_link
                               : options.reading == "links-alike" ? FluidReading::links_alike
                               : options.reading == "bottlenecks" ? FluidReading::bottlenecks
                                                                  : FluidReading::automatic;
  FluidTime fluid;
  const auto start = std::chrono::steady_clock::now();
  try {
    const std::unique_ptr<RoundPlan> plan = algorithm.plan(problem);
    fluid = fluid_time(*plan, problem.size, network, rank_hosts, options.parameters, reading);
  } catch (const std::exception& e) {
    std::cerr << "topocoll-plan: the fluid model cannot read this schedule: " << e.what() << '\n';
    return 2;
  }
  const double model_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const std::string run = describe_run(std::string(algorithm.name), problem.knobs, problem.operation);
  if (fluid.links_alike && fluid.ranks_differ) {
    std::cerr << "topocoll-plan: warning: the ranks of a cluster send or receive different messages (skewed traffic); "
                 "links alike spreads them evenly over the cluster's host links and can be far under the exact "
                 "reading (--fluid-reading every-link; docs/algorithms.md, \"The fluid model\")\n";
  }
  if (fluid.bottlenecks && reading == FluidReading::automatic) {
    std::cerr << "topocoll-plan: note: skewed traffic past the exact reading's reach, read by each round's bottlenecks "
                 "(--fluid-reading bottlenecks; docs/algorithms.md, \"The fluid model\", gives its error)\n";
  }
  if (format == "json") {
    nlohmann::json out;
    out["algorithm"] = run;
    out["np"] = problem.size;
    out["block_bytes"] = problem.block_bytes;
    out["fluid_us"] = fluid.us;
    out["rounds"] = fluid.rounds;
    out["flow_classes"] = fluid.flow_classes;
    out["events"] = fluid.events;
    out["links_alike"] = fluid.links_alike;
    out["bottlenecks"] = fluid.bottlenecks;
    out["every_rank"] = fluid.every_rank;
    out["ranks_differ"] = fluid.ranks_differ;
    out["model_ms"] = model_ms;
    std::cout << out.dump(2) << '\n';
  } else {
    std::cout << run << ", " << problem.size << " ranks, " << problem.block_bytes << " bytes per block: " << fluid.us
              << " us in the fluid model (" << fluid.rounds << " rounds, " << fluid.flow_classes << " flow classes, "
              << fluid.events << " sharings; " << (fluid.every_rank ? "every rank" : "a sample of ranks") << ", "
              << (fluid.links_alike ? "host links read alike per cluster" : "every link alone")
              << (fluid.bottlenecks ? ", each round as long as its bottleneck" : "") << "; " << model_ms
              << " ms)\n";
  }
  return 0;
}

}  // namespace topocoll::tools
