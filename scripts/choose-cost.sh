#!/usr/bin/env bash
# What auto's first call for a block size costs a rank, against the number of ranks: the time
# to choose (select_algorithm with early stops, what the executor runs: topocoll-plan's
# choose_us) and to build one rank's schedule of the choice (rank_schedule_us), on two equal
# clusters with the two-clusters-30-30 calibration, at 16 B and 64 KiB blocks. Prints a markdown
# table for docs/results.md. Each point is the best of RUNS runs of topocoll-plan --choose-only
# (wall-clock time on this machine, which varies up to 2x from run to run).
# Usage: scripts/choose-cost.sh [--runs N] [--ranks "P1 P2 ..."] [--build-dir DIR]
#   --runs N         runs per point, the best kept (default 5)
#   --ranks LIST     even rank counts (default "64 256 1024 4096 16384")
#   --build-dir DIR  a configured and built mpi-preset tree (default build/mpi, built if needed)
set -euo pipefail
cd "$(dirname "$0")/.."

runs=5 ranks="64 256 1024 4096 16384" build=build/mpi
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --build-dir) build=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "choose-cost.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for p in $ranks; do
  if (( p < 2 || p % 2 )); then echo "choose-cost.sh: rank counts must be even and at least 2, not '$p'" >&2; exit 2; fi
done
plan=$build/tools/topocoll-plan
if [[ ! -x $plan ]]; then
  cmake --preset mpi >/dev/null
  cmake --build --preset mpi --target topocoll-plan -j "$(nproc)"
fi
calibration=platforms/two-clusters-30-30.calibration.json

echo "| p | block | chosen | choose (ms) | rank's schedule (ms) |"
echo "| ---: | ---: | --- | ---: | ---: |"
for p in $ranks; do
  for bytes in 16 65536; do
    for ((i = 0; i < runs; i++)); do
      "$plan" --algorithm auto --choose-only --topology "clusters:$((p / 2)),$((p / 2))" --block-bytes "$bytes" \
        --calibration "$calibration" --format json
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
choose = min(r["auto"]["choose_us"] for r in runs) / 1e3
schedule = min(r["rank_schedule_us"] for r in runs) / 1e3
print("| %d | %d | %s | %.2f | %.2f |" % (runs[0]["np"], runs[0]["block_bytes"], runs[0]["auto"]["chosen"], choose, schedule))
'
  done
done
