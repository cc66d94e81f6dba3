#!/usr/bin/env bash
# The fluid model's reading by bottlenecks (topocoll-plan --fluid-reading bottlenecks,
# docs/algorithms.md "The fluid model") against its exact reading (--fluid-reading every-link,
# within 0.002% of SimGrid on skewed traffic at 512 ranks), on skewed traffic at 512 to 4096
# ranks: the points where the exact reading can still be read, to tell the error of the reading
# the automatic one takes past its budget.
#
# Points (alltoallv with topocoll-bench's patterns, 1 KiB): a tree of 4 leaves x 8 hosts x 16
# ranks and two clusters of 200 + 312 ranks, one per host (both generated as
# scripts/fluid-validation.sh --large makes them), and the scale study's trees of 1024 to 4096
# ranks (results/fluid-scale/fat-4xNx16); with --large also two clusters of 400 + 624 and 800 +
# 1248 ranks, one per host.
#
# Usage: scripts/fluid-bottlenecks-check.sh [--large] [--work DIR]
#   --large      also pairwise with zipf:1 on the trees of 2048 and 4096 ranks and the two
#                larger pairs of clusters: about 4 minutes more
#   --work DIR   where the generated platforms go (default: build/fluid-validation)
# Prints CSV: platform,np,pattern,algorithm,bytes,exact_us,exact_s,bottlenecks_us,bottlenecks_s,error
# (error: bottlenecks / exact - 1; _s: the model's own time, in seconds). About 40 s.
# Needs the mpi preset's topocoll-platform and topocoll-plan.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
large=0 work="$repo/build/fluid-validation"
while [[ $# -gt 0 ]]; do
  case $1 in
    --large) large=1; shift ;;
    --work) [[ $# -ge 2 ]] || { echo "fluid-bottlenecks-check.sh: --work needs a folder" >&2; exit 2; }; work=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fluid-bottlenecks-check.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
platform_tool="$repo/build/mpi/tools/topocoll-platform" plan="$repo/build/mpi/tools/topocoll-plan"
for tool in "$platform_tool" "$plan"; do
  [[ -x $tool ]] || { echo "fluid-bottlenecks-check.sh: $tool is missing: build the mpi preset" >&2; exit 2; }
done
mkdir -p "$work"
wide="$work/tree-4x8x16" apart="$work/two-clusters-200-312" scale="$repo/results/fluid-scale"
[[ -f $wide.xml ]] || "$platform_tool" switch-tree --leaves 4 --hosts-per-leaf 8 --ranks-per-host 16 \
  --uplink-bw 800Gbps --name tree-4x8x16 -o "$work" >/dev/null
[[ -f $apart.xml ]] || "$platform_tool" two-clusters --n1 200 --n2 312 --name two-clusters-200-312 \
  -o "$work" >/dev/null

# PLATFORM NP PATTERN ALGORITHM BYTES
points=()
for algorithm in pairwise direct overlap liu; do
  for pattern in zipf:1 hotspot:4; do points+=("$wide 512 $pattern $algorithm 1024"); done
done
points+=(
  "$apart 512 zipf:1 pairwise 1024"
  "$apart 512 zipf:1 liu 1024"
  "$scale/fat-4x16x16 1024 zipf:1 pairwise 1024"
  "$scale/fat-4x16x16 1024 hotspot:4 pairwise 1024"
  "$scale/fat-4x16x16 1024 hotspot:4 overlap 1024"
)
if ((large)); then
  for n in 400:624 800:1248; do
    near="$work/two-clusters-${n%:*}-${n#*:}"
    [[ -f $near.xml ]] || "$platform_tool" two-clusters --n1 "${n%:*}" --n2 "${n#*:}" \
      --name "$(basename "$near")" -o "$work" >/dev/null
    points+=("$near $((${n%:*} + ${n#*:})) zipf:1 pairwise 1024")
  done
  points+=(
    "$scale/fat-4x32x16 2048 zipf:1 pairwise 1024"
    "$scale/fat-4x64x16 4096 zipf:1 pairwise 1024"
  )
fi

# The model's time and its own run time (s) for one reading.
price() {
  local platform=$1 pattern=$2 algorithm=$3 bytes=$4 reading=$5 start end us
  start=$(date +%s.%N)
  us=$("$plan" --op alltoallv --pattern "$pattern" --algorithm "$algorithm" --topology "$platform.topology.json" \
    --hostfile "$platform.hosts" --network "$platform.xml" -b "$bytes" --fluid --fluid-reading "$reading" \
    --format json | sed -n 's/.*"fluid_us": \([0-9.e+-]*\).*/\1/p')
  end=$(date +%s.%N)
  echo "$us $(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }')"
}

echo "platform,np,pattern,algorithm,bytes,exact_us,exact_s,bottlenecks_us,bottlenecks_s,error"
failed=0
for point in "${points[@]}"; do
  read -r platform np pattern algorithm bytes <<<"$point"
  read -r exact exact_s <<<"$(price "$platform" "$pattern" "$algorithm" "$bytes" every-link)"
  read -r read read_s <<<"$(price "$platform" "$pattern" "$algorithm" "$bytes" bottlenecks)"
  if [[ -z $exact || -z $read ]]; then
    echo "fluid-bottlenecks-check.sh: no result for '$point' (exact '$exact', bottlenecks '$read')" >&2
    failed=1
    continue
  fi
  error=$(awk -v e="$exact" -v b="$read" 'BEGIN { printf "%+.4f", b / e - 1 }')
  echo "$(basename "$platform"),$np,$pattern,$algorithm,$bytes,$(printf %.1f "$exact"),$exact_s,$(printf %.1f "$read"),$read_s,$error"
done
exit "$failed"
