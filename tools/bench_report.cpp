// Formatting of topocoll-bench's output (see bench_report.hpp). The OSU layout follows the
// OSU micro-benchmarks' full format: size left-aligned, then latencies with two decimals.
#include "bench_report.hpp"

#include <mpi.h>

#include <iomanip>
#include <iostream>
#include <string>

namespace topocoll::bench {

namespace {

constexpr int kSizeWidth = 10;
constexpr int kFieldWidth = 18;
constexpr int kIterationsWidth = 12;

#ifdef TOPOCOLL_SMPI
constexpr const char* kFlavour = "smpi (simulated time)";
#else
constexpr const char* kFlavour = "mpi";
#endif

std::string_view csv_word(Validity validity) {
  switch (validity) {
    case Validity::yes: return "yes";
    case Validity::no: return "no";
    case Validity::skipped: return "skipped";
  }
  return "skipped";
}

std::string_view osu_word(Validity validity) {
  switch (validity) {
    case Validity::yes: return "Pass";
    case Validity::no: return "Fail";
    case Validity::skipped: return "Skipped";
  }
  return "Skipped";
}

std::string mpi_library_first_line() {
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  if (MPI_Get_library_version(version, &length) != MPI_SUCCESS) return "unknown";
  std::string text(version, static_cast<std::size_t>(length));
  text = text.substr(0, text.find('\n'));
  while (!text.empty() && (text.back() == '\0' || text.back() == ' ' || text.back() == ',')) text.pop_back();
  return text;
}

}  // namespace

Report::Report(std::ostream& out, const BenchOptions& options, int np, bool is_root)
    : out_(out), options_(options), np_(np), is_root_(is_root) {
  if (!is_root_) return;
  if (options_.format == OutputFormat::csv) {
    out_ << "op,algorithm,np,bytes,avg_us,min_us,max_us,iterations,valid\n" << std::flush;
  }
}

void Report::begin_algorithm(std::string_view algorithm) {
  if (!is_root_ || options_.format != OutputFormat::osu) return;
  if (!first_table_) out_ << '\n';
  first_table_ = false;
  out_ << "# topocoll " << to_string(options_.operation) << " benchmark\n"
       << "# algorithm: " << algorithm << ", np: " << np_ << ", group width: " << options_.group_width
       << ", max requests: " << options_.max_requests;
  if (is_rooted(options_.operation)) out_ << ", root: " << options_.root;
  if (!options_.topology.empty()) out_ << ", topology: " << options_.topology;
  if (options_.max_scratch_bytes > 0) out_ << ", max scratch: " << options_.max_scratch_bytes << " B";
  if (options_.segment_bytes > 0) out_ << ", segment: " << options_.segment_bytes << " B";
  if (options_.stripes > 0) out_ << ", stripes: " << options_.stripes;
  if (options_.group_level >= 0) out_ << ", group level: " << options_.group_level;
  if (options_.topo_stars > 0) out_ << ", topo star phases (bits): " << options_.topo_stars;
  if (options_.topo_skip > 0) out_ << ", topo skipped levels (bits): " << options_.topo_skip;
  if (options_.window_sync) out_ << ", synchronised start (window " << options_.sync_window << " s)";
  if (options_.repeat) out_ << ", " << *options_.repeat << " interleaved repetitions (times: their medians)";
  out_ << '\n'
       << "# flavour: " << kFlavour << "; MPI library: " << mpi_library_first_line() << '\n'
       << "# validation: " << (options_.validate ? "on" : "off")
       << (options_.shared_malloc ? ", SMPI shared buffers" : "");
  if (options_.copy_bandwidth > 0) {
    out_ << ", copy bandwidth: " << std::defaultfloat << std::setprecision(6) << options_.copy_bandwidth << " B/s";
  }
  out_ << '\n';
  if (options_.predict) out_ << "# Predicted: Tam-Wang model, Table 1 parameters at p = " << np_ << '\n';
  out_ << std::left << std::setw(kSizeWidth) << "# Size" << std::right << std::setw(kFieldWidth)
       << "Avg Latency(us)" << std::setw(kFieldWidth) << "Min Latency(us)" << std::setw(kFieldWidth)
       << "Max Latency(us)" << std::setw(kIterationsWidth) << "Iterations";
  if (options_.predict) out_ << std::setw(kFieldWidth) << "Predicted(us)";
  if (options_.validate) out_ << std::setw(kIterationsWidth) << "Validation";
  out_ << '\n' << std::flush;
}

void Report::point(std::string_view algorithm, const PointResult& result) {
  if (!is_root_) return;
  const Latency& latency = result.latency;
  if (options_.format == OutputFormat::csv) {
    out_ << to_string(options_.operation) << ',' << algorithm << ',' << np_ << ',' << result.block_bytes << ',' << std::fixed
         << std::setprecision(3) << latency.avg_us << ',' << latency.min_us << ',' << latency.max_us << ','
         << result.iterations << ',' << csv_word(result.validity) << '\n'
         << std::flush;
    return;
  }
  out_ << std::left << std::setw(kSizeWidth) << result.block_bytes << std::right << std::fixed
       << std::setprecision(2) << std::setw(kFieldWidth) << latency.avg_us << std::setw(kFieldWidth)
       << latency.min_us << std::setw(kFieldWidth) << latency.max_us << std::setw(kIterationsWidth)
       << result.iterations;
  if (options_.predict) {
    if (result.predicted_us) {
      out_ << std::setw(kFieldWidth) << *result.predicted_us;
    } else {
      out_ << std::setw(kFieldWidth) << "-";
    }
  }
  if (options_.validate) out_ << std::setw(kIterationsWidth) << osu_word(result.validity);
  out_ << '\n' << std::flush;
}

void Report::not_applicable(std::string_view algorithm, std::size_t block_bytes, std::string_view reason) {
  if (!is_root_) return;
  if (options_.format == OutputFormat::osu) {
    out_ << "# " << block_bytes << " bytes: not applicable: " << reason << '\n' << std::flush;
  } else {
    std::cerr << "topocoll-bench: " << algorithm << " at " << block_bytes
              << " bytes per block is not applicable (no row): " << reason << '\n';
  }
}

void Report::auto_choice(std::size_t block_bytes, std::string_view chosen) {
  if (!is_root_) return;
  if (options_.format == OutputFormat::osu) {
    out_ << "# " << block_bytes << " bytes: auto runs " << chosen << '\n' << std::flush;
  } else {
    std::cerr << "topocoll-bench: auto at " << block_bytes << " bytes per block runs " << chosen << '\n';
  }
}

}  // namespace topocoll::bench
