// Bad input, on a communicator with MPI_ERRORS_RETURN: every case returns the documented
// error class, topocoll_error_message() names the problem, the receive buffer is untouched,
// and nothing is communicated (each rank fails on its own, so no rank waits for another).
// Also: the error handler is invoked, and "topocoll: ..." reaches stderr only when the
// handler is not MPI_ERRORS_RETURN.
#include <string>

#include "mpi_test_support.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {
namespace {

constexpr int kCount = 4;

class AlltoallErrors : public ErrorsReturnTest {
 protected:
  void SetUp() override {
    ErrorsReturnTest::SetUp();
    send_ = make_send_blocks(comm_, kCount);
    recv_.assign(send_.size(), kCanary);
  }

  // Checks the error class, that the message contains `phrase`, and that recv_ is untouched.
  void expect_error(int rc, int expected_class, const std::string& phrase) {
    int error_class = MPI_SUCCESS;
    MPI_Error_class(rc, &error_class);
    EXPECT_EQ(error_class, expected_class) << "return code " << rc;
    const std::string message = topocoll_error_message();
    EXPECT_NE(message.find(phrase), std::string::npos) << "message: '" << message << "'";
    EXPECT_TRUE(same_elements(recv_, std::vector<int>(recv_.size(), kCanary), kCount)) << "receive buffer touched";
  }

  AlltoallOptions options_for(const std::string& algorithm) const {
    AlltoallOptions options;
    options.algorithm = algorithm;
    return options;
  }

  int run(const AlltoallOptions& options, int sendcount = kCount, int recvcount = kCount,
          MPI_Datatype sendtype = MPI_INT, MPI_Datatype recvtype = MPI_INT) {
    return alltoall(send_.data(), sendcount, sendtype, recv_.data(), recvcount, recvtype, comm_, options);
  }

