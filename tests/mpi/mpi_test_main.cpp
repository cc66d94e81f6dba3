// main() of the real-MPI tests: MPI_Init, GoogleTest with only rank 0's full report (other
// ranks print just their failed checks, tagged with their rank), and one verdict for all.
#include <mpi.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace {

class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestStart(const ::testing::TestInfo& test) override {
    current_test_ = std::string(test.test_suite_name()) + "." + test.name();
  }
  // Called with GoogleTest's lock held: must not query the UnitTest.
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::printf("[rank %d] %s: %s:%d\n%s\n", rank_, current_test_.c_str(),
                result.file_name() ? result.file_name() : "?", result.line_number(), result.summary());
    std::fflush(stdout);
  }

 private:
  int rank_;
  std::string current_test_;
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailurePrinter(rank));
  }
  const int failed_here = RUN_ALL_TESTS() != 0 ? 1 : 0;
  int failed_anywhere = 0;
  MPI_Allreduce(&failed_here, &failed_anywhere, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return failed_anywhere;
}
