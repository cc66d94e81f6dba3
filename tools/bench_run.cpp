// topocoll-bench's measurement (bench_run.hpp): the algorithms, the points' applicability, the
// one-time set-up, validation and timing, one by one or interleaved.
#include "bench_run.hpp"

#include <algorithm>
#include <climits>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/registry.hpp"
#include "bench_buffers.hpp"
#include "bench_measure.hpp"
#include "exec/call_checks.hpp"
#include "exec/topology_discovery.hpp"
#include "model/tam_wang.hpp"
#include "topocoll/topocoll.hpp"
#include "topology/topology.hpp"

namespace topocoll::bench {

namespace {

// The topology the library will discover for `comm` under the benchmark's spec, so that a
// topology-aware algorithm that does not apply is reported as such instead of failing in the
// call. Nothing to discover (nullopt, no error) when no selected algorithm needs a topology or
// no spec is given; an unusable spec sets `error`.
std::optional<Topology> topology_for_checks(const BenchOptions& options, MPI_Comm comm, std::string& error) {
  const bool needed = std::any_of(options.algorithms.begin(), options.algorithms.end(), [&](const std::string& name) {
    return name == "auto" || find_algorithm(options.operation, name)->needs_topology;
  });
  if (!needed || options.topology.empty()) return std::nullopt;
  Topology topology;
  if (auto failure = exec::discover_topology(comm, options.topology, topology)) {
    error = "topology '" + options.topology + "': " + failure->message;
    return std::nullopt;
  }
  return topology;
}

// One algorithm of the run: its registry entry (auto: direct's, whose applicability is auto's),
// the options of its calls, and what auto ran at the last call.
struct BenchedAlgorithm {
  std::string name;
  const Algorithm* algorithm = nullptr;
  bool choose = false;
  CollectiveOptions call_options;
  std::string chosen;
  std::string chosen_by;
  bool set_up = false;
  StartSync sync;
};

CollectiveOptions call_options_for(const BenchOptions& options, const std::string& name) {
  CollectiveOptions call_options;
  call_options.algorithm = name;
  call_options.group_shuffle.group_width = options.group_width;
  call_options.max_requests = options.max_requests;
  call_options.copy_bandwidth = options.copy_bandwidth;
  call_options.topology = options.topology;
  call_options.network = options.network;
  call_options.lg.max_scratch_bytes = options.max_scratch_bytes;
  call_options.lg.segment_bytes = options.segment_bytes;
  call_options.overlap.stripes = options.stripes;
  call_options.group_level = options.group_level;
  call_options.topo.linear_phases = options.topo_stars;
  call_options.topo.skipped_levels = options.topo_skip;
  call_options.calibration = options.calibration;
  return call_options;
}

// What auto ran at the last call and what chose it: "shift, chosen by the cost model".
std::string auto_said(const BenchedAlgorithm& benched) {
  return benched.chosen_by.empty() ? benched.chosen : benched.chosen + ", chosen by " + benched.chosen_by;
}

// Built in place (the algorithms' call options point at their own `chosen`), never moved.
std::vector<std::unique_ptr<BenchedAlgorithm>> benched_algorithms(const BenchOptions& options) {
  std::vector<std::unique_ptr<BenchedAlgorithm>> list;
  for (const std::string& name : options.algorithms) {
    auto benched = std::make_unique<BenchedAlgorithm>();
    benched->name = name;
    // auto: the executor's choice from --calibration, on the discovered topology; it applies
    // wherever its candidates do, so the points are checked like a flat algorithm's.
    benched->choose = name == "auto";
    benched->algorithm =
        find_algorithm(options.operation, benched->choose ? std::string(default_algorithm(options.operation)) : name);
    benched->call_options = call_options_for(options, name);
    if (benched->choose) {
      benched->call_options.chosen_algorithm = &benched->chosen;
      benched->call_options.chosen_by = &benched->chosen_by;
    }
    benched->sync = StartSync{options.window_sync, options.sync_window};
    list.push_back(std::move(benched));
  }
  return list;
}

// The problem one point poses to an algorithm's supports() and to --predict. It owns the block
// layouts its Problem points to, so it is neither copied nor moved.
class PointProblem {
 public:
  PointProblem(const BenchOptions& options, int p, std::size_t block_bytes)
      : rooted_(RootedBlocks::uniform(RootedBlocks::flow_of(options.operation), options.root, p, block_bytes)),
        uniform_(block_bytes),
        problem(is_rooted(options.operation) ? Problem::rooted(options.operation, rooted_)
                                             : Problem{p, block_bytes, nullptr, {}}) {
    if (options.operation == Operation::alltoallv) {
      problem.blocks = &uniform_;
      problem.operation = options.operation;
    }
    // The knobs the executor derives from the calls' options, so that supports() sees the same.
    problem.knobs = exec::knobs_of(call_options_for(options, ""));
  }
  PointProblem(const PointProblem&) = delete;
  PointProblem& operator=(const PointProblem&) = delete;

