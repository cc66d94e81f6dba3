// topocoll-walk-cost: what one rank's MPI_Alltoall costs the library itself at any number of
// ranks, without the ranks. For rank R of a communicator of p ranks (a topology spec, as
// topocoll-plan takes it) it times what the executor does on a first call (auto's choice, the
// rank's schedule, its ExecutionPlan) and then walks that plan with the executor's own code
// (exec::execute_plan), first and again, in this one process: every peer is MPI_PROC_NULL, so
// each message is a real MPI_Isend/MPI_Irecv (or MPI_Send) with its datatype, its copies and its
// completion, but no matching and no transfer. That is the library's per-call work (posting,
// per-call datatypes, staging copies, local copies, its windows), the part that grows with p and
// that no simulator charges; the network's share is the simulator's and the model's. Beside it, a
// bare loop: the p - 1 receives and p - 1 sends of B bytes to MPI_PROC_NULL and one
// MPI_Waitall, what MPI's own linear exchange posts. Prints one JSON object per rank.
// Usage: topocoll-walk-cost -a ALGORITHM -t SPEC [-b BYTES] [--rank R ...] [--walks N]
#include <malloc.h>
#include <mpi.h>
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstddef>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "bench_statistics.hpp"
#include "exec/execution_plan.hpp"
#include "exec/executor.hpp"
#include "plan_machine.hpp"
#include "select/auto_select.hpp"
#include "select/calibration.hpp"

using namespace topocoll;

