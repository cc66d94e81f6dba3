// topocoll-overlap: how much of a nonblocking alltoall hides behind computation, in the style
// of the OSU micro-benchmarks' nonblocking collective tests (osu_ialltoall): for each algorithm
// and block size, the time of the collective alone (start, then wait), then the time of a
// start, a computation as long as the collective alone, and the wait; overlap is the share of
// the collective's time that the computation hid:
//   overlap % = 100 * (1 - (overall - compute) / pure), clipped to [0, 100].
// `native` is the MPI library's own MPI_Ialltoall. During the computation the program may test
// its request (--tests N: N calls of MPI_Test spread over it), which is what gives a
// nonblocking collective's later rounds their progress where nothing else does.
// Times are the largest over the ranks of each one's mean per iteration. Under SMPI the
// computation is simulated (smpi_execute_flops at the host's speed, in as many pieces as there are tests), and
// topocoll's completion calls block on the collectives' requests (src/exec/smpi_completion_calls.cpp); run it with
// --cfg=smpi/test:0 when --tests is given, or SMPI charges each test of a request still on its way (100 us by default,
// growing with each miss).
#include <mpi.h>

// smpicxx force-includes smpi_helpers.h, whose exit(x) macro would rewrite CLI11's App::exit.
// Nothing here means the C library's exit.
#ifdef exit
#undef exit
#endif
#include <CLI/CLI.hpp>
#ifdef TOPOCOLL_SMPI
#include <simgrid/host.h>

#include <xbt/config.hpp>
#endif

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "topocoll/topocoll.hpp"

namespace {

struct Options {
  std::vector<std::string> algorithms{"native", "pairwise", "direct", "bruck"};
  std::string sizes = "8:65536";  // MIN:MAX bytes per block, doubling
  int iterations = 50;
  int warmup = 5;
  int tests = 0;
  std::string topology;
};

struct Times {
  double pure = 0, compute = 0, overall = 0;
};

double max_over_ranks(double value, MPI_Comm comm) {
  double largest = 0;
  MPI_Allreduce(&value, &largest, 1, MPI_DOUBLE, MPI_MAX, comm);
  return largest;
}

// Busy for `seconds`, calling MPI_Test on `request` `tests` times at even intervals.
void compute_for(double seconds, MPI_Request* request, int tests) {
#ifdef TOPOCOLL_SMPI
  for (int piece = 0; piece <= tests; ++piece) {
    if (piece > 0 && *request != MPI_REQUEST_NULL) {
      int flag = 0;
      MPI_Test(request, &flag, MPI_STATUS_IGNORE);
    }
    smpi_execute_flops(seconds / (tests + 1) * sg_host_get_speed(sg_host_self()));  // this host's seconds
  }
#else
  const double start = MPI_Wtime();
  int done_tests = 0;
  volatile double sink = 0;
  for (double now = start; now - start < seconds; now = MPI_Wtime()) {
    for (int k = 0; k < 64; ++k) sink = sink + 1e-9 * k;
    if (done_tests < tests && now - start >= seconds * done_tests / tests) {
      int flag = 0;
      if (*request != MPI_REQUEST_NULL) MPI_Test(request, &flag, MPI_STATUS_IGNORE);
      ++done_tests;
    }
  }
#endif
}

class Exchange {
 public:
  Exchange(std::size_t bytes, int p, const std::string& algorithm, const std::string& topology)
      : send_(bytes * static_cast<std::size_t>(p), 1), recv_(bytes * static_cast<std::size_t>(p)) {
    count_ = static_cast<int>(bytes);
    options_.algorithm = algorithm;
    options_.topology = topology;
    options_.inapplicable_reason = &reason_;
  }
  int start(MPI_Comm comm, MPI_Request* request) {
    if (options_.algorithm == "native") {
      return MPI_Ialltoall(send_.data(), count_, MPI_BYTE, recv_.data(), count_, MPI_BYTE, comm, request);
    }
    return topocoll::ialltoall(send_.data(), count_, MPI_BYTE, recv_.data(), count_, MPI_BYTE, comm, request,
                               options_);
  }
  // Why topocoll handed the call to the MPI library, if it did.
  const std::string& handed_on() const { return reason_; }

