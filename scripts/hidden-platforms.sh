#!/usr/bin/env bash
# "auto never slower", checked on machines nobody tuned for (issue 31): generates platforms that
# no study or calibration of this repository used, calibrates each as docs/tuning.md says
# (scripts/calibrate.sh, copies at 1.5 GB/s), then simulates auto beside SMPI's own MPI_Alltoall
# under Open MPI's and MPICH's selectors and every algorithm of topocoll that applies, at a few
# block sizes, with the platform's lower bound.
# Prints one markdown table (auto / the better native selector, / the fastest run, / the bound)
# and the worst ratios found; writes everything under OUT-DIR (default build/hidden-platforms).
# Each platform is calibrated with its validation pass at --validate-sizes (default: the
# simulated sizes) and its bisections where the winners change.
# The fixed platforms:
#   node-bound two clusters   12 + 12 nodes, 10 Gbit/s node links, a 400 Gbit/s backbone 2 ms away
#                             (the node links, not the backbone, bound the exchange)
#   three clusters, WAN core  8 + 8 + 8 nodes through one core link per cluster, 40 Gbit/s, 1 ms
#   switch tree, 4 per host   2 leaves of 4 hosts with 4 ranks each, 4:1 uplinks
# With --seed, three platforms drawn at random instead, one of each kind, their sizes, links,
# latencies and ranks per host drawn from the ranges in draw_platforms below (at most 32 ranks):
# machines nobody has seen, not even whoever runs the script.
# Usage: scripts/hidden-platforms.sh [--seed N] [--sizes LIST] [--validate-sizes LIST] [OUT-DIR]
#   --sizes           block sizes simulated, in bytes (default 16,1024,65536,1048576)
#   --validate-sizes  the calibration's validation sizes (default: --sizes); sizes simulated but
#                     not validated check what auto does between the validated ones
# About 5 minutes on 2 cores after the build, with seven sizes (2026-12-07).
set -euo pipefail
cd "$(dirname "$0")/.."
seed="" sizes_list=16,1024,65536,1048576 validate_list="" out=""
while [[ $# -gt 0 ]]; do
  if [[ $1 == --* && $1 != --help && $# -lt 2 ]]; then
    echo "hidden-platforms.sh: $1 needs a value (see --help)" >&2
    exit 2
  fi
  case "$1" in
    --seed) seed="$2"; shift 2 ;;
    --sizes) sizes_list="$2"; shift 2 ;;
    --validate-sizes) validate_list="$2"; shift 2 ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    -*) echo "hidden-platforms.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) out="$1"; shift ;;
  esac
done
for list in "$sizes_list" "${validate_list:-1}"; do
  if [[ ! $list =~ ^[0-9]+(,[0-9]+)*$ ]]; then
    echo "hidden-platforms.sh: '$list' is not a comma-separated list of block sizes in bytes" >&2
    exit 2
  fi
done
if [[ -n $seed && ! $seed =~ ^[0-9]+$ ]]; then
  echo "hidden-platforms.sh: --seed takes a whole number, not '$seed'" >&2
  exit 2
fi
validate_list=${validate_list:-$sizes_list}
out=${out:-$PWD/build/hidden-platforms}
mkdir -p "$out"
# shellcheck source=tour-build.sh
source scripts/tour-build.sh
# shellcheck source=study-flags.sh
source scripts/study-flags.sh
platform_tool=build/mpi/tools/topocoll-platform