namespace {

using Clock = std::chrono::steady_clock;

double us_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// Heap bytes in use (glibc's count, MPI's allocations included).
std::size_t heap_in_use() { return mallinfo2().uordblks; }

// Every transfer of the plan to MPI_PROC_NULL; a receive from it completes with 0 bytes, which
// is then what the walk's size check expects. Nothing else changes: counts, datatypes, pieces,
// staging and copies are the plan's.
void send_to_nobody(exec::ExecutionPlan& plan) {
  for (exec::PlannedRound& round : plan.rounds) {
    for (exec::TransferDescription& send : round.sends) send.peer = MPI_PROC_NULL;
    for (exec::TransferDescription& receive : round.recvs) {
      receive.peer = MPI_PROC_NULL;
      receive.bytes = 0;
    }
  }
}

// MPI's own linear exchange of one rank, to MPI_PROC_NULL: p - 1 receives, p - 1 sends, a wait.
double bare_loop_us(const std::byte* send, std::byte* recv, std::size_t block, int size, int rank) {
  std::vector<MPI_Request> requests;
  requests.reserve(2 * static_cast<std::size_t>(size));
  const auto start = Clock::now();
  const int count = static_cast<int>(block);
  for (int peer = 0; peer < size; ++peer) {
    if (peer == rank) continue;
    requests.emplace_back();
    MPI_Irecv(recv + peer * block, count, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_SELF, &requests.back());
  }
  for (int peer = 0; peer < size; ++peer) {
    if (peer == rank) continue;
    requests.emplace_back();
    MPI_Isend(send + peer * block, count, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_SELF, &requests.back());
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  return us_since(start);
}

struct Options {
  std::string algorithm_name, topology_spec, hostfile, calibration_path;
  int np = 0;
  std::size_t block_bytes = 16;
  std::vector<int> ranks{0};
  int walks = 20;
};

// Measures one rank; false (with a message) when its plan fails.
bool measure_rank(const Options& options, const Problem& problem, const Algorithm& algorithm, double choose_us,
                  int rank, nlohmann::json& out) {
  const std::size_t buffer_bytes = static_cast<std::size_t>(problem.size) * options.block_bytes;
  const std::size_t heap_before = heap_in_use();
  auto start = Clock::now();
  exec::ExecutionPlan plan;
  double schedule_us = 0.0, lower_us = 0.0;
  std::size_t sends = 0, receives = 0;
  {
    const RankSchedule schedule = algorithm.build(problem, rank);
    schedule_us = us_since(start);
    start = Clock::now();
    if (auto failure = exec::build_execution_plan(schedule, buffer_bytes, buffer_bytes, plan)) {
      std::cerr << "topocoll-walk-cost: rank " << rank << "'s " << algorithm.name
                << " schedule is invalid: " << failure->message << '\n';
      return false;
    }
    lower_us = us_since(start);
  }  // (the schedule freed: the plan is what a repeated call keeps)
  const std::size_t heap_after = heap_in_use();
  const std::size_t plan_bytes = heap_after > heap_before ? heap_after - heap_before : 0;
  for (const exec::PlannedRound& round : plan.rounds) {
    sends += round.sends.size();
    receives += round.recvs.size();
  }
  send_to_nobody(plan);
  // The caller's buffers, touched as a program's would be; the scratch the executor's call takes.
  std::vector<std::byte> send(buffer_bytes, std::byte{1}), recv(buffer_bytes), scratch(plan.scratch_bytes);
  const exec::ByteBuffers buffers{send.data(), recv.data(), scratch.data()};
  std::vector<double> walk_us;
  for (int walk = 0; walk < options.walks; ++walk) {
    start = Clock::now();
    if (auto failure = exec::execute_plan(plan, buffers, MPI_COMM_SELF, 0, exec::ExecutionSettings{})) {
      std::cerr << "topocoll-walk-cost: rank " << rank << "'s walk failed: " << failure->message << '\n';
      return false;
    }
    walk_us.push_back(us_since(start));
  }
  std::vector<double> bare_us;
  for (int walk = 0; walk < options.walks; ++walk) {
    bare_us.push_back(bare_loop_us(send.data(), recv.data(), options.block_bytes, problem.size, rank));
  }
  const double first_walk_us = walk_us.front();
  walk_us.erase(walk_us.begin());
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  out = {{"p", problem.size},
         {"block_bytes", options.block_bytes},
         {"algorithm", algorithm.name},
         {"rank", rank},
         {"rounds", plan.rounds.size()},
         {"sends", sends},
         {"receives", receives},
         {"choose_us", choose_us},
         {"rank_schedule_us", schedule_us},
         {"execution_plan_us", lower_us},
         {"first_walk_us", first_walk_us},
         {"first_call_us", choose_us + schedule_us + lower_us + first_walk_us},
         {"repeated_walk_us", *bench::median(walk_us)},
         {"bare_loop_us", *bench::median(bare_us)},
         {"plan_bytes", plan_bytes},
         {"peak_rss_kib", usage.ru_maxrss}};
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "topocoll-walk-cost: the library's own work for one rank's MPI_Alltoall at any number of ranks (its peers "
      "MPI_PROC_NULL), first call and repeated call"};
  Options options;
  app.add_option("--algorithm,-a", options.algorithm_name, "alltoall algorithm (topocoll-plan --list), or auto")
      ->required();
  app.add_option("--topology,-t", options.topology_spec,
                 "clusters:N1,N2,..., flat:N, or a topology file with its hostfile (as topocoll-plan takes them)")
      ->required();
  app.add_option("--hostfile", options.hostfile, "a topology file's hostfile (default: NAME.hosts)");
  app.add_option("--np", options.np, "ranks, with a topology file (default: one per hostfile line)")
      ->check(CLI::PositiveNumber);
  app.add_option("--calibration,-c", options.calibration_path, "auto: the machine's calibration file");
  app.add_option("--block-bytes,-b", options.block_bytes, "bytes of each block")
      ->check(CLI::Range(std::size_t{0}, std::size_t{1} << 30))
      ->capture_default_str();
  app.add_option("--rank", options.ranks, "the ranks measured, one after another (default 0)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--walks", options.walks, "walks of the plan per rank: the first call's, then the repeated ones")
      ->check(CLI::Range(2, 1000000))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  tools::PlanMachine machine;
  try {
    machine = tools::load_plan_machine(options.topology_spec, options.hostfile, options.np);
  } catch (const std::exception& e) {
    std::cerr << "topocoll-walk-cost: " << e.what() << '\n';
    return 2;
  }
  const int size = machine.topology.size();
  for (const int rank : options.ranks) {
    if (rank >= size) {
      std::cerr << "topocoll-walk-cost: --rank " << rank << " is not a rank of " << options.topology_spec << " ("
                << size << " ranks)\n";
      return 2;
    }
  }
  if (static_cast<double>(size) * static_cast<double>(options.block_bytes) > double(std::size_t{1} << 32)) {
    std::cerr << "topocoll-walk-cost: " << size << " blocks of " << options.block_bytes
              << " bytes take more than 4 GiB per buffer\n";
    return 2;
  }
  Problem problem{size, options.block_bytes, &machine.topology, AlgorithmKnobs{}};
  double choose_us = 0.0;
  std::string name = options.algorithm_name;
  if (name == "auto") {
    std::string why = "--algorithm auto needs --calibration FILE";
    std::optional<Calibration> calibration;
    if (options.calibration_path.empty() || !(calibration = load_calibration(options.calibration_path, &why))) {
      std::cerr << "topocoll-walk-cost: " << why << '\n';
      return 2;
    }
    const auto start = Clock::now();
    const AutoRun chosen = choose_algorithm(problem, *calibration);
    choose_us = us_since(start);
    name = chosen.algorithm;
    problem.knobs = chosen.knobs;
  }
  const Algorithm* algorithm = find_algorithm(Operation::alltoall, name);
  if (algorithm == nullptr || !algorithm->has_schedule()) {
    std::cerr << "topocoll-walk-cost: '" << name
              << "' is not an alltoall algorithm with a schedule (known: " << algorithm_names(Operation::alltoall)
              << ")\n";
    return 2;
  }
  if (const Applicability fits = algorithm->supports(problem); !fits.ok) {
    std::cerr << "topocoll-walk-cost: " << name << " does not apply: " << fits.reason << '\n';
    return 2;
  }
  MPI_Init(&argc, &argv);
  // The first rank once untimed: the process's own first use (code paged in, the heap grown,
  // MPI's first requests) is then charged to no rank.
  nlohmann::json warm_up;
  int rc = measure_rank(options, problem, *algorithm, choose_us, options.ranks.front(), warm_up) ? 0 : 1;
  for (const int rank : options.ranks) {
    if (rc != 0) break;
    nlohmann::json out;
    if (!measure_rank(options, problem, *algorithm, choose_us, rank, out)) rc = 1;
    if (rc == 0) std::cout << out.dump() << '\n';
  }
  MPI_Finalize();
  return rc;
}
