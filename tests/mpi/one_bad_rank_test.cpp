// One rank passes bad arguments (a negative count, a null buffer, MPI_IN_PLACE off the root, a
// root whose send and receive sizes differ) while its peers pass good ones, under every
// algorithm of every operation. The rule: the bad rank still takes part in the exchange
// (empty messages, tags taken) and returns its own error class, having written nothing; no
// rank waits forever; a peer that returns MPI_SUCCESS holds exactly what its senders sent (an
// empty message or a forwarded failure makes the others fail); and the correct call after it
// on the same communicator is right on every rank.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "mpi_test_support.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {
namespace {

constexpr int kRoot = 0;

enum class Fault { negative_count, null_buffer, in_place_off_root, root_sizes_differ };

struct FaultCase {
  Fault fault;
  const char* name;
  int expected_class;
  bool at_root;  // the bad rank is the root (rooted operations) or rank 1 (all)
};

// Ints in the block `source` sends `destination`: varied in the v forms.
int pair_count(Operation op, int source, int destination) {
  return is_variable(op) ? 1 + (source + 2 * destination) % 3 : 3;
}

// Every argument of one call of `op` at `rank`, built from pair_count and cell_value; a fault
// then spoils some of them.
struct Call {
  Operation op;
  int p, rank;
  std::vector<int> send, recv, send_counts, send_displs, recv_counts, recv_displs;
  const void* sendbuf = nullptr;
  void* recvbuf = nullptr;
  int sendcount = 0, recvcount = 0;

  Call(Operation operation, int size, int me) : op(operation), p(size), rank(me) {
    const bool rooted = is_rooted(op), scatter_like = flows_from_root(op);
    // The blocks this rank sends (to every peer, or to the root) and receives.
    for (int q = 0; q < p; ++q) {
      const bool sends_to_q = !rooted || (scatter_like ? rank == kRoot : q == kRoot);
      const bool receives_from_q = !rooted || (scatter_like ? q == kRoot : rank == kRoot);
      const int out = sends_to_q ? pair_count(op, rank, q) : 0, in = receives_from_q ? pair_count(op, q, rank) : 0;
      send_displs.push_back(static_cast<int>(send.size()));
      send_counts.push_back(out);
      for (int i = 0; i < out; ++i) send.push_back(cell_value(rank, q, static_cast<std::size_t>(i)));
      recv_displs.push_back(recv_counts.empty() ? 0 : recv_displs.back() + recv_counts.back());
      recv_counts.push_back(in);
    }
    recv.assign(static_cast<std::size_t>(recv_displs.back() + recv_counts.back()), kCanary);
    sendbuf = send.data();
    recvbuf = recv.data();
    sendcount = rooted && !scatter_like ? send_counts[kRoot] : pair_count(op, rank, (rank + 1) % p);
    recvcount = rooted && scatter_like ? recv_counts[kRoot] : pair_count(op, (rank + 1) % p, rank);
  }

  // What the fault changes at the bad rank: the side MPI reads there.
  void spoil(Fault fault) {
    const bool rooted = is_rooted(op), scatter_like = flows_from_root(op), root = rank == kRoot;
    const bool send_side_read = !rooted || (scatter_like == root);
    switch (fault) {
      case Fault::negative_count:
        if (!send_side_read) {
          recvcount = -1;
          recv_counts[(rank + 1) % p] = -1;
        } else {
          sendcount = -1;
          send_counts[(rank + 1) % p] = -1;
        }
        break;
      case Fault::null_buffer:
        if (send_side_read) sendbuf = nullptr;
        else recvbuf = nullptr;
        break;
      case Fault::in_place_off_root:
        if (scatter_like) recvbuf = MPI_IN_PLACE;
        else sendbuf = MPI_IN_PLACE;
        break;
      case Fault::root_sizes_differ:  // the root's own block: one int more on one side
        if (scatter_like) ++recvcount;
        else ++sendcount;
        break;
    }
  }

  int run(MPI_Comm comm, const CollectiveOptions& options) {
    switch (op) {
      case Operation::alltoall:
        return alltoall(sendbuf, sendcount, MPI_INT, recvbuf, recvcount, MPI_INT, comm, options);
      case Operation::alltoallv:
        return alltoallv(sendbuf, send_counts.data(), send_displs.data(), MPI_INT, recvbuf, recv_counts.data(),
                         recv_displs.data(), MPI_INT, comm, options);
      case Operation::scatter:
        return scatter(sendbuf, sendcount, MPI_INT, recvbuf, recvcount, MPI_INT, kRoot, comm, options);
      case Operation::gather:
        return gather(sendbuf, sendcount, MPI_INT, recvbuf, recvcount, MPI_INT, kRoot, comm, options);
      case Operation::scatterv:
        return scatterv(sendbuf, send_counts.data(), send_displs.data(), MPI_INT, recvbuf, recvcount, MPI_INT, kRoot,
                        comm, options);
      case Operation::gatherv:
        return gatherv(sendbuf, sendcount, MPI_INT, recvbuf, recv_counts.data(), recv_displs.data(), MPI_INT, kRoot,
                       comm, options);
    }
    return MPI_ERR_INTERN;
  }

