#include "exec/alltoallv_checks.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace topocoll::exec {

namespace {

MaybeFailure check_arrays(const int* counts, const int* displs, int size, const char* side) {
  if (counts == nullptr || displs == nullptr) {
    return Failure{MPI_ERR_ARG, std::string("the ") + side + " counts or displacements array is null"};
  }
  for (int q = 0; q < size; ++q) {
    if (counts[q] < 0) {
      return Failure{MPI_ERR_COUNT, std::string(side) + " count " + std::to_string(q) + " is negative (" +
                                        std::to_string(counts[q]) + ")"};
    }
    if (displs[q] < 0) {
      return Failure{MPI_ERR_ARG, std::string(side) + " displacement " + std::to_string(q) + " is negative (" +
                                      std::to_string(displs[q]) + ")"};
    }
  }
  return std::nullopt;
}

// The byte view of one side: the user's bytes when the type is plain, packed blocks otherwise.
// MPI_ERR_COUNT when a block or the side's bytes exceed the address space.
MaybeFailure layout_of(const int* counts, const int* displs, int size, const DatatypeLayout& type, bool force_staged,
                       const char* count_name, SideLayout& side) {
  side = SideLayout{};
  side.staged = force_staged || !type.plain_bytes;
  constexpr auto kLargest = static_cast<std::size_t>(std::numeric_limits<MPI_Aint>::max());
  for (int q = 0; q < size; ++q) {
    std::size_t bytes = 0;
    if (auto failure = checked_bytes(static_cast<std::size_t>(counts[q]), type.size, count_name, bytes, q)) {
      return failure;
    }
    const std::size_t offset = side.staged ? side.total : static_cast<std::size_t>(displs[q]) * type.extent;
    if (offset > kLargest || bytes > kLargest - offset) {
      return Failure{MPI_ERR_COUNT, "the blocks of " + std::string(count_name) + "s 0 to " + std::to_string(q) +
                                        " reach past the address space"};
    }
    side.offset.push_back(offset);
    side.bytes.push_back(bytes);
    side.total = side.staged ? side.total + bytes : std::max(side.total, offset + bytes);
  }
  return std::nullopt;
}

// The element slots (displacement .. displacement + count, in extents) each receive block covers:
// for a packed receive type whose elements do not reach past their extent, two blocks write a
// common byte exactly when their slots meet.
SideLayout element_slots(const int* counts, const int* displs, int size) {
  SideLayout slots;
  for (int q = 0; q < size; ++q) {
    slots.offset.push_back(static_cast<std::size_t>(displs[q]));
    slots.bytes.push_back(static_cast<std::size_t>(counts[q]));
  }
  return slots;
}

MaybeFailure check_no_overlap(const SideLayout& recv) {
  std::vector<int> order(recv.offset.size());
  for (std::size_t q = 0; q < order.size(); ++q) order[q] = static_cast<int>(q);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return recv.offset[a] < recv.offset[b]; });
  std::size_t end = 0;
  int last = -1;
  for (int q : order) {
    if (recv.bytes[q] == 0) continue;
    if (last >= 0 && recv.offset[q] < end) {
      return Failure{MPI_ERR_ARG, "the receive blocks from ranks " + std::to_string(last) + " and " +
                                      std::to_string(q) + " overlap in the receive buffer"};
    }
    end = recv.offset[q] + recv.bytes[q];
    last = q;
  }
  return std::nullopt;
}

}  // namespace

MaybeFailure check_alltoallv(const AlltoallvArguments& a, const AlltoallOptions& options, CheckedAlltoallv& checked) {
  CheckedAlltoall& c = checked.common;
  int size = 0;
  if (auto failure = check_communicator(a.comm, size)) return failure;
  if (auto failure = check_algorithm_and_options(options, c)) return failure;
  MPI_Comm_rank(a.comm, &checked.rank);
  c.in_place = a.sendbuf == MPI_IN_PLACE;
  if (a.recvbuf == MPI_IN_PLACE) return Failure{MPI_ERR_BUFFER, "MPI_IN_PLACE is only valid as the send buffer"};
  if (auto failure = check_arrays(a.recvcounts, a.rdispls, size, "receive")) return failure;
  if (!c.in_place) {
    if (auto failure = check_arrays(a.sendcounts, a.sdispls, size, "send")) return failure;
  }
  if (auto failure = describe_datatype(a.recvtype, "receive type", c.recv_layout)) return failure;
  if (!c.in_place) {
    if (auto failure = describe_datatype(a.sendtype, "send type", c.send_layout)) return failure;
  }

  int recv_elements = 0, send_elements = 0;
  for (int q = 0; q < size; ++q) {
    recv_elements = std::max(recv_elements, a.recvcounts[q]);
    if (!c.in_place) send_elements = std::max(send_elements, a.sendcounts[q]);
  }
  if (auto failure = check_buffer(a.recvbuf, recv_elements, c.recv_layout, "receive buffer")) return failure;
  if (!c.in_place) {
    if (auto failure = check_buffer(a.sendbuf, send_elements, c.send_layout, "send buffer")) return failure;
  }

  if (auto failure = layout_of(a.recvcounts, a.rdispls, size, c.recv_layout, false, "receive count", checked.recv)) {
    return failure;
  }
  if (auto failure = c.in_place
                         ? layout_of(a.recvcounts, a.rdispls, size, c.recv_layout, true, "receive count", checked.send)
                         : layout_of(a.sendcounts, a.sdispls, size, c.send_layout, false, "send count", checked.send)) {
    return failure;
  }
  if (!checked.recv.staged) {
    if (auto failure = check_no_overlap(checked.recv)) return failure;
  } else if (c.recv_layout.size > 0 && c.recv_layout.true_lb >= 0 &&
             c.recv_layout.true_lb + c.recv_layout.true_extent <= c.recv_layout.extent) {
    if (auto failure = check_no_overlap(element_slots(a.recvcounts, a.rdispls, size))) return failure;
  }
  const std::size_t to_self = checked.send.bytes[checked.rank], from_self = checked.recv.bytes[checked.rank];
  if (to_self != from_self) {
    return Failure{to_self > from_self ? MPI_ERR_TRUNCATE : MPI_ERR_TYPE,
                   "the block this rank sends itself has " + std::to_string(to_self) +
                       " bytes but the receive count makes room for " + std::to_string(from_self) +
                       " (send and receive type signatures differ)"};
  }
  c.problem = Problem{size, 0, nullptr, knobs_of(options)};
  return std::nullopt;
}

}  // namespace topocoll::exec
