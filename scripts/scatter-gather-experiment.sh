#!/usr/bin/env bash
# Kandalla et al.'s scatter and gather in simulation (topology-aware-scatter-gather-infiniband.txt,
# Sec. 5, quiet network): 296 ranks on platforms/ib-switch-tree (4 nodes of switch A, 29 of B,
# platforms/ib-switch-tree-296.hosts), rooted at rank 0 (switch A), for linear, binomial, topo
# (as published: every level, binomial phases) and topo as a two-level tree (the switch level
# skipped, stars: node leaders straight to the root), beside SMPI's own scatter and gather under
# the ompi, mpich and mvapich2 selectors, and auto (platforms/ib-switch-tree*.calibration.json),
# from the cost model alone and, on the quiet network, with a decision table tuned on this job
# (auto-tuned: platforms/ib-switch-tree*-tuned.calibration.json, made by topocoll-tune when absent).
# Two models: SMPI-unit (flow-level, no per-message cost)
# and the same with 1 us of CPU per message sent and received (smpi/os, smpi/ois, smpi/or), the
# start-up cost that decides small messages on real hardware. Blocks of 16 B, 1 KiB and 16 KiB
# per rank validated; 256 KiB on shared buffers (timing only: 296 ranks x 296 x 256 KiB of buffers
# would not fit memory).
# The time of a rooted call is max_us (--sync window: from a common start until the last rank).
# Writes results/ib-switch-tree/scatter-gather.csv (MODEL,SERIES, then topocoll-bench's columns)
# and prints its progress on standard error.
#
# With `busy`, the same job on a busy network (Sec. 5's background job: topocoll-bench
# --background-ranks, an all-to-all between the two switches only, 4 MB per pair, on nodes the
# measured job leaves free), under SMPI-unit in two forms, since SimGrid shares a link's bandwidth
# equally among the flows crossing it, where an InfiniBand switch arbitrates among its input
# ports: busy-96 (the paper's 96 background ranks, platforms/ib-switch-tree-busy.hosts) and
# busy-nodes (one background rank on each of the 7 free nodes,
# platforms/ib-switch-tree-busy-nodes.hosts: each node's port weighs as one flow), for blocks of
# 1 KiB and 16 KiB; writes results/ib-switch-tree/scatter-gather-busy.csv.
# Usage: scripts/scatter-gather-experiment.sh [quiet|busy]   (default quiet)
set -euo pipefail
network=${1:-quiet}
[[ $network == quiet || $network == busy ]] || { echo "usage: $0 [quiet|busy]" >&2; exit 2; }

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=study-flags.sh
source "$repo/scripts/study-flags.sh"
out="$repo/results/ib-switch-tree"
mkdir -p "$out"
csv="$out/scatter-gather.csv"
[[ $network == busy ]] && csv="$out/scatter-gather-busy.csv"
echo "model,series,op,algorithm,np,bytes,avg_us,min_us,max_us,iterations,valid" >"$csv"

# auto's calibration under each model: made on the quiet network by scripts/calibrate.sh with the
# model's settings (the commands are recorded in the files).
calibration_of() {
  if [[ $1 == overhead-1us ]]; then echo "$repo/platforms/ib-switch-tree-overhead-1us.calibration.json"
  else echo "$repo/platforms/ib-switch-tree.calibration.json"; fi
}

# The overhead-1us model's settings: 1 us of CPU per message sent, posted and received.
overhead_cfg=(--cfg smpi/os:0:1e-6:0 --cfg smpi/ois:0:1e-6:0 --cfg smpi/or:0:1e-6:0)

# auto-tuned's calibration under a quiet model: the model's calibration plus the decision table that
# scripts/simulate.sh --program topocoll-tune measures once on this job under that model (gather and
# scatter at 16 B, 1 KiB and 16 KiB, root 0; one repetition: simulated time is deterministic), so
# that auto runs the measured winner there and the cost model at 256 KiB (docs/tuning.md).
tuned_calibration_of() {
  local model=$1 file cfg=()
  file="$repo/platforms/ib-switch-tree-tuned.calibration.json"
  if [[ $model == overhead-1us ]]; then
    file="$repo/platforms/ib-switch-tree-overhead-1us-tuned.calibration.json"
    cfg=("${overhead_cfg[@]}")
  fi
  if [[ ! -f $file ]]; then
    echo "# tuning $model into $file" >&2
    "$repo/scripts/simulate.sh" --program topocoll-tune --hostfile "$repo/platforms/ib-switch-tree-296.hosts" \
      "${cfg[@]}" ib-switch-tree 296 -- --op gather,scatter --root 0 --sizes 16,1024,16384 --repeat 1 -i 1 -x 0 \
      --calibration "$(calibration_of "$model")" --output "$file" >&2
  fi
  echo "$file"
}

# run MODEL SERIES SELECTOR OP ALGORITHMS SIZES [BENCH FLAGS...]
run() {
  local model=$1 series=$2 selector=$3 op=$4 algorithms=$5 sizes=$6
  shift 6
  local cfg=() hostfile=ib-switch-tree-296.hosts background=0
  [[ $model == overhead-1us ]] && cfg=("${overhead_cfg[@]}")
  [[ $model == busy-96 ]] && hostfile=ib-switch-tree-busy.hosts background=96
  [[ $model == busy-nodes ]] && hostfile=ib-switch-tree-busy-nodes.hosts background=7
  local job=()
  ((background > 0)) && job=(--background-ranks "$background")
  echo "# $model $series $op $algorithms -m $sizes $*" >&2
  "$repo/scripts/simulate.sh" --hostfile "$repo/platforms/$hostfile" --selector "$selector" \
    "${cfg[@]}" ib-switch-tree $((296 + background)) -- --op "$op" --root 0 "${study_bench_flags[@]}" \
    --algorithms "$algorithms" -m "$sizes" "${job[@]}" "$@" 2>/dev/null |
    grep -v '^#' | grep -v '^op,' | sed "s/^/$model,$series,/" >>"$csv"
}

models=(SMPI-unit overhead-1us)
all_sizes=(16 1024 16384 262144)
if [[ $network == busy ]]; then
  models=(busy-96 busy-nodes)
  all_sizes=(1024 16384)
fi
for model in "${models[@]}"; do
  for op in gather scatter; do
    for sizes in "${all_sizes[@]}"; do
      shared=()
      [[ $sizes == 262144 ]] && shared=(--shared-malloc)
      run "$model" topocoll ompi "$op" linear,binomial,topo "$sizes" "${shared[@]}"
      run "$model" two-level ompi "$op" topo "$sizes" --topo-skip 1 --topo-stars 6 "${shared[@]}"
      run "$model" auto ompi "$op" auto "$sizes" --calibration "$(calibration_of "$model")" "${shared[@]}"
      [[ $network == quiet ]] &&
        run "$model" auto-tuned ompi "$op" auto "$sizes" --calibration "$(tuned_calibration_of "$model")" "${shared[@]}"
      for selector in ompi mpich mvapich2; do
        # SimGrid 3.32's mvapich2 gather crashes on this platform (segmentation fault): left out.
        [[ $selector == mvapich2 && $op == gather ]] && continue
        run "$model" "native-$selector" "$selector" "$op" native "$sizes" "${shared[@]}"
      done
    done
  done
done
echo "# wrote $csv" >&2