 private:
  std::vector<char> send_, recv_;
  int count_ = 0;
  topocoll::CollectiveOptions options_;
  std::string reason_;
};

Times measure(Exchange& exchange, const Options& options, MPI_Comm comm) {
  Times t;
  MPI_Request request = MPI_REQUEST_NULL;
  for (int i = 0; i < options.warmup; ++i) {
    exchange.start(comm, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(comm);
  double start = MPI_Wtime();
  for (int i = 0; i < options.iterations; ++i) {
    exchange.start(comm, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  t.pure = max_over_ranks((MPI_Wtime() - start) / options.iterations, comm);
  double computing = 0;
  MPI_Barrier(comm);
  start = MPI_Wtime();
  for (int i = 0; i < options.iterations; ++i) {
    exchange.start(comm, &request);
    const double before = MPI_Wtime();
    compute_for(t.pure, &request, options.tests);
    computing += MPI_Wtime() - before;
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  t.overall = max_over_ranks((MPI_Wtime() - start) / options.iterations, comm);
  t.compute = max_over_ranks(computing / options.iterations, comm);
  return t;
}

bool parse_sizes(const std::string& text, std::vector<std::size_t>& sizes) {
  const auto colon = text.find(':');
  try {
    const std::size_t low = std::stoul(text.substr(0, colon));
    const std::size_t high = colon == std::string::npos ? low : std::stoul(text.substr(colon + 1));
    if (low == 0 || high < low) return false;
    for (std::size_t s = low; s <= high; s *= 2) sizes.push_back(s);
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  Options options;
  CLI::App app{"topocoll-overlap: overlap of nonblocking alltoalls with computation (OSU-style); CSV on stdout"};
  app.add_option("-a,--algorithms", options.algorithms, "algorithms to measure; native is MPI_Ialltoall")
      ->delimiter(',');
  app.add_option("-m,--sizes", options.sizes, "bytes per block, MIN:MAX doubling, or one size");
  app.add_option("-i,--iterations", options.iterations, "timed iterations per measurement")->check(CLI::PositiveNumber);
  app.add_option("-w,--warmup", options.warmup, "untimed iterations first")->check(CLI::NonNegativeNumber);
  app.add_option("--tests", options.tests, "MPI_Test calls spread over each computation")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--topology", options.topology, "topology for topology-aware algorithms (clusters:N1,N2...)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = rank == 0 ? app.exit(e) : (e.get_exit_code() == 0 ? 0 : 2);
    MPI_Finalize();
    return code;
  }
  std::vector<std::size_t> sizes;
  if (!parse_sizes(options.sizes, sizes)) {
    if (rank == 0) std::fprintf(stderr, "topocoll-overlap: -m wants MIN:MAX or one size in bytes, got '%s'\n",
                                options.sizes.c_str());
    MPI_Finalize();
    return 2;
  }
#ifdef TOPOCOLL_SMPI
  if (const double charged = simgrid::config::get_value<double>("smpi/test");
      rank == 0 && options.tests > 0 && charged > 0) {
    std::fprintf(stderr,
                 "topocoll-overlap: SMPI charges each MPI_Test of a request still on its way %g s (smpi/test, "
                 "growing with each miss), which the computation's tests then cost; --cfg=smpi/test:0 leaves them "
                 "free\n",
                 charged);
  }
#endif
  if (rank == 0) std::printf("algorithm,ranks,bytes,pure_us,compute_us,overall_us,overlap_percent,tests\n");
  int status = 0;
  for (const std::string& algorithm : options.algorithms) {
    for (std::size_t bytes : sizes) {
      Exchange exchange(bytes, p, algorithm, options.topology);
      MPI_Request probe = MPI_REQUEST_NULL;
      const int rc = exchange.start(MPI_COMM_WORLD, &probe);
      if (rc == MPI_SUCCESS) MPI_Wait(&probe, MPI_STATUS_IGNORE);
      if (rc != MPI_SUCCESS || !exchange.handed_on().empty()) {
        if (rank == 0) {
          std::fprintf(stderr, "topocoll-overlap: %s at %zu bytes: %s\n", algorithm.c_str(), bytes,
                       rc != MPI_SUCCESS ? topocoll_error_message() : exchange.handed_on().c_str());
        }
        status = 1;
        break;
      }
      const Times t = measure(exchange, options, MPI_COMM_WORLD);
      const double hidden = t.pure > 0 ? 1.0 - (t.overall - t.compute) / t.pure : 0.0;
      const double overlap = 100.0 * std::clamp(hidden, 0.0, 1.0);
      if (rank == 0) {
        std::printf("%s,%d,%zu,%.2f,%.2f,%.2f,%.1f,%d\n", algorithm.c_str(), p, bytes, t.pure * 1e6, t.compute * 1e6,
                    t.overall * 1e6, overlap, options.tests);
        std::fflush(stdout);
      }
    }
  }
  MPI_Finalize();
  return status;
}
