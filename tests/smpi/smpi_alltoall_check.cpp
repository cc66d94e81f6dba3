// Simulated checks under SMPI: every algorithm of the registry, byte for byte against SMPI's
// own MPI_Alltoall, for 0, 1 and 1000 ints per block; a strided datatype and MPI_IN_PLACE;
// alltoallv and alltoallw (a datatype per peer) against SMPI's own;
// one rank's bad arguments (it takes part, its peers never wait or take wrong data); and that local copies cost simulated time (copy_bandwidth) even with computation not
// simulated. Every verdict is agreed by all ranks; rank 0 prints "N passed, M failed" and
// every rank returns non-zero when anything failed.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "check_tally.hpp"
#include "exec/topology_discovery.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace {

constexpr int kCanary = -559038737;

int cell_value(int source, int destination, std::size_t index) {
  const std::uint32_t mixed = static_cast<std::uint32_t>(source) * 16777619u +
                              static_cast<std::uint32_t>(destination) * 65599u +
                              static_cast<std::uint32_t>(index) * 3u + 1u;
  return static_cast<int>(mixed & 0x7fffffffu);
}

std::vector<int> send_blocks(int rank, int p, int count) {
  std::vector<int> blocks(static_cast<std::size_t>(p) * static_cast<std::size_t>(count));
  for (int d = 0; d < p; ++d) {
    for (int i = 0; i < count; ++i) blocks[static_cast<std::size_t>(d * count + i)] = cell_value(rank, d, i);
  }
  return blocks;
}

// The topology given on the command line (--topology SPEC), for topology-aware algorithms.
std::string g_topology;  // set once in main, before any simulated work

// Whether `algorithm` applies to p ranks: a topology-aware one when a --topology is given and
// it supports the topology the library sees under it (`topology`, from the library's own
// discovery; the library then must run it: "does not apply" fails the check); rank 0 says why
// when not.
bool applies(const topocoll::Algorithm& algorithm, int p, std::size_t block_bytes, int rank,
             const topocoll::Topology* topology) {
  topocoll::Applicability applicability;
  if (algorithm.needs_topology) {
    applicability = !topology ? topocoll::Applicability{false, "no --topology given"}
                              : algorithm.supports(topocoll::Problem{p, block_bytes, topology, topocoll::AlgorithmKnobs{}});
  } else {
    applicability = algorithm.supports(topocoll::Problem{p, block_bytes, nullptr, topocoll::AlgorithmKnobs{}});
  }
  if (!applicability.ok && rank == 0) {
    std::printf("skipped: %s, %zu-byte blocks: %s\n", std::string(algorithm.name).c_str(), block_bytes,
                applicability.reason.c_str());
  }
  return applicability.ok;
}

topocoll::AlltoallOptions options_for(std::string_view algorithm) {
  topocoll::AlltoallOptions options;
  options.algorithm = std::string(algorithm);
  options.topology = g_topology;
  return options;
}

bool matches_native(std::string_view algorithm, int rank, int p, int count) {
  // One spare element keeps the buffers non-null for count 0: SMPI's own bruck alltoall
  // (chosen at 60 ranks) rejects a null buffer even when nothing is sent.
  std::vector<int> send = send_blocks(rank, p, count);
  send.push_back(kCanary);
  std::vector<int> reference(send.size(), kCanary);
  std::vector<int> result(send.size(), kCanary);
  MPI_Alltoall(send.data(), count, MPI_INT, reference.data(), count, MPI_INT, MPI_COMM_WORLD);
  const int rc = topocoll::alltoall(send.data(), count, MPI_INT, result.data(), count, MPI_INT, MPI_COMM_WORLD,
                                    options_for(algorithm));
  return rc == MPI_SUCCESS && result == reference;
}

