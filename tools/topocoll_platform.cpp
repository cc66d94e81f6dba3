// topocoll-platform: generates a simulated machine and the library's view of it from one
// description (src/network). `two-clusters` writes NAME.xml (SimGrid platform), NAME.hosts
// (hostfile) and NAME.topology.json (topology file) for two clusters joined by a backbone,
// `clusters --nodes N1,N2,...` the same for any number of clusters, `switch-tree` for leaf
// switches under spines, `mlfm --d D` for a multi-layer full mesh (and `--job N,L,M` the hostfile
// of a job's box of servers on it); `bound` prints the lower bound of a total exchange on a cluster
// description. `topocoll-platform --help`.
#include <CLI/CLI.hpp>

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "network/bound.hpp"
#include "network/clusters.hpp"
#include "network/mlfm.hpp"
#include "network/switch_tree.hpp"
#include "network/units.hpp"
#include "bench_pattern.hpp"
#include "plan_machine.hpp"
#include "network/platform_description.hpp"

namespace {

using namespace topocoll::network;
using namespace topocoll::tools;

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

// "two-clusters-20-40", "clusters-12-20-28", "switch-tree-4x8"
std::string default_name(const ClustersSpec& spec) {
  std::string name = spec.two_clusters() ? "two-clusters" : "clusters";
  for (int n : spec.nodes) name += "-" + std::to_string(n);
  return name;
}
std::string default_name(const SwitchTreeSpec& spec) {
  if (spec.hosts_per_leaf.size() == 1) {
    return "switch-tree-" + std::to_string(spec.leaves) + "x" + std::to_string(spec.hosts_per_leaf.front());
  }
  std::string name = "switch-tree";
  for (int hosts : spec.hosts_per_leaf) name += "-" + std::to_string(hosts);
  return name;
}
std::string default_name(const MlfmSpec& spec) { return "mlfm-d" + std::to_string(spec.d); }

// "8 + 32 hosts" (a cluster's or leaf's), or a mesh's servers (each a zone of its own).
template <typename Spec>
std::string describe_hosts(const Spec&, const Network& network) {
  std::string counts;
  for (const Cluster& c : network.clusters) counts += (counts.empty() ? "" : " + ") + std::to_string(c.hosts);
  return counts + " hosts";
}
std::string describe_hosts(const MlfmSpec& spec, const Network&) { return std::to_string(spec.servers()) + " servers"; }

// The files' base path (OUTPUT_DIR/NAME), the directory created.
template <typename Spec>
std::filesystem::path files_base(const Spec& spec, std::string& name, const std::string& output_dir) {
  if (name.empty()) name = default_name(spec);
  if (!is_valid_name(name, true)) {
    throw CLI::ValidationError("--name", "'" + name + "' must use only letters, digits, '_', '.' and '-'");
  }
  std::error_code error;
  std::filesystem::create_directories(output_dir, error);
  if (error) throw std::runtime_error("cannot create the directory " + output_dir + ": " + error.message());
  return std::filesystem::path(output_dir) / name;
}

template <typename Spec>
int write_platform(const Spec& spec, const Network& network, std::string name, const std::string& output_dir) {
  const std::filesystem::path base = files_base(spec, name, output_dir);
  write_file(base.string() + ".xml", platform_xml(spec, name));
  write_file(base.string() + ".hosts", hostfile_text(network));
  write_file(base.string() + ".topology.json", topology_json(network, spec.topology_format));
  std::cout << "wrote " << base.string() << ".xml, .hosts and .topology.json (" << describe_hosts(spec, network)
            << ")\nregenerate with: " << canonical_command(spec, name) << '\n';
  return 0;
}

// `mlfm --job N,L,M`: NAME-N-L-M.hosts, the job's servers in rank order (the platform's own
// files are those of the same command without --job).
int write_job_hostfile(const MlfmSpec& spec, const std::vector<int>& job, std::string name,
                       const std::string& output_dir) {
  if (job.size() != 3) throw CLI::ValidationError("--job", "give the box as N,L,M (layers, columns, slots)");
  const MlfmBox box{job[0], job[1], job[2]};
  if (const auto problem = check_box(spec, box)) throw CLI::ValidationError("--job", *problem);
  const std::filesystem::path base = files_base(spec, name, output_dir);
  const std::string path = base.string() + "-" + std::to_string(box.layers) + "-" + std::to_string(box.columns) +
                           "-" + std::to_string(box.slots) + ".hosts";
  write_file(path, job_hostfile_text(spec, box));
  std::cout << "wrote " << path << " (" << box.size() << " servers of " << name << ")\n";
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

// Two clusters keep their columns n1,n2; any other count names the clusters' sizes as N1+N2+...
int print_bounds(const ClustersSpec& spec, const std::vector<std::size_t>& sizes) {
  const Network network = clusters_network(spec);
  std::string counts;
  for (int n : spec.nodes) counts += (counts.empty() ? "" : spec.two_clusters() ? "," : "+") + std::to_string(n);
  std::cout << (spec.two_clusters() ? "n1,n2" : "nodes") << ",np,bytes,bound_us,limited_by,latency_us,node_link_us,"
            << "wan_us,switch_us\n";
  for (const std::size_t bytes : sizes) {
    const AlltoallBound b = alltoall_lower_bound(network, bytes);
    std::printf("%s,%d,%zu,%.3f,%s,%.3f,%.3f,%.3f,%.3f\n", counts.c_str(), spec.size(), bytes, b.seconds * 1e6,
                b.limited_by.c_str(), b.latency * 1e6, b.role("node-link") * 1e6, b.role("wan") * 1e6,
                b.role("switch") * 1e6);
  }
  return 0;
}

// The operation a bound is asked for other than alltoall (scatter, gather, alltoallv), and its
// ranks' hosts (from the hostfile, and the topology file beside the platform).
struct JobAsk {
  std::string op;
  int root = 0;                                  // scatter, gather
  std::optional<topocoll::bench::TrafficPattern> pattern;  // alltoallv: the per-pair sizes around -m
  std::vector<int> host_of_rank;
};

// Any platform topocoll-platform wrote (its network from its recorded command): the cut of
// each link role in a column of its own, and the link of the worst cut; the bound of an
// alltoall, or of the operation `job` describes.
int print_platform_bounds(const std::string& platform, const std::vector<std::size_t>& sizes,
                          const std::optional<JobAsk>& job) {
  const Network network = network_of_platform(platform);
  const auto bound = [&](std::size_t bytes) {
    if (!job) return alltoall_lower_bound(network, bytes);
    if (job->pattern) {
      const int p = static_cast<int>(job->host_of_rank.size());
      return alltoallv_lower_bound(network, job->host_of_rank,
                                   [&](int i, int j) { return job->pattern->bytes(i, j, p, bytes); });
    }
    return rooted_lower_bound(network, job->host_of_rank, job->root, bytes, job->op == "scatter");
  };
  std::vector<AlltoallBound> bounds;
  for (const std::size_t bytes : sizes) bounds.push_back(bound(bytes));
  // A column per link role with a cut. Each size has them all, except that an alltoallv's empty
  // blocks are no flow: a sparse pattern's small sizes may miss a role the larger ones have.
  std::vector<std::pair<std::string, double>> roles;
  for (const AlltoallBound& b : bounds) {
    if (b.by_role.size() > roles.size()) roles = b.by_role;
  }
  const int np = job ? static_cast<int>(job->host_of_rank.size()) : static_cast<int>(network.rank_hosts().size());
  std::cout << "platform,np,bytes,bound_us,limited_by,latency_us,worst_link";
  for (const auto& [role, seconds] : roles) std::cout << ',' << role << "_us";
  std::cout << '\n';
  const std::string name = std::filesystem::path(platform).stem().string();
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    const AlltoallBound& b = bounds[k];
    std::printf("%s,%d,%zu,%.3f,%s,%.3f,%s", name.c_str(), np, sizes[k], b.seconds * 1e6,
                b.limited_by.c_str(), b.latency * 1e6, b.worst_link.c_str());
    for (const auto& [role, seconds] : roles) std::printf(",%.3f", b.role(role) * 1e6);
    std::printf("\n");
  }
  return 0;
}

// A subcommand that writes a platform's files: its description, and where the files go.
struct Generator {
  CLI::App* command = nullptr;
  DescriptionOptions description;
  SwitchTreeOptions tree;
  std::string name, output_dir = ".", topology_format = "hosts";
  TopologyFormat format() const { return topology_format == "ranks" ? TopologyFormat::ranks : TopologyFormat::hosts; }
};

void add_file_options(Generator& g, const std::string& default_name) {
  g.command->add_option("--name", g.name, "Base name of the files (default: " + default_name + ")");
  g.command->add_option("-o,--output-dir", g.output_dir, "Directory for the files (created if missing)")
      ->capture_default_str();
  g.command
      ->add_option("--topology-format", g.topology_format,
                   "hosts: keyed by host name (any number of ranks placed by the hostfile); ranks: one entry per "
                   "rank in hostfile order")
      ->check(CLI::IsMember({"hosts", "ranks"}))
      ->capture_default_str();
}

void add_generator(CLI::App& app, Generator& g, const char* subcommand, const std::string& what, Counts counts,
                   const std::string& default_name) {
  g.command = app.add_subcommand(subcommand, "Write NAME.xml, NAME.hosts and NAME.topology.json for " + what);
  add_description_options(*g.command, g.description, counts);
  add_file_options(g, default_name);
}

constexpr const char* kFooter = R"(Quantities take SimGrid's units: bandwidths bps, kbps, Mbps, Gbps (bits) or Bps, kBps, MBps,
GBps, KiBps, MiBps, GiBps (bytes); latencies s, ms, us, ns; speeds f, kf, Mf, Gf.
The defaults model the LG paper's testbed (Grid'5000 Nancy and Rennes): docs/platforms.md.
Examples:
  topocoll-platform two-clusters --n1 20 --n2 40 --output-dir platforms
  topocoll-platform clusters --nodes 12,20,28 --wan core
  topocoll-platform switch-tree --leaves 4 --hosts-per-leaf 8 --spines 2 --uplinks 4
  topocoll-platform mlfm --d 3 --last-layer-servers 2 --name mlfm-d3-32
  topocoll-platform mlfm --d 3 --last-layer-servers 2 --name mlfm-d3-32 --job 3,4,2
  topocoll-platform bound --n1 20 --n2 40 -m 1:16777216
  topocoll-platform bound --nodes 12,20,28 -m 65536
  topocoll-platform bound --platform switch-tree-4x8.xml -m 1:1048576)";

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"topocoll-platform: a simulated machine (SimGrid platform and hostfile) and topocoll's view of it "
               "(topology file) from one description, and the lower bound of a total exchange on it.",
               "topocoll-platform"};
  app.footer(kFooter);
  app.require_subcommand(1);
  app.get_formatter()->column_width(34);

  Generator two_clusters, clusters;
  add_generator(app, two_clusters, "two-clusters", "two clusters joined by a backbone", Counts::two,
                "two-clusters-N1-N2");
  add_generator(app, clusters, "clusters", "any number of clusters joined by a backbone", Counts::any,
                "clusters-N1-N2-...");
  Generator tree;
  tree.command = app.add_subcommand(
      "switch-tree", "Write NAME.xml, NAME.hosts and NAME.topology.json for leaf switches under spine switches");
  add_switch_tree_options(*tree.command, tree.tree);
  add_file_options(tree, "switch-tree-LxH");
  Generator mesh;
  MlfmOptions mesh_options;
  std::vector<int> job;
  mesh.command = app.add_subcommand(
      "mlfm", "Write NAME.xml, NAME.hosts and NAME.topology.json for a multi-layer full mesh; with --job, "
              "NAME-N-L-M.hosts");
  add_mlfm_options(*mesh.command, mesh_options);
  add_file_options(mesh, "mlfm-dD");
  mesh.command
      ->add_option("--job", job,
                   "Only write the hostfile of a job's servers: layer < N, column < L, slot < M, in rank order "
                   "(1 <= M <= L-1 <= D, 1 <= N <= D)")
      ->delimiter(',');

  DescriptionOptions bound_options;
  std::string size_range = "1:16777216", bound_platform;
  CLI::App* bound = app.add_subcommand(
      "bound", "Print (CSV) the lower bound of an alltoall on a two-cluster (--n1, --n2) or clusters (--nodes) "
               "description, or on any platform topocoll-platform wrote (--platform), per block size");
  add_description_options(*bound, bound_options, Counts::either);
  bound->add_option("--platform", bound_platform,
                    "A platform written by topocoll-platform (its recorded command describes it), instead of a "
                    "description");
  bound->add_option("-m,--message-size", size_range, "Bytes per block: MIN:MAX doubling, or one size")
      ->capture_default_str();
  std::string bound_op = "alltoall", bound_hostfile;
  int bound_root = 0;
  bound->add_option("--op", bound_op,
                    "With --platform: the operation (scatter and gather: of -m bytes per rank; alltoallv: the "
                    "per-pair sizes of --pattern around -m)")
      ->check(CLI::IsMember({"alltoall", "scatter", "gather", "alltoallv"}))
      ->capture_default_str();
  bound->add_option("--root", bound_root, "With --op scatter|gather: the root rank")->capture_default_str();
  bound->add_option("--hostfile", bound_hostfile,
                    "With --op scatter|gather|alltoallv: the job's hostfile (rank r on line r; default: NAME.hosts "
                    "beside the platform)");
  std::string bound_pattern = "uniform";
  std::uint64_t bound_seed = 1;
  bound->add_option("--pattern", bound_pattern,
                    "With --op alltoallv: topocoll-bench's traffic pattern (uniform, random, zipf:S, sparse:K, "
                    "hotspot:H)")
      ->capture_default_str();
  bound->add_option("--seed", bound_seed, "With --op alltoallv: the pattern's seed, as topocoll-bench's")
      ->capture_default_str();

  app.failure_message([](const CLI::App*, const CLI::Error& error) {
    return "topocoll-platform: " + std::string(error.what()) + "\nRun topocoll-platform --help for the options.\n";
  });
  try {
    app.parse(argc, argv);
    for (const Generator* g : {&two_clusters, &clusters}) {
      if (!g->command->parsed()) continue;
      ClustersSpec spec = make_spec(g->description);
      spec.topology_format = g->format();
      return write_platform(spec, clusters_network(spec), g->name, g->output_dir);
    }
    if (tree.command->parsed()) {
      SwitchTreeSpec spec = make_switch_tree_spec(tree.tree);
      spec.topology_format = tree.format();
      return write_platform(spec, switch_tree_network(spec), tree.name, tree.output_dir);
    }
    if (mesh.command->parsed()) {
      MlfmSpec spec = make_mlfm_spec(mesh_options);
      spec.topology_format = mesh.format();
      if (!job.empty()) return write_job_hostfile(spec, job, mesh.name, mesh.output_dir);
      return write_platform(spec, mlfm_network(spec), mesh.name, mesh.output_dir);
    }
    if (bound_op != "alltoall" && bound_platform.empty()) {
      throw CLI::ValidationError("--op", "the bound of a " + bound_op + " is computed on a platform: give --platform");
    }
    if (bound_op != "alltoallv" && (bound->count("--pattern") > 0 || bound->count("--seed") > 0)) {
      throw CLI::ValidationError("--pattern", "a traffic pattern is for --op alltoallv");
    }
    if (!bound_platform.empty()) {
      if (bound_options.n1 != 0 || bound_options.n2 != 0 || !bound_options.nodes.empty()) {
        throw CLI::ValidationError("--platform", "give either --platform or a description (--n1, --n2, --nodes)");
      }
      std::optional<JobAsk> job;
      if (bound_op != "alltoall") {
        const std::size_t stem = bound_platform.size() - (bound_platform.ends_with(".xml") ? 4 : 0);
        const PlanMachine machine = load_plan_machine(bound_platform.substr(0, stem) + ".topology.json", bound_hostfile, 0);
        job = JobAsk{bound_op, bound_root, std::nullopt, hosts_of_ranks(network_of_platform(bound_platform), machine)};
        if (bound_op == "alltoallv") job->pattern = topocoll::bench::TrafficPattern::parse(bound_pattern, bound_seed);
      }
      return print_platform_bounds(bound_platform, parse_sizes(size_range), job);
    }
    return print_bounds(make_spec(bound_options), parse_sizes(size_range));
  } catch (const CLI::ParseError& error) {
    return app.exit(error);
  } catch (const std::exception& error) {
    std::cerr << "topocoll-platform: " << error.what() << '\n';
    return 1;
  }
}