 private:
  RootedBlocks rooted_;
  UniformBlocks uniform_;

 public:
  Problem problem;
};

// Empty when the algorithm can run the point, else why not (reported, no row).
std::string why_not_applicable(const BenchOptions& options, const Algorithm& algorithm,
                               const std::optional<Topology>& topology, int p, std::size_t block_bytes) {
  PointProblem point(options, p, block_bytes);
  if (algorithm.needs_topology && topology) point.problem.topology = &*topology;
  if (const Applicability applicability = algorithm.supports(point.problem); !applicability.ok) {
    const bool no_topology = algorithm.needs_topology && !topology;
    return applicability.reason + (no_topology ? " (give --topology or TOPOCOLL_TOPOLOGY)" : "");
  }
  if (is_variable(options.operation) && static_cast<std::size_t>(p) * block_bytes > static_cast<std::size_t>(INT_MAX)) {
    return "the v forms' displacements are ints: p blocks must fit 2^31-1 bytes";
  }
  return {};
}

std::optional<double> prediction_us(const BenchOptions& options, const BenchedAlgorithm& benched,
                                    const std::optional<Topology>& topology, int p, std::size_t block_bytes) {
  if (!options.predict || options.operation != Operation::alltoall || benched.choose ||
      !benched.algorithm->has_schedule()) {
    return std::nullopt;
  }
  PointProblem point(options, p, block_bytes);
  if (benched.algorithm->needs_topology && topology) point.problem.topology = &*topology;
  return predict_tam_wang_us(*benched.algorithm, point.problem, TamWangParams::table1(p));
}

const TrafficPattern* pattern_of(const BenchOptions& options) {
  return options.pattern ? &*options.pattern : nullptr;
}

// The most bytes this rank sends or receives at any size: p blocks of the largest, or the
// largest row or column of the pattern, and at least the p bytes of the set-up call's 1-byte
// blocks (set_up_call).
std::size_t largest_exchange(const BenchOptions& options, int p, int rank) {
  const std::vector<std::size_t> sizes = options.message_sizes();
  const std::size_t largest = static_cast<std::size_t>(p) * *std::max_element(sizes.begin(), sizes.end());
  if (!options.pattern || options.operation != Operation::alltoallv) return largest;
  std::size_t most = static_cast<std::size_t>(p);
  for (const std::size_t m : sizes) {
    std::size_t sent = 0, received = 0;
    for (int q = 0; q < p; ++q) {
      sent += options.pattern->bytes(rank, q, p, m);
      received += options.pattern->bytes(q, rank, p, m);
    }
    most = std::max({most, sent, received});
  }
  return most;
}

// The buffers of every point, sized for the largest.
struct Buffers {
  MessageBuffer send, recv, reference;
  Buffers(const BenchOptions& options, std::size_t largest_exchange)
      : send(largest_exchange, options.shared_malloc),
        recv(largest_exchange, options.shared_malloc),
        reference(options.validate ? largest_exchange : 0, false) {}
};

// The untimed part of a point: the algorithm's one-time set-up before its first point, and the
// validation. Returns the point's result with everything but the latency.
PointResult prepare_point(const BenchOptions& options, BenchedAlgorithm& benched, const ExchangePoint& point,
                          Buffers& buffers) {
  if (!benched.set_up) {
    set_up_call(point);
    benched.set_up = true;
  }
  PointResult result;
  result.block_bytes = point.block_bytes;
  result.validity = options.validate ? validate_call(point, buffers.reference, benched.sync) : Validity::skipped;
  result.iterations = options.iterations_for(point.block_bytes);
  return result;
}

Latency time_point(const BenchOptions& options, BenchedAlgorithm& benched, const ExchangePoint& point) {
  return time_call(point, options.warmup_for(point.block_bytes), options.iterations_for(point.block_bytes),
                   benched.sync);
}

// Without --repeat: each algorithm in turn, all its sizes (OSU's order).
void run_one_by_one(const BenchOptions& options, const std::optional<Topology>& topology, MPI_Comm comm, int p,
                    std::vector<std::unique_ptr<BenchedAlgorithm>>& algorithms, Buffers& buffers, Report& report,
                    std::vector<MeasuredPoint>* points) {
  for (auto& benched : algorithms) {
    report.begin_algorithm(benched->name);
    for (const std::size_t block_bytes : options.message_sizes()) {
      if (const std::string why = why_not_applicable(options, *benched->algorithm, topology, p, block_bytes);
          !why.empty()) {
        report.not_applicable(benched->name, block_bytes, why);
        continue;
      }
      const ExchangePoint point{buffers.send, buffers.recv, block_bytes, benched->call_options, comm,
                                options.operation, options.root, pattern_of(options)};
      PointResult result = prepare_point(options, *benched, point, buffers);
      result.latency = time_point(options, *benched, point);
      result.predicted_us = prediction_us(options, *benched, topology, p, block_bytes);
      if (benched->choose) report.auto_choice(block_bytes, auto_said(*benched));
      report.point(benched->name, result);
      if (points != nullptr) points->push_back({benched->name, block_bytes, result.validity});
    }
  }
}

// --repeat N: at each size, every algorithm prepared once, then N rounds in which each algorithm
// runs its timed block in turn; the rows (medians) are printed at the end in OSU's order.
void run_interleaved(const BenchOptions& options, const std::optional<Topology>& topology, MPI_Comm comm, int p,
                     std::vector<std::unique_ptr<BenchedAlgorithm>>& algorithms, Buffers& buffers, Report& report,
                     RepeatedRuns& runs, std::vector<MeasuredPoint>* points) {
  struct Prepared {
    PointResult result;          // everything but the latency
    std::string chosen;          // auto: what it ran
    std::string not_applicable;  // non-empty: no row, and why
  };
  const std::vector<std::size_t> sizes = options.message_sizes();
  std::vector<std::vector<Prepared>> prepared(algorithms.size(), std::vector<Prepared>(sizes.size()));
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    std::vector<std::optional<ExchangePoint>> points(algorithms.size());
    for (std::size_t a = 0; a < algorithms.size(); ++a) {
      BenchedAlgorithm& benched = *algorithms[a];
      prepared[a][s].not_applicable = why_not_applicable(options, *benched.algorithm, topology, p, sizes[s]);
      if (!prepared[a][s].not_applicable.empty()) continue;
      points[a].emplace(buffers.send, buffers.recv, sizes[s], benched.call_options, comm, options.operation,
                        options.root, pattern_of(options));
      prepared[a][s].result = prepare_point(options, benched, *points[a], buffers);
    }
    for (int repetition = 1; repetition <= *options.repeat; ++repetition) {
      for (std::size_t a = 0; a < algorithms.size(); ++a) {
        if (!points[a]) continue;
        const Latency latency = time_point(options, *algorithms[a], *points[a]);
        runs.record(algorithms[a]->name, sizes[s], repetition, {latency.avg_us, latency.min_us, latency.max_us});
      }
    }
    for (std::size_t a = 0; a < algorithms.size(); ++a) prepared[a][s].chosen = auto_said(*algorithms[a]);
  }
  for (std::size_t a = 0; a < algorithms.size(); ++a) {
    const BenchedAlgorithm& benched = *algorithms[a];
    report.begin_algorithm(benched.name);
    for (std::size_t s = 0; s < sizes.size(); ++s) {
      Prepared& point = prepared[a][s];
      if (!point.not_applicable.empty()) {
        report.not_applicable(benched.name, sizes[s], point.not_applicable);
        continue;
      }
      const std::optional<RepetitionSummary> summary = runs.summary(benched.name, sizes[s]);
      if (summary) point.result.latency = {summary->median.avg_us, summary->median.min_us, summary->median.max_us};
      point.result.predicted_us = prediction_us(options, benched, topology, p, sizes[s]);
      if (benched.choose) report.auto_choice(sizes[s], point.chosen);
      report.point(benched.name, point.result);
      if (points != nullptr) points->push_back({benched.name, sizes[s], point.result.validity});
    }
  }
}

}  // namespace