// Alltoallv with sizes that differ per pair (some empty) against SMPI's own MPI_Alltoallv;
// receive blocks in reverse order with a gap after each. `scale` multiplies every count.
bool alltoallv_matches_native(std::string_view algorithm, int rank, int p, int scale = 1) {
  auto count_of = [scale](int src, int dst) { return (src + 2 * dst) % 4 == 0 ? 0 : scale * (1 + (3 * src + dst) % 50); };
  std::vector<int> sendcounts, sdispls, recvcounts(static_cast<std::size_t>(p)), rdispls(static_cast<std::size_t>(p));
  std::vector<int> send;
  for (int d = 0; d < p; ++d) {
    sendcounts.push_back(count_of(rank, d));
    sdispls.push_back(static_cast<int>(send.size()));
    for (int i = 0; i < sendcounts.back(); ++i) send.push_back(cell_value(rank, d, static_cast<std::size_t>(i)));
  }
  int at = 0;
  for (int s = p - 1; s >= 0; --s) {
    recvcounts[s] = count_of(s, rank);
    rdispls[s] = at;
    at += recvcounts[s] + 1;
  }
  send.push_back(kCanary);
  std::vector<int> reference(static_cast<std::size_t>(at) + 1, kCanary), result = reference;
  MPI_Alltoallv(send.data(), sendcounts.data(), sdispls.data(), MPI_INT, reference.data(), recvcounts.data(),
                rdispls.data(), MPI_INT, MPI_COMM_WORLD);
  const int rc = topocoll::alltoallv(send.data(), sendcounts.data(), sdispls.data(), MPI_INT, result.data(),
                                     recvcounts.data(), rdispls.data(), MPI_INT, MPI_COMM_WORLD,
                                     options_for(algorithm));
  return rc == MPI_SUCCESS && result == reference;
}

// Alltoallw against SMPI's own MPI_Alltoallw: the sizes of alltoallv_matches_native, at byte
// displacements, sent to odd peers as every other int of a spaced-out block (a strided type
// whose holes must not travel), to even ones as plain ints; received as plain ints.
bool alltoallw_matches_native(std::string_view algorithm, int rank, int p) {
  MPI_Datatype every_other = MPI_DATATYPE_NULL, strided = MPI_DATATYPE_NULL;
  MPI_Type_vector(1, 1, 2, MPI_INT, &every_other);
  MPI_Type_create_resized(every_other, 0, 2 * sizeof(int), &strided);
  MPI_Type_commit(&strided);
  auto count_of = [](int src, int dst) { return (src + 2 * dst) % 4 == 0 ? 0 : 1 + (3 * src + dst) % 50; };
  const auto as_bytes = [](std::size_t ints) { return static_cast<int>(ints * sizeof(int)); };
  std::vector<int> sendcounts, sdispls, recvcounts(static_cast<std::size_t>(p)), rdispls(static_cast<std::size_t>(p));
  std::vector<MPI_Datatype> sendtypes, recvtypes(static_cast<std::size_t>(p), MPI_INT);
  std::vector<int> send;
  for (int d = 0; d < p; ++d) {
    const bool spaced = d % 2 == 1;
    sendcounts.push_back(count_of(rank, d));
    sdispls.push_back(as_bytes(send.size()));
    sendtypes.push_back(spaced ? strided : MPI_INT);
    for (int i = 0; i < sendcounts.back(); ++i) {
      send.push_back(cell_value(rank, d, static_cast<std::size_t>(i)));
      if (spaced) send.push_back(kCanary);
    }
  }
  std::size_t at = 0;
  for (int s = p - 1; s >= 0; --s) {
    recvcounts[s] = count_of(s, rank);
    rdispls[s] = as_bytes(at);
    at += static_cast<std::size_t>(recvcounts[s]) + 1;
  }
  std::vector<int> reference(at + 1, kCanary), result = reference;
  MPI_Alltoallw(send.data(), sendcounts.data(), sdispls.data(), sendtypes.data(), reference.data(), recvcounts.data(),
                rdispls.data(), recvtypes.data(), MPI_COMM_WORLD);
  const int rc = topocoll::alltoallw(send.data(), sendcounts.data(), sdispls.data(), sendtypes.data(), result.data(),
                                     recvcounts.data(), rdispls.data(), recvtypes.data(), MPI_COMM_WORLD,
                                     options_for(algorithm));
  MPI_Type_free(&every_other);
  MPI_Type_free(&strided);
  return rc == MPI_SUCCESS && result == reference;
}

