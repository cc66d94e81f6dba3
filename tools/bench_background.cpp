// The background job of topocoll-bench's busy network (bench_background.hpp).
#include "bench_background.hpp"

#include <algorithm>
#include <climits>
#include <iostream>
#include <string>
#include <vector>

#include "bench_buffers.hpp"
#include "exec/topology_discovery.hpp"

namespace topocoll::bench {

namespace {

constexpr int kStopTag = 7301;
constexpr int kExchangeTag = 7302;

#ifdef TOPOCOLL_SMPI
// In simulation the background's buffers are shared by all simulated ranks.
constexpr bool kSharedBuffers = true;
#else
constexpr bool kSharedBuffers = false;
#endif

int world_rank_of(MPI_Comm world) {
  int rank = 0;
  MPI_Comm_rank(world, &rank);
  return rank;
}

int world_size_of(MPI_Comm world) {
  int size = 0;
  MPI_Comm_size(world, &size);
  return size;
}

// The background's exchange: job.bytes to and from every rank in another group of the outermost
// level.
struct Exchange {
  std::vector<int> group;  // the outermost group of every background rank
  std::vector<int> order;  // the ranks dealt round-robin from the groups: A0 B0 A1 B1 ...
  int position = 0;        // this rank's place in `order`
  std::size_t bytes = 0;
};

// The background ranks in the order of their index inside their group, groups interleaved, so
// that the pairwise steps of an exchange between two equal groups alternate between steps where
// every rank sends to and receives from the other group and steps where none does: the load on
// the links between the groups is steady from the first step.
std::vector<int> interleaved(const std::vector<int>& group) {
  std::vector<int> index_in_group(group.size());
  std::vector<int> seen(group.size() + 1, 0);
  for (std::size_t r = 0; r < group.size(); ++r) index_in_group[r] = seen[group[r]]++;
  std::vector<int> order(group.size());
  for (std::size_t r = 0; r < group.size(); ++r) order[r] = static_cast<int>(r);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return index_in_group[a] < index_in_group[b]; });
  return order;
}

// Leaves `error` empty when the exchange can run.
Exchange plan_exchange(MPI_Comm background, const BackgroundJob& job, std::string& error) {
  Exchange exchange;
  exchange.bytes = job.bytes;
  int rank = 0;
  MPI_Comm_rank(background, &rank);
  Topology topology;
  if (auto failure = exec::discover_topology(background, job.topology, topology)) {
    error = "topology '" + job.topology + "': " + failure->message;
    return exchange;
  }
  if (job.bytes > static_cast<std::size_t>(INT_MAX)) {
    error = "--background-bytes " + std::to_string(job.bytes) + " exceeds an MPI count of bytes (2^31-1)";
    return exchange;
  }
  for (int r = 0; r < topology.size(); ++r) exchange.group.push_back(topology.group(r, 0));
  if (std::count(exchange.group.begin(), exchange.group.end(), exchange.group.front()) == topology.size()) {
    error = "the " + std::to_string(topology.size()) + " background ranks are all in one group of the topology's " +
            "outermost level ('" + topology.levels().front() + "'): there is nothing between groups to exchange";
    return exchange;
  }
  exchange.order = interleaved(exchange.group);
  exchange.position = static_cast<int>(std::find(exchange.order.begin(), exchange.order.end(), rank) -
                                       exchange.order.begin());
  return exchange;
}

// One exchange, as MPI libraries run a large all-to-all: q-1 pairwise steps over the q
// background ranks (in `order`), in step s a send to the rank s places on and a receive from the
// rank s places back (mod q), each skipped when the two are in the same group (both ends know
// it, so the skips match).
void exchange_once(MPI_Comm background, const Exchange& exchange, std::byte* send, std::byte* recv) {
  const int q = static_cast<int>(exchange.group.size());
  const int count = static_cast<int>(exchange.bytes);
  const int own = exchange.group[exchange.order[exchange.position]];
  for (int step = 1; step < q; ++step) {
    const int to = exchange.order[(exchange.position + step) % q];
    const int from = exchange.order[(exchange.position - step + q) % q];
    MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    if (exchange.group[from] != own) MPI_Irecv(recv, count, MPI_BYTE, from, kExchangeTag, background, &requests[0]);
    if (exchange.group[to] != own) MPI_Isend(send, count, MPI_BYTE, to, kExchangeTag, background, &requests[1]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  }
}

// Exchanges until world rank 0's stop arrives. The background's rank 0 watches for it, and each
// exchange starts with a broadcast of whether it has, so that all stop after the same one.
long exchange_until_stopped(MPI_Comm world, MPI_Comm background, const Exchange& exchange) {
  int rank = 0;
  MPI_Comm_rank(background, &rank);
  MessageBuffer send(exchange.bytes, kSharedBuffers);
  MessageBuffer recv(exchange.bytes, kSharedBuffers);
  int stop_word = 0;
  MPI_Request stop = MPI_REQUEST_NULL;
  if (rank == 0) MPI_Irecv(&stop_word, 1, MPI_INT, 0, kStopTag, world, &stop);
  long exchanges = 0;
  for (;;) {
    int stopped = 0;
    if (rank == 0) MPI_Test(&stop, &stopped, MPI_STATUS_IGNORE);
    MPI_Bcast(&stopped, 1, MPI_INT, 0, background);
    if (stopped != 0) break;
    exchange_once(background, exchange, send.data(), recv.data());
    ++exchanges;
  }
  return exchanges;
}

}  // namespace

int split_world(MPI_Comm world, const BackgroundJob& job, WorldPart& part, bool print) {
  const int size = world_size_of(world);
  if (job.ranks == 0) {
    part = {world, false};
    return 0;
  }
  if (job.ranks >= size || job.ranks < 2) {
    if (print) {
      std::cerr << "topocoll-bench: --background-ranks " << job.ranks << " of a world of " << size
                << " ranks: the background needs 2 ranks or more and must leave the measured job one or more\n";
    }
    return 2;
  }
  const bool background = world_rank_of(world) >= size - job.ranks;
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_split(world, background ? 1 : 0, world_rank_of(world), &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  part = {comm, background};
  return 0;
}

int start_background(MPI_Comm world, const WorldPart& part, const BackgroundJob& job) {
  std::string error;
  Exchange exchange;
  int background_rank = 0;
  if (part.background) {
    MPI_Comm_rank(part.comm, &background_rank);
    exchange = plan_exchange(part.comm, job, error);
  }
  const int ready = error.empty() ? 1 : 0;
  int all_ready = 0;
  MPI_Allreduce(&ready, &all_ready, 1, MPI_INT, MPI_MIN, world);
  if (all_ready == 0) {
    if (part.background && background_rank == 0) std::cerr << "topocoll-bench: background: " << error << '\n';
    return 2;
  }
  if (!part.background) return 0;
  const long exchanges = exchange_until_stopped(world, part.comm, exchange);
  if (background_rank == 0) {
    std::cerr << "# background: " << job.ranks << " ranks, " << job.bytes << " bytes per pair between groups, "
              << exchanges << " exchanges, stopped at " << MPI_Wtime() << " s\n";
  }
  return 0;
}

void stop_background(MPI_Comm world, const BackgroundJob& job) {
  if (job.ranks == 0 || world_rank_of(world) != 0) return;
  const int stop_word = 1;
  MPI_Send(&stop_word, 1, MPI_INT, world_size_of(world) - job.ranks, kStopTag, world);
}

}  // namespace topocoll::bench
