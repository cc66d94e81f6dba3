#!/usr/bin/env bash
# What auto's first call for a block size costs a rank, against the number of ranks: the time
# to read the machine (topology file, hostfile, placement: machine_us, what a communicator's
# set-up reads), to choose (select_algorithm with early stops, what the executor runs:
# topocoll-plan's choose_us) and to build one rank's schedule of the choice (rank_schedule_us),
# and the process's peak memory (/usr/bin/time's maximum resident set). Two machines: two equal
# clusters with the two-clusters-30-30 calibration (the default), or --node-aware: the switch
# trees of 16 ranks per host of scripts/fluid-scale.sh (results/fluid-scale/fat-*: topology
# files keyed by host, hostfiles) with the node-aware study's 1024-rank calibration. Blocks of
# 16 B (8 B on the trees) and 64 KiB. Prints a markdown table for docs/results.md. Each point is
# the best of RUNS runs of topocoll-plan --choose-only (wall-clock time on this machine, which
# varies up to 2x from run to run); memory is the largest of them. A repeated call of the same
# shape pays none of it: the plan is cached per communicator.
# --walk: the calls themselves, by topocoll-walk-cost (tools/walk_cost.cpp): a rank's first call
# (the choice, its schedule and ExecutionPlan, the plan's first walk) and a repeated one (the walk
# again, median of 20), each message to MPI_PROC_NULL, with a bare loop of MPI's own linear
# exchange beside it, the heap the plan holds and the peak memory; each point the slowest of
# ranks 0, p/2 and p-1, best of RUNS runs.
# Usage: scripts/choose-cost.sh [--runs N] [--ranks "P1 P2 ..."] [--node-aware] [--walk] [--build-dir DIR]
#   --runs N         runs per point, the best kept (default 5)
#   --ranks LIST     even rank counts (default "64 256 1024 4096 16384"; --node-aware: "1024 2048
#                    4096 8192 16384", those of results/fluid-scale)
#   --node-aware     the switch trees of 16 ranks per host instead of two clusters
#   --walk           the first and repeated calls' walks (topocoll-walk-cost), not the choice
#   --build-dir DIR  a configured and built mpi-preset tree (default build/mpi, built if needed)
set -euo pipefail
cd "$(dirname "$0")/.."

runs=5 ranks="" build=build/mpi node_aware=0 walk=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --node-aware) node_aware=1; shift ;;
    --walk) walk=1; shift ;;
    --build-dir) build=$2; shift 2 ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    *) echo "choose-cost.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if ((node_aware)); then
  ranks=${ranks:-"1024 2048 4096 8192 16384"} sizes="8 65536"
  calibration=results/node-aware/fat-4x16x16.calibration.json
else
  ranks=${ranks:-"64 256 1024 4096 16384"} sizes="16 65536"
  calibration=platforms/two-clusters-30-30.calibration.json
fi
for p in $ranks; do
  if (( p < 2 || p % 2 )); then echo "choose-cost.sh: rank counts must be even and at least 2, not '$p'" >&2; exit 2; fi
done
# The topology arguments of p ranks.
machine_of() {
  local p=$1
  if ((!node_aware)); then
    echo "--topology clusters:$((p / 2)),$((p / 2))"
    return
  fi
  local file
  for file in results/fluid-scale/fat-*x16.topology.json; do
    local name=${file%.topology.json}
    if [[ $(wc -l <"$name.hosts") -eq $p ]]; then  # a line per rank
      echo "--topology $file --hostfile $name.hosts"
      return
    fi
  done
  echo "choose-cost.sh: no switch tree of $p ranks in results/fluid-scale (scripts/fluid-scale.sh --np $p makes one)" >&2
  exit 2
}
plan=$build/tools/topocoll-plan walker=$build/tools/topocoll-walk-cost
for tool in "$plan" "$walker"; do
  if [[ ! -x $tool ]]; then
    cmake --preset mpi >/dev/null
    cmake --build --preset mpi --target "$(basename "$tool")" -j "$(nproc)"
  fi
done
memory=$(mktemp)
trap 'rm -f "$memory"' EXIT

# One point's runs (p ranks, blocks of `bytes`, then the machine's arguments), printed; the
# choice's peak memory of each run appended to $memory.
runs_of_point() {
  local p=$1 bytes=$2 i
  shift 2
  for ((i = 0; i < runs; i++)); do
    if ((walk)); then
      "$walker" --algorithm auto --calibration "$calibration" "$@" --block-bytes "$bytes" \
        --rank 0 --rank $((p / 2)) --rank $((p - 1))
    else
      /usr/bin/time -f "%M" -a -o "$memory" "$plan" --algorithm auto --choose-only "$@" \
        --block-bytes "$bytes" --calibration "$calibration" --format json
    fi
  done
}

# A point's row, from its runs on standard input.
choice_row='
import json, sys
text = sys.stdin.read()
runs, decoder, at = [], json.JSONDecoder(), 0
while at < len(text):
    while at < len(text) and text[at].isspace():
        at += 1
    if at == len(text):
        break
    run, at = decoder.raw_decode(text, at)
    runs.append(run)
best = lambda key: min(key(r) for r in runs) / 1e3
peak_mb = max(int(line) for line in open(sys.argv[1]) if line.strip()) / 1024
print("| %d | %d | %s | %.2f | %.2f | %.2f | %.1f |" % (runs[0]["np"], runs[0]["block_bytes"], runs[0]["auto"]["chosen"],
      best(lambda r: r["machine_us"]), best(lambda r: r["auto"]["choose_us"]), best(lambda r: r["rank_schedule_us"]),
      peak_mb))
'
walk_row='
import json, sys
lines = [json.loads(line) for line in sys.stdin if line.strip()]
runs = [lines[i:i + 3] for i in range(0, len(lines), 3)]  # three ranks a run
def best(key):  # the slowest rank of each run, the best run
    return min(max(key(r) for r in run) for run in runs)
first = lines[0]
print("| %d | %d | %s | %d | %.2f | %.2f | %.1f | %.1f | %.1f | %.0f | %.1f |" % (
    first["p"], first["block_bytes"], first["algorithm"], max(r["sends"] + r["receives"] for r in lines),
    best(lambda r: r["choose_us"]) / 1e3, best(lambda r: r["rank_schedule_us"] + r["execution_plan_us"]) / 1e3,
    best(lambda r: r["first_walk_us"]), best(lambda r: r["repeated_walk_us"]), best(lambda r: r["bare_loop_us"]),
    max(r["plan_bytes"] for r in lines) / 1024, max(r["peak_rss_kib"] for r in lines) / 1024))
'
if ((walk)); then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # a singleton MPI process
  row=$walk_row
  echo "| p | block | chosen | messages | choose (ms) | schedule + plan (ms) | first walk (us) | repeated call (us) | bare loop (us) | plan (KiB) | peak memory (MB) |"
  echo "| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
else
  row=$choice_row
  echo "| p | block | chosen | machine (ms) | choose (ms) | rank's schedule (ms) | peak memory (MB) |"
  echo "| ---: | ---: | --- | ---: | ---: | ---: | ---: |"
fi
for p in $ranks; do
  spec=$(machine_of "$p") || exit 2
  read -ra machine <<<"$spec"
  for bytes in $sizes; do
    runs_of_point "$p" "$bytes" "${machine[@]}" | python3 -c "$row" "$memory"
    : >"$memory"
  done
done
