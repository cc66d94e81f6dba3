#!/usr/bin/env bash
# Liu's four-stage alltoallv against the direct exchange, pairwise and SMPI's own MPI_Alltoallv
# (ompi and mpich selectors), with lg and overlap where there are two clusters, on irregular
# traffic (topocoll-bench --pattern: uniform, zipf:1.2, sparse:4, hotspot:2, seed 1) at 64
# ranks on three simulated networks written by topocoll-platform into results/liu/:
#   fullbisection-64   two leaf switches of 32 hosts, 32 uplinks each (no oversubscription):
#                      a crossbar for the traffic, 100 Gbit/s and 1 us per hop
#   switch-tree-4x16   four leaves of 16 hosts, one 100 Gbit/s uplink each (16:1)
#   two-clusters-32-32 the LG paper's grid (1 Gbit/s nodes, 10 Gbit/s / 5 ms backbone)
# Per-pair sizes around 16 B, 1 KiB and 16 KiB. Two models: SMPI-unit (no per-message cost)
# and 1 us of CPU per message sent and received (smpi/os, ois, or), the start-ups liu saves.
# Local copies charged at 5 GB/s (the library's default). One timed call per point after the
# set-up call (simulated time is deterministic), all ranks starting at one instant (--sync
# window); the time of a call is max_us (until the last rank is done).
# Writes results/liu/liu.csv (MODEL,PLATFORM,PATTERN,SELECTOR, then topocoll-bench's columns).
# Usage: scripts/liu-experiment.sh
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out="$repo/results/liu"
mkdir -p "$out"
platform_tool="$repo/build/mpi/tools/topocoll-platform"
[[ -x $platform_tool ]] || { echo "$0: build the mpi preset first (cmake --build --preset mpi)" >&2; exit 2; }
"$platform_tool" switch-tree --leaves 2 --hosts-per-leaf 32 --uplinks 32 --name fullbisection-64 -o "$out" >/dev/null
"$platform_tool" switch-tree --leaves 4 --hosts-per-leaf 16 --name switch-tree-4x16 -o "$out" >/dev/null
"$platform_tool" two-clusters --n1 32 --n2 32 --name two-clusters-32-32 -o "$out" >/dev/null

csv="$out/liu.csv"
echo "model,platform,pattern,selector,op,algorithm,np,bytes,avg_us,min_us,max_us,iterations,valid" >"$csv"
flags=(--format csv --copy-bandwidth 5e9 --sync window -i 1 -x 0 --op alltoallv --seed 1)

# run MODEL PLATFORM PATTERN SELECTOR ALGORITHMS
run() {
  local model=$1 platform=$2 pattern=$3 selector=$4 algorithms=$5 cfg=()
  [[ $model == overhead-1us ]] && cfg=(--cfg smpi/os:0:1e-6:0 --cfg smpi/ois:0:1e-6:0 --cfg smpi/or:0:1e-6:0)
  for m in 16 1024 16384; do
    echo "# $model $platform $pattern $selector $algorithms -m $m" >&2
    "$repo/scripts/simulate.sh" --selector "$selector" "${cfg[@]}" "$out/$platform.xml" 64 -- "${flags[@]}" \
      --pattern "$pattern" --algorithms "$algorithms" -m "$m" 2>/dev/null |
      grep -v '^#' | grep -v '^op,' | sed "s/^/$model,$platform,$pattern,$selector,/" >>"$csv"
  done
}

for model in SMPI-unit overhead-1us; do
  for platform in fullbisection-64 switch-tree-4x16 two-clusters-32-32; do
    algorithms=liu,direct,pairwise,native
    [[ $platform == two-clusters-32-32 ]] && algorithms=liu,direct,pairwise,lg,overlap,native
    for pattern in uniform zipf:1.2 sparse:4 hotspot:2; do
      run "$model" "$platform" "$pattern" ompi "$algorithms"
      run "$model" "$platform" "$pattern" mpich native
    done
  done
done
echo "wrote $csv" >&2