# One platform of each kind drawn from SEED, as lines "name|topocoll-platform arguments|ranks".
draw_platforms() {
  python3 - "$1" <<'PYTHON'
import random, sys
seed = int(sys.argv[1])
draw = random.Random(seed)
bandwidths = ["1Gbps", "10Gbps", "25Gbps", "40Gbps", "100Gbps", "400Gbps"]
latencies = ["100us", "500us", "1ms", "2ms", "5ms", "10ms"]
n1, n2 = draw.randint(4, 16), draw.randint(4, 16)
print("drawn-%d-two-clusters-%dx%d|two-clusters --n1 %d --n2 %d --node-bw %s --wan-bw %s --wan-lat %s|%d" % (
    seed, n1, n2, n1, n2, draw.choice(bandwidths[:5]), draw.choice(bandwidths), draw.choice(latencies), n1 + n2))
nodes = [draw.randint(3, 8) for _ in range(draw.randint(3, 4))]
print("drawn-%d-wan-core-%s|clusters --nodes %s --wan core --node-bw %s --wan-bw %s --wan-lat %s|%d" % (
    seed, "-".join(map(str, nodes)), ",".join(map(str, nodes)), draw.choice(bandwidths[:5]), draw.choice(bandwidths),
    draw.choice(latencies), sum(nodes)))
while True:
    leaves, hosts, per_host = draw.randint(2, 4), draw.randint(2, 4), draw.choice([1, 2, 4, 8])
    if leaves * hosts * per_host <= 32 and leaves * hosts * per_host >= 8:
        break
node_bw = draw.choice(bandwidths[2:])
print("drawn-%d-tree-%dx%dx%d|switch-tree --leaves %d --hosts-per-leaf %d --ranks-per-host %d --node-bw %s "
      "--uplink-bw %s --node-lat %s|%d" % (seed, leaves, hosts, per_host, leaves, hosts, per_host, node_bw,
                                          draw.choice(bandwidths[2:]), draw.choice(["500ns", "1us", "2us"]),
                                          leaves * hosts * per_host))
PYTHON
}

# name | topocoll-platform arguments | ranks
if [[ -n $seed ]]; then
  mapfile -t platforms < <(draw_platforms "$seed")
else
  platforms=(
    "node-bound-2x12|two-clusters --n1 12 --n2 12 --node-bw 10Gbps --wan-bw 400Gbps --wan-lat 2ms|24"
    "wan-core-3x8|clusters --nodes 8,8,8 --wan core --wan-bw 40Gbps --wan-lat 1ms|24"
    "tree-2x4x4|switch-tree --leaves 2 --hosts-per-leaf 4 --ranks-per-host 4 --uplink-bw 100Gbps --node-bw 100Gbps|32"
  )
fi
IFS=, read -ra sizes <<<"$sizes_list"
# The total exchange's algorithms that apply to these platforms (mlfm needs a full mesh).
candidates=direct,shift,pairwise,group-shuffle,bruck,lg,overlap,linkaware
results="$out/results.csv"
echo "platform,bytes,selector_or_algorithm,max_us,valid" >"$results"
for entry in "${platforms[@]}"; do
  IFS='|' read -r name arguments np <<<"$entry"
  read -ra generate <<<"$arguments"
  "$platform_tool" "${generate[@]}" --name "$name" -o "$out" >/dev/null
  echo "hidden-platforms: $name: calibrating..." >&2
  # By default validated at the sizes measured below, as docs/tuning.md advises: there the
  # measurements outrank the model.
  echo "hidden-platforms: $name: topocoll-platform $arguments" >&2
  scripts/calibrate.sh --np "$np" "$out/$name.xml" "$out/$name.topology.json" -- "${study_calibrate_flags[@]}" \
    --validate-sizes "$validate_list" >"$out/$name.calibrate.log" 2>&1
  for bytes in "${sizes[@]}"; do
    echo "hidden-platforms: $name: $bytes bytes per block" >&2
    buffers=()
    ((bytes > 65536)) && buffers=(--shared-malloc)  # timing only above 64 KiB
    for selector in ompi mpich; do
      # Every algorithm beside auto under one selector: where one of them reaches the bound,
      # auto should too.
      algorithms=native
      [[ $selector == ompi ]] && algorithms=auto,native,$candidates
      run="$out/$name-$bytes-$selector"
      if ! scripts/simulate.sh --selector "$selector" "$out/$name.xml" "$np" -- "${study_bench_flags[@]}" \
        "${buffers[@]}" --algorithms "$algorithms" --calibration "$out/$name.calibration.json" -m "$bytes" \
        >"$run.csv" 2>"$run.err"; then
        # SimGrid 3.32's MPICH selector picks its pair alltoall for large blocks, which it refuses
        # on a process count that is not a power of two (docs/results.md, three clusters).
        why=$(grep -m 1 -o 'Uncaught exception.*' "$run.err" || tail -n 1 "$run.err")
        echo "hidden-platforms: $name: $bytes bytes per block: the $selector selector's run failed: $why" >&2
        echo "$name,$bytes,native $selector,,failed" >>"$results"
        continue
      fi
      awk -F, -v p="$name" -v s="$selector" '$1 == "alltoall" {
        print p "," $4 "," ($2 == "native" ? "native " s : $2) "," $7 "," $9 }' "$run.csv" >>"$results"
    done
    "$platform_tool" bound --platform "$out/$name.xml" -m "$bytes" |
      awk -F, -v p="$name" 'NR > 1 { print p "," $3 ",bound," $4 ",-" }' >>"$results"  # platform,np,bytes,bound_us
  done
