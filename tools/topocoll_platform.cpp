// topocoll-platform: generates a simulated machine and the library's view of it from one
// description. `two-clusters` writes NAME.xml (SimGrid platform), NAME.hosts (hostfile) and
// NAME.topology.json (topology file) for two clusters joined by a backbone; `bound` prints the
// lower bound of a total exchange on the same description. `topocoll-platform --help`.
#include <CLI/CLI.hpp>

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "platform_bound.hpp"
#include "platform_two_clusters.hpp"
#include "platform_units.hpp"

namespace {

using namespace topocoll::platform;

// The description as typed: quantities stay text until they are parsed with their units.
struct DescriptionOptions {
  int n1 = 0;
  int n2 = 0;
  std::vector<std::string> names{"c1", "c2"};
  std::string host_speed = format_speed(TwoClusterSpec{}.host_speed);
  std::string node_bw = format_bandwidth(TwoClusterSpec{}.node_bandwidth);
  std::string node_lat = format_latency(TwoClusterSpec{}.node_latency);
  std::string switch_bw = format_bandwidth(TwoClusterSpec{}.switch_bandwidth);
  std::string switch_lat = format_latency(TwoClusterSpec{}.switch_latency);
  std::string switch_sharing{sharing_name(TwoClusterSpec{}.switch_sharing)};
  std::string wan_bw = format_bandwidth(TwoClusterSpec{}.wan_bandwidth);
  std::string wan_lat = format_latency(TwoClusterSpec{}.wan_latency);
  std::string wan_sharing{sharing_name(TwoClusterSpec{}.wan_sharing)};
};

void add_description_options(CLI::App& command, DescriptionOptions& d) {
  command.add_option("--n1", d.n1, "Nodes (one rank each) of cluster 1: ranks 0..n1-1")->required();
  command.add_option("--n2", d.n2, "Nodes of cluster 2: ranks n1..n1+n2-1")->required();
  command.add_option("--names", d.names, "Cluster ids; hosts are NAME-0, NAME-1, ...")
      ->delimiter(',')
      ->expected(2)
      ->capture_default_str();
  command.add_option("--host-speed", d.host_speed, "Host speed (charged local copies only)")->capture_default_str();
  command.add_option("--node-bw", d.node_bw, "Each node's link to its switch (full duplex)")->capture_default_str();
  command.add_option("--node-lat", d.node_lat, "Latency of each node's link")->capture_default_str();
  command.add_option("--switch-bw", d.switch_bw,
                     "Each cluster's switch (SimGrid cluster backbone): a SHARED switch's capacity, a FATPIPE "
                     "switch's per-flow cap; unused by NONBLOCKING")
      ->capture_default_str();
  command.add_option("--switch-lat", d.switch_lat, "Latency through a switch")->capture_default_str();
  command.add_option("--switch-sharing", d.switch_sharing,
                     "NONBLOCKING (a SHARED capacity of all its ports, 2 x nodes x --node-bw), FATPIPE (the "
                     "same allocations, much slower to simulate) or SHARED (one capacity, --switch-bw)")
      ->check(CLI::IsMember({"NONBLOCKING", "FATPIPE", "SHARED"}))
      ->capture_default_str();
  command.add_option("--wan-bw", d.wan_bw, "The backbone between the clusters")->capture_default_str();
  command.add_option("--wan-lat", d.wan_lat, "One-way latency of the backbone")->capture_default_str();
  command.add_option("--wan-sharing", d.wan_sharing, "SPLITDUPLEX (each direction), SHARED or FATPIPE")
      ->check(CLI::IsMember({"SPLITDUPLEX", "SHARED", "FATPIPE"}))
      ->capture_default_str();
}

template <typename Parse>
double parse_or_throw(Parse parse, const std::string& text, const std::string& option) {
  std::string error;
  const auto value = parse(text, &error);
  if (!value) throw CLI::ValidationError(option, error);
  return *value;
}

TwoClusterSpec make_spec(const DescriptionOptions& d) {
  TwoClusterSpec spec;
  spec.n1 = d.n1;
  spec.n2 = d.n2;
  spec.name1 = d.names.at(0);
  spec.name2 = d.names.at(1);
  spec.host_speed = parse_or_throw(parse_speed, d.host_speed, "--host-speed");
  spec.node_bandwidth = parse_or_throw(parse_bandwidth, d.node_bw, "--node-bw");
  spec.node_latency = parse_or_throw(parse_latency, d.node_lat, "--node-lat");
  spec.switch_bandwidth = parse_or_throw(parse_bandwidth, d.switch_bw, "--switch-bw");
  spec.switch_latency = parse_or_throw(parse_latency, d.switch_lat, "--switch-lat");
  spec.switch_sharing = *parse_sharing(d.switch_sharing);
  spec.wan_bandwidth = parse_or_throw(parse_bandwidth, d.wan_bw, "--wan-bw");
  spec.wan_latency = parse_or_throw(parse_latency, d.wan_lat, "--wan-lat");
  spec.wan_sharing = *parse_sharing(d.wan_sharing);
  if (const auto problem = check_spec(spec)) throw CLI::ValidationError("two-clusters", *problem);
  return spec;
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

int write_platform(const TwoClusterSpec& spec, std::string name, const std::string& output_dir) {
  if (name.empty()) name = "two-clusters-" + std::to_string(spec.n1) + "-" + std::to_string(spec.n2);
  if (name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != std::string::npos) {
    throw CLI::ValidationError("--name", "'" + name + "' must use only letters, digits, '_', '.' and '-'");
  }
  std::error_code error;
  std::filesystem::create_directories(output_dir, error);
  if (error) throw std::runtime_error("cannot create the directory " + output_dir + ": " + error.message());
  const std::filesystem::path base = std::filesystem::path(output_dir) / name;
  write_file(base.string() + ".xml", platform_xml(spec, name));
  write_file(base.string() + ".hosts", hostfile_text(spec));
  write_file(base.string() + ".topology.json", topology_json(spec));
  std::cout << "wrote " << base.string() << ".xml, .hosts and .topology.json (" << spec.n1 << " + " << spec.n2
            << " hosts)\nregenerate with: " << canonical_command(spec, name) << '\n';
  return 0;
}

std::size_t parse_size(const std::string& text) {
  std::size_t value = 0;
  const auto [stop, status] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || status != std::errc{} || stop != text.data() + text.size()) {
    throw CLI::ValidationError("--message-size", "'" + text + "' is not a byte count");
  }
  return value;
}

// "1:16777216" -> 1, 2, 4, ..., 16777216 (as topocoll-bench's -m); "65536" -> 65536.
std::vector<std::size_t> parse_sizes(const std::string& range) {
  const auto colon = range.find(':');
  const std::size_t lo = parse_size(range.substr(0, colon));
  const std::size_t hi = colon == std::string::npos ? lo : parse_size(range.substr(colon + 1));
  if (lo == 0 || lo > hi) throw CLI::ValidationError("--message-size", "give MIN:MAX with 0 < MIN <= MAX");
  std::vector<std::size_t> sizes;
  for (std::size_t s = lo; s <= hi && s <= std::numeric_limits<std::size_t>::max() / 2; s *= 2) sizes.push_back(s);
  return sizes;
}

int print_bounds(const TwoClusterSpec& spec, const std::vector<std::size_t>& sizes) {
  std::cout << "n1,n2,np,bytes,bound_us,limited_by,latency_us,node_link_us,wan_us,switch_us\n";
  for (const std::size_t bytes : sizes) {
    const AlltoallBound b = alltoall_lower_bound(spec, bytes);
    std::printf("%d,%d,%d,%zu,%.3f,%.*s,%.3f,%.3f,%.3f,%.3f\n", spec.n1, spec.n2, spec.size(), bytes, b.seconds * 1e6,
                static_cast<int>(b.limited_by.size()), b.limited_by.data(), b.latency * 1e6, b.node_link * 1e6,
                b.wan * 1e6, b.switch_cut * 1e6);
  }
  return 0;
}

constexpr const char* kFooter = R"(Quantities take SimGrid's units: bandwidths bps, kbps, Mbps, Gbps (bits) or Bps, kBps, MBps,
GBps, KiBps, MiBps, GiBps (bytes); latencies s, ms, us, ns; speeds f, kf, Mf, Gf.
The defaults model the LG paper's testbed (Grid'5000 Nancy and Rennes): docs/platforms.md.
Examples:
  topocoll-platform two-clusters --n1 20 --n2 40 --output-dir platforms
  topocoll-platform bound --n1 20 --n2 40 -m 1:16777216)";

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"topocoll-platform: a simulated machine (SimGrid platform and hostfile) and topocoll's view of it "
               "(topology file) from one description, and the lower bound of a total exchange on it.",
               "topocoll-platform"};
  app.footer(kFooter);
  app.require_subcommand(1);
  app.get_formatter()->column_width(34);

  DescriptionOptions generate_options;
  std::string name, output_dir = ".", topology_format = "hosts";
  CLI::App* generate = app.add_subcommand(
      "two-clusters", "Write NAME.xml, NAME.hosts and NAME.topology.json for two clusters joined by a backbone");
  add_description_options(*generate, generate_options);
  generate->add_option("--name", name, "Base name of the files (default: two-clusters-N1-N2)");
  generate->add_option("-o,--output-dir", output_dir, "Directory for the files (created if missing)")
      ->capture_default_str();
  generate->add_option("--topology-format", topology_format,
                       "hosts: keyed by host name (any number of ranks placed by the hostfile); ranks: one "
                       "entry per rank in hostfile order")
      ->check(CLI::IsMember({"hosts", "ranks"}))
      ->capture_default_str();

  DescriptionOptions bound_options;
  std::string size_range = "1:16777216";
  CLI::App* bound = app.add_subcommand(
      "bound", "Print (CSV) the lower bound of an alltoall on the two-cluster description, per block size");
  add_description_options(*bound, bound_options);
  bound->add_option("-m,--message-size", size_range, "Bytes per block: MIN:MAX doubling, or one size")
      ->capture_default_str();

  app.failure_message([](const CLI::App*, const CLI::Error& error) {
    return "topocoll-platform: " + std::string(error.what()) + "\nRun topocoll-platform --help for the options.\n";
  });
  try {
    app.parse(argc, argv);
    if (generate->parsed()) {
      TwoClusterSpec spec = make_spec(generate_options);
      spec.topology_format = topology_format == "ranks" ? TopologyFormat::ranks : TopologyFormat::hosts;
      return write_platform(spec, name, output_dir);
    }
    return print_bounds(make_spec(bound_options), parse_sizes(size_range));
  } catch (const CLI::ParseError& error) {
    return app.exit(error);
  } catch (const std::exception& error) {
    std::cerr << "topocoll-platform: " << error.what() << '\n';
    return 1;
  }
}
