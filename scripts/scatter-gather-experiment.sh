#!/usr/bin/env bash
# Kandalla et al.'s scatter and gather in simulation (topology-aware-scatter-gather-infiniband.txt,
# Sec. 5, quiet network): 296 ranks on platforms/ib-switch-tree (4 nodes of switch A, 29 of B,
# platforms/ib-switch-tree-296.hosts), rooted at rank 0 (switch A), for linear, binomial, topo
# (as published: every level, binomial phases) and topo as a two-level tree (the switch level
# skipped, stars: node leaders straight to the root), beside SMPI's own scatter and gather under
# the ompi, mpich and mvapich2 selectors. Two models: SMPI-unit (flow-level, no per-message cost)
# and the same with 1 us of CPU per message sent and received (smpi/os, smpi/ois, smpi/or), the
# start-up cost that decides small messages on real hardware. Blocks of 16 B, 1 KiB and 16 KiB
# per rank validated; 256 KiB on shared buffers (timing only: 296 ranks x 296 x 256 KiB of buffers
# would not fit memory).
# The time of a rooted call is max_us (--sync window: from a common start until the last rank).
# Writes results/ib-switch-tree/scatter-gather.csv (MODEL,SERIES, then topocoll-bench's columns)
# and prints its progress on standard error. Usage: scripts/scatter-gather-experiment.sh
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=study-flags.sh
source "$repo/scripts/study-flags.sh"
out="$repo/results/ib-switch-tree"
mkdir -p "$out"
csv="$out/scatter-gather.csv"
echo "model,series,op,algorithm,np,bytes,avg_us,min_us,max_us,iterations,valid" >"$csv"

# run MODEL SERIES SELECTOR OP ALGORITHMS SIZES [BENCH FLAGS...]
run() {
  local model=$1 series=$2 selector=$3 op=$4 algorithms=$5 sizes=$6
  shift 6
  local cfg=()
  [[ $model == overhead-1us ]] && cfg=(--cfg smpi/os:0:1e-6:0 --cfg smpi/ois:0:1e-6:0 --cfg smpi/or:0:1e-6:0)
  echo "# $model $series $op $algorithms -m $sizes $*" >&2
  "$repo/scripts/simulate.sh" --hostfile "$repo/platforms/ib-switch-tree-296.hosts" --selector "$selector" \
    "${cfg[@]}" ib-switch-tree 296 -- --op "$op" --root 0 "${study_bench_flags[@]}" --algorithms "$algorithms" -m "$sizes" "$@" 2>/dev/null |
    grep -v '^#' | grep -v '^op,' | sed "s/^/$model,$series,/" >>"$csv"
}

for model in SMPI-unit overhead-1us; do
  for op in gather scatter; do
    for sizes in 16 1024 16384 262144; do
      shared=()
      [[ $sizes == 262144 ]] && shared=(--shared-malloc)
      run "$model" topocoll ompi "$op" linear,binomial,topo "$sizes" "${shared[@]}"
      run "$model" two-level ompi "$op" topo "$sizes" --topo-skip 1 --topo-stars 6 "${shared[@]}"
      for selector in ompi mpich mvapich2; do
        # SimGrid 3.32's mvapich2 gather crashes on this platform (segmentation fault): left out.
        [[ $selector == mvapich2 && $op == gather ]] && continue
        run "$model" "native-$selector" "$selector" "$op" native "$sizes" "${shared[@]}"
      done
    done
  done
done
echo "# wrote $csv" >&2
