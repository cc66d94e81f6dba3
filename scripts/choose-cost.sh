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
# Usage: scripts/choose-cost.sh [--runs N] [--ranks "P1 P2 ..."] [--node-aware] [--build-dir DIR]
#   --runs N         runs per point, the best kept (default 5)
#   --ranks LIST     even rank counts (default "64 256 1024 4096 16384"; --node-aware: "1024 2048
#                    4096 8192 16384", those of results/fluid-scale)
#   --node-aware     the switch trees of 16 ranks per host instead of two clusters
#   --build-dir DIR  a configured and built mpi-preset tree (default build/mpi, built if needed)
set -euo pipefail
cd "$(dirname "$0")/.."

runs=5 ranks="" build=build/mpi node_aware=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --node-aware) node_aware=1; shift ;;
    --build-dir) build=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
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
plan=$build/tools/topocoll-plan
if [[ ! -x $plan ]]; then
  cmake --preset mpi >/dev/null
  cmake --build --preset mpi --target topocoll-plan -j "$(nproc)"
fi
memory=$(mktemp)
trap 'rm -f "$memory"' EXIT

echo "| p | block | chosen | machine (ms) | choose (ms) | rank's schedule (ms) | peak memory (MB) |"
echo "| ---: | ---: | --- | ---: | ---: | ---: | ---: |"
for p in $ranks; do
  spec=$(machine_of "$p") || exit 2
  read -ra machine <<<"$spec"
  for bytes in $sizes; do
    for ((i = 0; i < runs; i++)); do
      /usr/bin/time -f "%M" -a -o "$memory" "$plan" --algorithm auto --choose-only "${machine[@]}" \
        --block-bytes "$bytes" --calibration "$calibration" --format json
    done | python3 -c '
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
' "$memory"
    : >"$memory"
  done
done
