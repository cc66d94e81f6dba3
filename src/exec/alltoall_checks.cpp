// The argument checks of alltoall, in the order a reader would ask: communicator, algorithm
// and options, counts, datatypes, buffers, matching block sizes, applicability.
#include "exec/alltoall_checks.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "exec/copy_cost.hpp"

namespace topocoll::exec {


MaybeFailure check_communicator(MPI_Comm comm, int& size) {
  if (comm == MPI_COMM_NULL) return Failure{MPI_ERR_COMM, "the communicator is MPI_COMM_NULL"};
  int is_inter = 0;
  if (MPI_Comm_test_inter(comm, &is_inter) != MPI_SUCCESS) {
    return Failure{MPI_ERR_COMM, "the communicator is not valid"};
  }
  if (is_inter) return Failure{MPI_ERR_COMM, "intercommunicators are not supported"};
  if (MPI_Comm_size(comm, &size) != MPI_SUCCESS) return Failure{MPI_ERR_COMM, "the communicator is not valid"};
  return std::nullopt;
}

MaybeFailure check_algorithm_and_options(const AlltoallOptions& options, CheckedAlltoall& checked) {
  checked.auto_select = options.algorithm == "auto";
  checked.algorithm = checked.auto_select ? nullptr : find_algorithm(Operation::alltoall, options.algorithm);
  if (checked.algorithm == nullptr && !checked.auto_select) {
    return Failure{MPI_ERR_ARG, "unknown algorithm '" + excerpt_of(options.algorithm) +
                                    "'; valid names: " + algorithm_names(Operation::alltoall) + ", auto"};
  }
  checked.native = checked.algorithm != nullptr && !checked.algorithm->has_schedule();
  if (checked.native && checked.algorithm->name != "native") {
    return Failure{MPI_ERR_ARG,
                   "algorithm '" + excerpt_of(options.algorithm) + "' has no schedule the executor can run"};
  }
  if (options.stripes < 0) {
    return Failure{MPI_ERR_ARG, "stripes must be 0 (overlap: one message per block; auto: chosen by the model) or "
                                "positive, got " + std::to_string(options.stripes)};
  }
  if (options.max_requests < 0) {
    return Failure{MPI_ERR_ARG, "max_requests must be 0 (no bound) or positive, got " +
                                    std::to_string(options.max_requests)};
  }
  if (!(options.copy_bandwidth >= 0.0) || std::isinf(options.copy_bandwidth)) {
    return Failure{MPI_ERR_ARG, "copy_bandwidth must be 0 (default) or a positive number of bytes per second"};
  }
  checked.settings.max_requests = options.max_requests;
  checked.settings.copy_bandwidth = options.copy_bandwidth > 0.0 ? options.copy_bandwidth : kDefaultCopyBandwidth;
  return std::nullopt;
}

MaybeFailure check_count(int count, const char* role) {
  if (count < 0) return Failure{MPI_ERR_COUNT, std::string(role) + " is negative (" + std::to_string(count) + ")"};
  return std::nullopt;
}

// A null buffer is an error unless the datatype places its data at absolute addresses
// (a buffer of MPI_BOTTOM, which is null in Open MPI and MPICH).
MaybeFailure check_buffer(const void* buffer, int count, const DatatypeLayout& layout, const char* role) {
  if (buffer == nullptr && count > 0 && layout.size > 0 && layout.true_lb == 0) {
    return Failure{MPI_ERR_BUFFER, std::string("the ") + role + " is null but its count is " + std::to_string(count)};
  }
  return std::nullopt;
}

namespace {

MaybeFailure check_block_sizes(int sendcount, const DatatypeLayout& send, int recvcount,
                               const DatatypeLayout& recv, int size, CheckedAlltoall& checked) {
  std::size_t sent = 0, received = 0;
  if (auto failure = checked_bytes(static_cast<std::size_t>(sendcount), send.size, "the send count", sent)) {
    return failure;
  }
  if (auto failure = checked_bytes(static_cast<std::size_t>(recvcount), recv.size, "the receive count", received)) {
    return failure;
  }
  const std::string detail = " (sendcount * size(sendtype) = " + std::to_string(sent) +
                             " bytes, recvcount * size(recvtype) = " + std::to_string(received) + " bytes)";
  if (sent > received) return Failure{MPI_ERR_TRUNCATE, "each block sent is larger than the block received" + detail};
  if (sent < received) return Failure{MPI_ERR_TYPE, "the send and receive type signatures differ" + detail};
  if (received > std::numeric_limits<std::size_t>::max() / static_cast<std::size_t>(size) ||
      received * static_cast<std::size_t>(size) > static_cast<std::size_t>(std::numeric_limits<MPI_Aint>::max())) {
    return Failure{MPI_ERR_COUNT, "the receive buffer would exceed the address space" + detail};
  }
  checked.block_bytes = received;
  return std::nullopt;
}

}  // namespace

AlgorithmKnobs knobs_of(const AlltoallOptions& options) {
  AlgorithmKnobs knobs;
  knobs.group_width = options.group_width;
  knobs.max_scratch_bytes = options.max_scratch_bytes;
  knobs.segment_bytes = options.segment_bytes;
  knobs.stripes = options.stripes;
  return knobs;
}

MaybeFailure check_alltoall(const AlltoallArguments& a, const AlltoallOptions& options, CheckedAlltoall& checked) {
  int size = 0;
  if (auto failure = check_communicator(a.comm, size)) return failure;
  if (auto failure = check_algorithm_and_options(options, checked)) return failure;

  checked.in_place = a.sendbuf == MPI_IN_PLACE;
  if (auto failure = check_count(a.recvcount, "the receive count")) return failure;
  if (!checked.in_place) {
    if (auto failure = check_count(a.sendcount, "the send count")) return failure;
  }
  if (auto failure = describe_datatype(a.recvtype, "receive type", checked.recv_layout)) return failure;
  if (!checked.in_place) {
    if (auto failure = describe_datatype(a.sendtype, "send type", checked.send_layout)) return failure;
  }

  if (a.recvbuf == MPI_IN_PLACE) {
    return Failure{MPI_ERR_BUFFER, "MPI_IN_PLACE is only valid as the send buffer"};
  }
  if (auto failure = check_buffer(a.recvbuf, a.recvcount, checked.recv_layout, "receive buffer")) return failure;
  if (!checked.in_place) {
    if (auto failure = check_buffer(a.sendbuf, a.sendcount, checked.send_layout, "send buffer")) return failure;
    if (a.sendbuf == a.recvbuf && a.sendbuf != nullptr && a.recvcount > 0) {
      return Failure{MPI_ERR_BUFFER, "the send and receive buffers are the same; pass MPI_IN_PLACE as the send buffer"};
    }
  }

  const int sendcount = checked.in_place ? a.recvcount : a.sendcount;
  const DatatypeLayout& send_layout = checked.in_place ? checked.recv_layout : checked.send_layout;
  if (auto failure = check_block_sizes(sendcount, send_layout, a.recvcount, checked.recv_layout, size, checked)) {
    return failure;
  }

  checked.problem = Problem{size, checked.block_bytes, nullptr, knobs_of(options)};
  // Topology-aware algorithms are checked once the topology is known (that takes
  // communication); the others now.
  if (checked.algorithm != nullptr && checked.algorithm->supports != nullptr && !checked.algorithm->needs_topology) {
    const Applicability applicability = checked.algorithm->supports(checked.problem);
    if (!applicability.ok) {
      return Failure{MPI_ERR_ARG, "algorithm '" + options.algorithm + "' does not apply: " + applicability.reason};
    }
  }
  return std::nullopt;
}

}  // namespace topocoll::exec
