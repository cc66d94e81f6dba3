// topocoll-plan --fluid: the fluid model's time of a schedule on the network a platform
// describes (model/fluid_schedule.hpp), with the settings that shape SimGrid's flows as options.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "algorithms/problem.hpp"
#include "algorithms/registry.hpp"
#include "model/fluid_schedule.hpp"
#include "network/network.hpp"

namespace topocoll::tools {

struct FluidOptions {
  bool on = false;
  FluidParameters parameters;
  std::string reading = "auto";
  double copy_bandwidth = 5e9;  // bytes/s, as parameters.copy_bytes_per_us
  double overhead_us = 0.0;     // per message sent and received
};

void add_fluid_options(CLI::App& app, FluidOptions& options);

// Prints the fluid time of `algorithm` on `problem` (text or json); 0, or 2 with a message on
// standard error when the model cannot read it.
int print_fluid_time(const Algorithm& algorithm, const Problem& problem, const network::Network& network,
                     const std::vector<int>& rank_hosts, FluidOptions options, const std::string& format);

}  // namespace topocoll::tools
