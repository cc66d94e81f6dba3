// One probe of every class of bad input the README lists, under MPI_ERRORS_RETURN, each
// followed by a correct call on the same communicator: the bad call returns its error class
// and writes nothing (the receive buffer keeps its canaries, the guard bytes around it stay),
// and the correct call after it matches MPI_Alltoall and writes nothing outside the buffer.
// A probe whose ranks disagree (rank 0 passes 4 ints per block, the others 3) runs on every
// rank; the others fail on each rank alone.
#include <functional>
#include <string>
#include <vector>

#include "mpi_test_support.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {
namespace {

constexpr int kCount = 4;
constexpr std::size_t kGuard = 16;        // ints of guard on each side of the receive buffer
constexpr int kGuardValue = 0x5A5A5A5A;

// A receive buffer of p blocks of kCount ints with guards on each side.
class GuardedBuffer {
 public:
  explicit GuardedBuffer(int p) : storage_(kGuard + static_cast<std::size_t>(p) * kCount + kGuard, kGuardValue) {
    reset();
  }
  int* data() { return storage_.data() + kGuard; }
  std::vector<int> contents() const {
    return {storage_.begin() + kGuard, storage_.end() - static_cast<std::ptrdiff_t>(kGuard)};
  }
  void reset() { std::fill(storage_.begin() + kGuard, storage_.end() - static_cast<std::ptrdiff_t>(kGuard), kCanary); }
  bool guards_intact() const {
    for (std::size_t i = 0; i < kGuard; ++i) {
      if (storage_[i] != kGuardValue || storage_[storage_.size() - 1 - i] != kGuardValue) return false;
    }
    return true;
  }