// Three ints at stride 2 per element, two elements per block; holes must keep the canary.
bool strided_matches_native(std::string_view algorithm, int rank, int p) {
  MPI_Datatype strided = MPI_DATATYPE_NULL;
  MPI_Type_vector(3, 1, 2, MPI_INT, &strided);
  MPI_Type_commit(&strided);
  const std::size_t ints = static_cast<std::size_t>(p) * 2 * 5;  // extent of one element: 5 ints
  std::vector<int> send(ints);
  for (std::size_t i = 0; i < ints; ++i) send[i] = cell_value(rank, static_cast<int>(i), i);
  std::vector<int> reference(ints, kCanary);
  std::vector<int> result(ints, kCanary);
  MPI_Alltoall(send.data(), 2, strided, reference.data(), 2, strided, MPI_COMM_WORLD);
  const int rc = topocoll::alltoall(send.data(), 2, strided, result.data(), 2, strided, MPI_COMM_WORLD,
                                    options_for(algorithm));
  MPI_Type_free(&strided);
  return rc == MPI_SUCCESS && result == reference;
}

bool in_place_matches_native(std::string_view algorithm, int rank, int p, int count) {
  std::vector<int> reference = send_blocks(rank, p, count);
  std::vector<int> result = reference;
  MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, reference.data(), count, MPI_INT, MPI_COMM_WORLD);
  const int rc = topocoll::alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, result.data(), count, MPI_INT,
                                    MPI_COMM_WORLD, options_for(algorithm));
  return rc == MPI_SUCCESS && result == reference;
}

// Rank 1 passes a null send buffer (alltoall) or a negative count (alltoallv) and its peers
// right arguments: rank 1 returns MPI_ERR_BUFFER or MPI_ERR_COUNT, having taken part (no peer
// waits); a peer that returns MPI_SUCCESS holds what MPI_Alltoall(v) gives, the others fail
// with MPI_ERR_COUNT or MPI_ERR_TRUNCATE; and the right call after it matches.
bool one_bad_rank_then_right(std::string_view algorithm, bool variable, int rank, int p) {
  constexpr int kCount = 10;
  const std::vector<int> send = send_blocks(rank, p, kCount);
  std::vector<int> counts(static_cast<std::size_t>(p), kCount), displs(static_cast<std::size_t>(p));
  for (int q = 0; q < p; ++q) displs[static_cast<std::size_t>(q)] = q * kCount;
  std::vector<int> reference(send.size(), kCanary), result(send.size(), kCanary);
  MPI_Alltoall(send.data(), kCount, MPI_INT, reference.data(), kCount, MPI_INT, MPI_COMM_WORLD);
  const bool bad = rank == 1;
  std::vector<int> send_counts = counts;
  if (bad) send_counts[0] = -1;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const int rc = variable ? topocoll::alltoallv(send.data(), send_counts.data(), displs.data(), MPI_INT, result.data(),
                                                counts.data(), displs.data(), MPI_INT, MPI_COMM_WORLD,
                                                options_for(algorithm))
                          : topocoll::alltoall(bad ? nullptr : send.data(), kCount, MPI_INT, result.data(), kCount,
                                               MPI_INT, MPI_COMM_WORLD, options_for(algorithm));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  int error_class = MPI_SUCCESS;
  MPI_Error_class(rc, &error_class);
  bool ok = false;
  if (bad) {
    ok = error_class == (variable ? MPI_ERR_COUNT : MPI_ERR_BUFFER);
  } else {
    ok = rc == MPI_SUCCESS ? result == reference : error_class == MPI_ERR_COUNT || error_class == MPI_ERR_TRUNCATE;
  }
  if (!ok) std::printf("  rank %d: class %d: %s\n", rank, error_class, topocoll_error_message());
  const bool after = variable ? alltoallv_matches_native(algorithm, rank, p) : matches_native(algorithm, rank, p, kCount);
  return ok && after;
}