  std::vector<int> send_;
  std::vector<int> recv_;
};

TEST_F(AlltoallErrors, NegativeCounts) {
  expect_error(run(options_for("pairwise"), -1, kCount), MPI_ERR_COUNT, "send count is negative");
  expect_error(run(options_for("direct"), kCount, -3), MPI_ERR_COUNT, "receive count is negative");
}

TEST_F(AlltoallErrors, NullBuffersWithNonZeroCounts) {
  expect_error(alltoall(nullptr, kCount, MPI_INT, recv_.data(), kCount, MPI_INT, comm_, options_for("bruck")),
               MPI_ERR_BUFFER, "send buffer is null");
  expect_error(alltoall(send_.data(), kCount, MPI_INT, nullptr, kCount, MPI_INT, comm_, options_for("shift")),
               MPI_ERR_BUFFER, "receive buffer is null");
}

TEST_F(AlltoallErrors, MisplacedInPlaceAndAliasedBuffers) {
  expect_error(alltoall(send_.data(), kCount, MPI_INT, MPI_IN_PLACE, kCount, MPI_INT, comm_, options_for("direct")),
               MPI_ERR_BUFFER, "MPI_IN_PLACE");
  expect_error(alltoall(recv_.data(), kCount, MPI_INT, recv_.data(), kCount, MPI_INT, comm_, options_for("direct")),
               MPI_ERR_BUFFER, "same");
}

TEST_F(AlltoallErrors, UnknownAlgorithmListsValidNames) {
  expect_error(run(options_for("no-such-algorithm")), MPI_ERR_ARG, "unknown algorithm 'no-such-algorithm'");
  const std::string message = topocoll_error_message();
  for (const std::string& name : registry_algorithm_names()) {
    EXPECT_NE(message.find(name), std::string::npos) << name << " missing from: " << message;
  }
}

// An algorithm name is quoted in the message only in part: 1 MB of it is not echoed whole.
TEST_F(AlltoallErrors, LongAlgorithmNameIsCut) {
  const std::string name(1 << 20, 'x');
  expect_error(run(options_for(name)), MPI_ERR_ARG, "unknown algorithm 'xxxx");
  const std::string message = topocoll_error_message();
  EXPECT_LT(message.size(), 1000u) << "message of " << message.size() << " characters";
  EXPECT_NE(message.find("(1048576 characters)"), std::string::npos) << message.substr(0, 200);
}

// count * type size past the address space (2^30 elements of a 2^34-byte type: 2^64 bytes,
// which wraps to 0) is MPI_ERR_COUNT with the true numbers, not a call that moves nothing.
TEST_F(AlltoallErrors, ByteCountOverflowIsACountError) {
  MPI_Datatype gigabyte = MPI_DATATYPE_NULL, huge = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(1 << 30, MPI_BYTE, &gigabyte);
  MPI_Type_contiguous(16, gigabyte, &huge);
  MPI_Type_commit(&huge);
  const int count = 1 << 30;
  expect_error(run(options_for("direct"), count, count, huge, huge), MPI_ERR_COUNT,
               "the receive count (1073741824) times its type's size (17179869184 bytes) exceeds the address space");
  const int p = size_of(comm_);
  std::vector<int> counts(static_cast<std::size_t>(p), count), displs(static_cast<std::size_t>(p), 0);
  expect_error(alltoallv(send_.data(), counts.data(), displs.data(), huge, recv_.data(), counts.data(), displs.data(),
                         huge, comm_, options_for("direct")),
               MPI_ERR_COUNT, "receive count 0 (1073741824) times its type's size (17179869184 bytes)");
  MPI_Type_free(&huge);
  MPI_Type_free(&gigabyte);
}

// alltoallv with a gapped receive type (packed, not used in place): two receive blocks that
// share element slots would write the same bytes twice; rejected as for plain types.
TEST_F(AlltoallErrors, OverlappingGappedReceiveBlocksAreRejected) {
  MPI_Datatype every_other = MPI_DATATYPE_NULL;
  MPI_Type_vector(1, 1, 2, MPI_INT, &every_other);
  MPI_Datatype padded = MPI_DATATYPE_NULL;
  MPI_Type_create_resized(every_other, 0, 2 * sizeof(int), &padded);
  MPI_Type_commit(&padded);
  const int p = size_of(comm_);
  std::vector<int> counts(static_cast<std::size_t>(p), 1), sdispls(static_cast<std::size_t>(p)),
      rdispls(static_cast<std::size_t>(p), 0);  // every receive block in slot 0
  for (int q = 0; q < p; ++q) sdispls[static_cast<std::size_t>(q)] = q;
  if (p > 1) {
    expect_error(alltoallv(send_.data(), counts.data(), sdispls.data(), MPI_INT, recv_.data(), counts.data(),
                           rdispls.data(), padded, comm_, options_for("pairwise")),
                 MPI_ERR_ARG, "overlap in the receive buffer");
  }
  MPI_Type_free(&padded);
  MPI_Type_free(&every_other);
}

TEST_F(AlltoallErrors, AlgorithmThatDoesNotApply) {
  AlltoallOptions options = options_for("group-shuffle");
  options.group_shuffle.group_width = 0;
  expect_error(run(options), MPI_ERR_ARG, "does not apply");
  const Algorithm& group_shuffle = *find_algorithm(Operation::alltoall, "group-shuffle");
  const std::string reason =
      group_shuffle.supports(Problem{size_of(comm_), kCount * sizeof(int), nullptr, AlgorithmKnobs{0}}).reason;
  EXPECT_NE(std::string(topocoll_error_message()).find(reason), std::string::npos);
}

// With inapplicable_reason set, an algorithm that does not apply is no error: the MPI library's
// own call answers (the drop-in library's fall-through), and the reason comes back.
TEST_F(AlltoallErrors, AlgorithmThatDoesNotApplyHandsTheCallOnWhenAskedTo) {
  AlltoallOptions options = options_for("group-shuffle");
  options.group_shuffle.group_width = 0;
  std::string reason, chosen;
  options.inapplicable_reason = &reason;
  options.chosen_algorithm = &chosen;
  ASSERT_EQ(run(options), MPI_SUCCESS);
  EXPECT_NE(reason.find("algorithm 'group-shuffle' does not apply"), std::string::npos) << reason;
  EXPECT_EQ(chosen, "native");
  EXPECT_TRUE(same_elements(recv_, expected_receive_blocks(comm_, kCount), kCount));
  // An applicable algorithm leaves the reason empty.
  std::string none;
  AlltoallOptions pairwise = options_for("pairwise");
  pairwise.inapplicable_reason = &none;
  ASSERT_EQ(run(pairwise), MPI_SUCCESS);
  EXPECT_EQ(none, "");
}

TEST_F(AlltoallErrors, BadOptions) {
  AlltoallOptions options = options_for("direct");
  options.max_requests = -1;
  expect_error(run(options), MPI_ERR_ARG, "max_requests");
  options.max_requests = 0;
  options.copy_bandwidth = -5.0;
  expect_error(run(options), MPI_ERR_ARG, "copy_bandwidth");
  options.copy_bandwidth = 0.0;
  options.overlap.stripes = -2;
  expect_error(run(options), MPI_ERR_ARG, "stripes");
}

TEST_F(AlltoallErrors, NullAndUncommittedDatatypes) {
  expect_error(run(options_for("pairwise"), kCount, kCount, MPI_DATATYPE_NULL, MPI_INT), MPI_ERR_TYPE,
               "send type is MPI_DATATYPE_NULL");
  expect_error(run(options_for("pairwise"), kCount, kCount, MPI_INT, MPI_DATATYPE_NULL), MPI_ERR_TYPE,
               "receive type is MPI_DATATYPE_NULL");
  MPI_Datatype pair = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(2, MPI_INT, &pair);  // never committed
  expect_error(run(options_for("pairwise"), kCount / 2, kCount / 2, pair, pair), MPI_ERR_TYPE, "not a valid committed");
  MPI_Type_free(&pair);
}

TEST_F(AlltoallErrors, MismatchedTypeSignatures) {
  expect_error(run(options_for("direct"), kCount, kCount - 1), MPI_ERR_TRUNCATE, "larger than the block received");
  expect_error(run(options_for("direct"), kCount - 1, kCount), MPI_ERR_TYPE, "signatures differ");
  expect_error(run(options_for("direct"), kCount, kCount, MPI_INT, MPI_SHORT), MPI_ERR_TRUNCATE, "recvcount");
}

TEST_F(AlltoallErrors, NullCommunicatorRaisesOnWorld) {
  MPI_Errhandler previous = MPI_ERRHANDLER_NULL;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &previous);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  expect_error(alltoall(send_.data(), kCount, MPI_INT, recv_.data(), kCount, MPI_INT, MPI_COMM_NULL,
                        options_for("direct")),
               MPI_ERR_COMM, "MPI_COMM_NULL");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, previous);
  MPI_Errhandler_free(&previous);
}