 private:
  std::vector<int> storage_;
};

struct Probe {
  std::string what;
  int expected_class;
  // The bad call. When the ranks disagree, some fail and some may not: `rank_zero_only` says the
  // error class is checked on rank 0 alone, and the receive buffer only for its guards.
  std::function<int(MPI_Comm, const std::vector<int>& send, GuardedBuffer& recv)> call;
  bool rank_zero_only = false;
};

AlltoallOptions with(const std::string& algorithm) {
  AlltoallOptions options;
  options.algorithm = algorithm;
  return options;
}

std::vector<Probe> probes(int p) {
  std::vector<Probe> list;
  auto plain = [](AlltoallOptions options, int sendcount = kCount, int recvcount = kCount,
                  MPI_Datatype sendtype = MPI_INT, MPI_Datatype recvtype = MPI_INT) {
    return [=](MPI_Comm comm, const std::vector<int>& send, GuardedBuffer& recv) {
      return alltoall(send.data(), sendcount, sendtype, recv.data(), recvcount, recvtype, comm, options);
    };
  };
  list.push_back({"negative count", MPI_ERR_COUNT, plain(with("pairwise"), -1)});
  list.push_back({"null send buffer", MPI_ERR_BUFFER, [](MPI_Comm comm, const std::vector<int>&, GuardedBuffer& recv) {
                    return alltoall(nullptr, kCount, MPI_INT, recv.data(), kCount, MPI_INT, comm, with("direct"));
                  }});
  list.push_back({"MPI_IN_PLACE as the receive buffer", MPI_ERR_BUFFER,
                  [](MPI_Comm comm, const std::vector<int>& send, GuardedBuffer&) {
                    return alltoall(send.data(), kCount, MPI_INT, MPI_IN_PLACE, kCount, MPI_INT, comm, with("shift"));
                  }});
  list.push_back({"unknown algorithm", MPI_ERR_ARG, plain(with("no-such-algorithm"))});
  list.push_back({"algorithm name of 1 MB", MPI_ERR_ARG, plain(with(std::string(1 << 20, 'x')))});
  {
    AlltoallOptions options = with("group-shuffle");
    options.group_shuffle.group_width = 0;
    list.push_back({"algorithm that does not apply", MPI_ERR_ARG, plain(options)});
  }
  {
    AlltoallOptions options = with("direct");
    options.max_requests = -1;
    list.push_back({"bad option", MPI_ERR_ARG, plain(options)});
  }
  list.push_back({"null datatype", MPI_ERR_TYPE, plain(with("bruck"), kCount, kCount, MPI_DATATYPE_NULL)});
  list.push_back({"type signatures that differ", MPI_ERR_TYPE, plain(with("direct"), kCount - 1, kCount)});
  list.push_back({"receive count too small", MPI_ERR_TRUNCATE, plain(with("direct"), kCount, kCount - 1)});
  list.push_back({"count x type size past the address space", MPI_ERR_COUNT,
                  [](MPI_Comm comm, const std::vector<int>& send, GuardedBuffer& recv) {
                    MPI_Datatype gigabyte = MPI_DATATYPE_NULL, huge = MPI_DATATYPE_NULL;
                    MPI_Type_contiguous(1 << 30, MPI_BYTE, &gigabyte);
                    MPI_Type_contiguous(16, gigabyte, &huge);
                    MPI_Type_commit(&huge);
                    const int rc = alltoall(send.data(), 1 << 30, huge, recv.data(), 1 << 30, huge, comm, with("direct"));
                    MPI_Type_free(&huge);
                    MPI_Type_free(&gigabyte);
                    return rc;
                  }});
  {
    AlltoallOptions options = with("lg");
    options.topology = "clusters:1e999";
    list.push_back({"topology shorthand that does not parse", MPI_ERR_ARG, plain(options)});
    options.topology = "/nonexistent/topology.json";
    list.push_back({"topology file that does not exist", MPI_ERR_ARG, plain(options)});
    options.topology = "clusters:1," + std::to_string(p);  // one rank too many
    list.push_back({"topology of another size", MPI_ERR_ARG, plain(options)});
  }
  {
    AlltoallOptions options = with("auto");
    options.calibration = "/nonexistent/machine.calibration.json";
    list.push_back({"calibration file that does not exist", MPI_ERR_ARG, plain(options)});
  }
  if (p > 1) {
    // Rank 0 receives blocks shorter than it expects (the others longer ones: MPI_ERR_TRUNCATE).
    list.push_back({"ranks that disagree on the block size", MPI_ERR_COUNT,
                    [](MPI_Comm comm, const std::vector<int>& send, GuardedBuffer& recv) {
                      const int count = rank_in(comm) == 0 ? kCount : kCount - 1;
                      return alltoall(send.data(), count, MPI_INT, recv.data(), count, MPI_INT, comm, with("pairwise"));
                    },
                    true});
  }
  return list;
}

class BadInputProbe : public ErrorsReturnTest {};

TEST_F(BadInputProbe, EveryClassFailsCleanlyAndTheNextCallIsRight) {
  const int p = size_of(comm_);
  const int rank = rank_in(comm_);
  const std::vector<int> send = make_send_blocks(comm_, kCount);
  const std::vector<int> expected = expected_receive_blocks(comm_, kCount);
  const std::vector<std::string> correct_algorithms = {"direct", "pairwise", "bruck", "shift"};
  GuardedBuffer recv(p);
  std::size_t n = 0;
  for (const Probe& probe : probes(p)) {
    recv.reset();
    const int rc = probe.call(comm_, send, recv);
    int error_class = MPI_SUCCESS;
    MPI_Error_class(rc, &error_class);
    if (!probe.rank_zero_only || rank == 0) {
      EXPECT_EQ(error_class, probe.expected_class) << probe.what << ": " << topocoll_error_message();
      EXPECT_NE(std::string(topocoll_error_message()), "") << probe.what;
    }
    EXPECT_TRUE(recv.guards_intact()) << probe.what << ": a guard byte was written";
    if (!probe.rank_zero_only) {
      EXPECT_TRUE(same_elements(recv.contents(), std::vector<int>(recv.contents().size(), kCanary), kCount))
          << probe.what << ": the receive buffer was written";
    }
    // A correct call on the same communicator, through another algorithm each time.
    recv.reset();
    const std::string algorithm = correct_algorithms[n++ % correct_algorithms.size()];
    EXPECT_EQ(alltoall(send.data(), kCount, MPI_INT, recv.data(), kCount, MPI_INT, comm_, with(algorithm)),
              MPI_SUCCESS)
        << "after " << probe.what << ": " << topocoll_error_message();
    EXPECT_TRUE(same_elements(recv.contents(), expected, kCount)) << algorithm << " after " << probe.what;
    EXPECT_TRUE(recv.guards_intact()) << algorithm << " after " << probe.what << ": a guard byte was written";
  }
  EXPECT_GE(n, 15u);
}

}  // namespace
}  // namespace topocoll::testing