  // The first element of the receive buffer that is not what its sender sent, if any.
  std::optional<std::string> wrong_element() const {
    for (int q = 0; q < p; ++q) {
      for (int i = 0; i < recv_counts[q]; ++i) {
        const int got = recv[static_cast<std::size_t>(recv_displs[q] + i)];
        if (got != cell_value(q, rank, static_cast<std::size_t>(i))) {
          return "element " + std::to_string(i) + " from rank " + std::to_string(q) + " is " + std::to_string(got);
        }
      }
    }
    return std::nullopt;
  }
};

std::vector<FaultCase> faults_of(Operation op) {
  std::vector<FaultCase> list{{Fault::negative_count, "a negative count", MPI_ERR_COUNT, false},
                              {Fault::null_buffer, "a null buffer", MPI_ERR_BUFFER, false}};
  if (!is_rooted(op)) return list;
  list.push_back({Fault::negative_count, "a negative count at the root", MPI_ERR_COUNT, true});
  list.push_back({Fault::null_buffer, "a null buffer at the root", MPI_ERR_BUFFER, true});
  list.push_back({Fault::in_place_off_root, "MPI_IN_PLACE off the root", MPI_ERR_BUFFER, false});
  if (!is_variable(op)) {
    list.push_back({Fault::root_sizes_differ, "a root whose send and receive sizes differ",
                    flows_from_root(op) ? MPI_ERR_TYPE : MPI_ERR_TRUNCATE, true});
  }
  return list;
}

int class_of(int rc) {
  int error_class = MPI_SUCCESS;
  MPI_Error_class(rc, &error_class);
  return error_class;
}

class OneBadRank : public ErrorsReturnTest, public ::testing::WithParamInterface<Operation> {
 protected:
  CollectiveOptions options_for(const Algorithm& algorithm) const {
    const int p = size_of(comm_);
    const std::string two_clusters = "clusters:" + std::to_string(p - p / 2) + "," + std::to_string(p / 2);
    return algorithm_on(std::string(algorithm.name), algorithm.needs_topology ? two_clusters : "");
  }

  // The good call everywhere, checked; false (on every rank) where the algorithm does not apply.
  bool right_call(const CollectiveOptions& options, const std::string& what) {
    const int p = size_of(comm_), rank = rank_in(comm_);
    Call call(GetParam(), p, rank);
    const int rc = call.run(comm_, options);
    const std::string message = rc == MPI_SUCCESS ? "" : topocoll_error_message();
    const int inapplicable_here = rc != MPI_SUCCESS && message.find("does not apply") != std::string::npos;
    int inapplicable = 0;
    MPI_Allreduce(&inapplicable_here, &inapplicable, 1, MPI_INT, MPI_MAX, comm_);
    if (inapplicable) return false;
    EXPECT_EQ(rc, MPI_SUCCESS) << what << ": " << message;
    const auto wrong = call.wrong_element();
    EXPECT_FALSE(wrong) << what << ": " << wrong.value_or("");
    return true;
  }
};

TEST_P(OneBadRank, TakesPartReturnsItsErrorAndLeavesLaterCallsRight) {
  const Operation op = GetParam();
  const int p = size_of(comm_), rank = rank_in(comm_);
  if (p < 2) GTEST_SKIP() << "one rank has no peers to leave waiting";
  for (const Algorithm& algorithm : algorithms_for(op)) {
    if (!algorithm.has_schedule()) continue;  // native: the MPI library's own behaviour
    const CollectiveOptions options = options_for(algorithm);
    const std::string name(algorithm.name);
    if (!right_call(options, name + ", before")) continue;
    for (const FaultCase& fault : faults_of(op)) {
      const std::string what = name + " " + std::string(to_string(op)) + " with " + fault.name;
      const int bad_rank = fault.at_root ? kRoot : 1;
      Call call(op, p, rank);
      if (rank == bad_rank) call.spoil(fault.fault);
      const int rc = call.run(comm_, options);
      if (rank == bad_rank) {
        EXPECT_EQ(class_of(rc), fault.expected_class) << what << ": " << topocoll_error_message();
        const bool untouched = std::all_of(call.recv.begin(), call.recv.end(), [](int v) { return v == kCanary; });
        EXPECT_TRUE(untouched) << what << ": the bad rank's receive buffer was written";
      } else if (rc == MPI_SUCCESS) {
        const auto wrong = call.wrong_element();
        EXPECT_FALSE(wrong) << what << ": rank " << rank << " returned MPI_SUCCESS with " << wrong.value_or("");
      } else {
        const int error_class = class_of(rc);
        EXPECT_TRUE(error_class == MPI_ERR_COUNT || error_class == MPI_ERR_TRUNCATE)
            << what << ": rank " << rank << " failed with class " << error_class << ": " << topocoll_error_message();
      }
      right_call(options, what + ", the call after");
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryOperation, OneBadRank,
                         ::testing::Values(Operation::alltoall, Operation::alltoallv, Operation::scatter,
                                           Operation::gather, Operation::scatterv, Operation::gatherv),
                         [](const ::testing::TestParamInfo<Operation>& info) {
                           return std::string(to_string(info.param));
                         });

}  // namespace
}  // namespace topocoll::testing