TEST_F(AlltoallErrors, IntercommunicatorIsRejected) {
  const int p = size_of(MPI_COMM_WORLD);
  if (p < 2) GTEST_SKIP() << "an intercommunicator needs two ranks";
  const int rank = rank_in(MPI_COMM_WORLD);
  MPI_Comm half = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Comm inter = MPI_COMM_NULL;
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 == 0 ? 1 : 0, 77, &inter);
  MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
  expect_error(alltoall(send_.data(), 1, MPI_INT, recv_.data(), 1, MPI_INT, inter, options_for("pairwise")),
               MPI_ERR_COMM, "intercommunicators are not supported");
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
}

TEST_F(AlltoallErrors, CApiReportsTheSameWay) {
  const int rc = topocoll_alltoall(send_.data(), kCount, MPI_INT, recv_.data(), kCount, MPI_INT, comm_, "nope");
  expect_error(rc, MPI_ERR_ARG, "unknown algorithm 'nope'");
}

TEST_F(AlltoallErrors, ValidCallAfterErrorsSucceeds) {
  expect_error(run(options_for("direct"), -1, kCount), MPI_ERR_COUNT, "negative");
  EXPECT_EQ(run(options_for("direct")), MPI_SUCCESS) << topocoll_error_message();
  EXPECT_TRUE(same_elements(recv_, expected_receive_blocks(comm_, kCount), kCount));
}

TEST_F(AlltoallErrors, ZeroCountsNeedNoBuffers) {
  EXPECT_EQ(alltoall(nullptr, 0, MPI_INT, nullptr, 0, MPI_INT, comm_, options_for("bruck")), MPI_SUCCESS);
}

// A handler that records what it was called with and returns.
int last_handled_code = MPI_SUCCESS;
void recording_handler(MPI_Comm*, int* code, ...) { last_handled_code = *code; }

TEST_F(AlltoallErrors, HandlerIsInvokedAndMessagePrintedUnlessErrorsReturn) {
  ::testing::internal::CaptureStderr();
  expect_error(run(options_for("nope")), MPI_ERR_ARG, "unknown algorithm");
  EXPECT_EQ(::testing::internal::GetCapturedStderr().find("topocoll:"), std::string::npos)
      << "MPI_ERRORS_RETURN: nothing printed";

  MPI_Errhandler recording = MPI_ERRHANDLER_NULL;
  MPI_Comm_create_errhandler(recording_handler, &recording);
  MPI_Comm_set_errhandler(comm_, recording);
  last_handled_code = MPI_SUCCESS;
  ::testing::internal::CaptureStderr();
  const int rc = run(options_for("direct"), kCount, -2);
  const std::string printed = ::testing::internal::GetCapturedStderr();
  expect_error(rc, MPI_ERR_COUNT, "receive count is negative");
  EXPECT_EQ(last_handled_code, rc);
  EXPECT_NE(printed.find("topocoll: alltoall: the receive count is negative"), std::string::npos)
      << "printed: '" << printed << "'";
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&recording);
}

}  // namespace
}  // namespace topocoll::testing