double timed_direct(int rank, int p, int count, double copy_bandwidth) {
  const std::vector<int> send = send_blocks(rank, p, count);
  std::vector<int> result(send.size(), kCanary);
  topocoll::AlltoallOptions options = options_for("direct");
  options.copy_bandwidth = copy_bandwidth;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  topocoll::alltoall(send.data(), count, MPI_INT, result.data(), count, MPI_INT, MPI_COMM_WORLD, options);
  return MPI_Wtime() - start;
}

// With computation not simulated, only the executor's explicit charge makes a local copy
// cost time: at 1 MB/s, a rank's own 4000-byte block adds 4 ms to a direct alltoall.
bool local_copies_cost_simulated_time(int rank, int p) {
  const int count = 1000;
  const double copy_seconds = count * sizeof(int) / 1e6;
  const double fast = timed_direct(rank, p, count, 1e15);
  const double slow = timed_direct(rank, p, count, 1e6);
  const bool ok = slow - fast >= 0.99 * copy_seconds;
  if (!ok) std::printf("  rank %d: direct took %.6f s at 1 MB/s copies, %.6f s at 1e15 B/s\n", rank, slow, fast);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int p = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  Tally tally{rank};
  // Usage: smpi_alltoall_check [--topology SPEC]   (a shorthand or a topology file)
  if (argc == 3 && std::string(argv[1]) == "--topology") g_topology = argv[2];
  std::optional<topocoll::Topology> topology;
  if (!g_topology.empty()) {
    topology.emplace();
    if (const auto failure = topocoll::exec::discover_topology(MPI_COMM_WORLD, g_topology, *topology)) {
      if (rank == 0) std::printf("FAILED: the topology %s: %s\n", g_topology.c_str(), failure->message.c_str());
      MPI_Finalize();
      return 1;
    }
  }
  const topocoll::Topology* seen = topology ? &*topology : nullptr;

  for (const topocoll::Algorithm& algorithm : topocoll::algorithms_for(topocoll::Operation::alltoall)) {
    const std::string name(algorithm.name);
    for (const int count : {0, 1, 1000}) {
      if (!applies(algorithm, p, count * sizeof(int), rank, seen)) continue;
      tally.record(name + ", " + std::to_string(count) + " MPI_INT", matches_native(name, rank, p, count));
    }
    if (applies(algorithm, p, 6 * sizeof(int), rank, seen)) {
      tally.record(name + ", strided vector type", strided_matches_native(name, rank, p));
    }
    if (applies(algorithm, p, 10 * sizeof(int), rank, seen)) {
      tally.record(name + ", MPI_IN_PLACE", in_place_matches_native(name, rank, p, 10));
    }
    if (applies(algorithm, p, 10 * sizeof(int), rank, seen) && name != "bruck") {
      tally.record(name + ", alltoallv", alltoallv_matches_native(name, rank, p));
      tally.record(name + ", alltoallw", alltoallw_matches_native(name, rank, p));
    }
    if (p > 1 && algorithm.has_schedule() && applies(algorithm, p, 10 * sizeof(int), rank, seen)) {
      tally.record(name + ", one rank's bad arguments", one_bad_rank_then_right(name, false, rank, p));
    }
  }
  // liu (alltoallv only): small messages, and large ones that come in two parts.
  tally.record("liu, alltoallv", alltoallv_matches_native("liu", rank, p));
  tally.record("liu, alltoallv of large blocks", alltoallv_matches_native("liu", rank, p, 300));
  tally.record("liu, alltoallw", alltoallw_matches_native("liu", rank, p));
  tally.record("liu, alltoallv with one rank's bad arguments", one_bad_rank_then_right("liu", true, rank, p));
  tally.record("local copies are charged in simulated time", local_copies_cost_simulated_time(rank, p));

  if (rank == 0) std::printf("%d ranks: %d passed, %d failed\n", p, tally.passed, tally.failed);
  MPI_Finalize();
  return tally.failed == 0 ? 0 : 1;
}