int measure(const BenchOptions& options, MPI_Comm comm, std::string_view tool, Report& report, RepeatedRuns& runs,
            std::vector<MeasuredPoint>* points) {
  int rank = 0;
  int p = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  std::string topology_error;
  const std::optional<Topology> topology = topology_for_checks(options, comm, topology_error);
  if (!topology_error.empty()) {
    if (rank == 0) std::cerr << tool << ": " << topology_error << '\n';
    return 2;
  }
  if (is_rooted(options.operation) && options.root >= p) {
    if (rank == 0) std::cerr << tool << ": --root " << options.root << " is not a rank of " << p << '\n';
    return 2;
  }
  Buffers buffers(options, largest_exchange(options, p, rank));
  if (options.pattern && rank == 0) {
    (options.format == OutputFormat::csv ? std::cerr : std::cout)
        << "# pattern: " << options.pattern->describe() << ", per-pair sizes around each -m size\n";
  }
  std::vector<std::unique_ptr<BenchedAlgorithm>> algorithms = benched_algorithms(options);
  if (options.repeat) {
    run_interleaved(options, topology, comm, p, algorithms, buffers, report, runs, points);
  } else {
    run_one_by_one(options, topology, comm, p, algorithms, buffers, report, points);
  }
  return 0;
}

}  // namespace topocoll::bench