done

python3 - "$results" "$validate_list" <<'PYTHON'
import csv, sys
validated = {int(b) for b in sys.argv[2].split(",")}
rows = list(csv.DictReader(open(sys.argv[1])))
times = {}
failed = set()  # (platform, bytes, selector run) that SimGrid could not simulate
for r in rows:
    if r["valid"] == "failed":
        failed.add((r["platform"], int(r["bytes"]), r["selector_or_algorithm"]))
        continue
    times[(r["platform"], int(r["bytes"]), r["selector_or_algorithm"])] = (float(r["max_us"]), r["valid"])
print("| platform | bytes | validated | auto (us) | better native (us) | fastest (us) | bound (us) | auto / native |"
      " auto / fastest | auto / bound | valid |")
print("|---|---:|---|---:|---:|---|---:|---:|---:|---:|---|")
worst = None
worst_reached = None  # auto / bound where some run is within 1% of the bound
for (platform, size) in sorted({(p, b) for (p, b, _) in times}, key=lambda k: (k[0], k[1])):
    natives = [times[(platform, size, n)][0] for n in ("native ompi", "native mpich") if (platform, size, n) in times]
    if (platform, size, "auto") not in times or not natives:
        print("| %s | %d | %s | SimGrid failed | | | | | | | failed |" % (
            platform, size, "yes" if size in validated else "no"))
        continue
    auto, valid = times[(platform, size, "auto")]
    native = min(natives)
    bound = times[(platform, size, "bound")][0]
    runs = {name: us for (p, b, name), (us, ok) in times.items()
            if p == platform and b == size and name != "bound" and ok in ("yes", "skipped")}
    fastest_name = min(runs, key=runs.get)
    fastest = runs[fastest_name]
    ratio = auto / native
    if worst is None or ratio > worst[0]:
        worst = (ratio, platform, size)
    if fastest <= 1.01 * bound and (worst_reached is None or auto / bound > worst_reached[0]):
        worst_reached = (auto / bound, platform, size)
    missing = "".join(" (%s: SimGrid failed)" % n.split()[1] for n in ("native ompi", "native mpich")
                      if (platform, size, n) in failed)
    print("| %s | %d | %s | %.1f | %.1f%s | %.1f (%s) | %.1f | %.4f | %.4f | %.4f | %s |" % (
        platform, size, "yes" if size in validated else "no", auto, native, missing, fastest, fastest_name, bound,
        ratio, auto / fastest, auto / bound, valid))
print()
print("worst auto / better native: %.4f (%s, %d bytes per block)" % worst)
if worst_reached:
    print("worst auto / bound where a run came within 1%% of the bound: %.4f (%s, %d bytes per block)" % worst_reached)
PYTHON
