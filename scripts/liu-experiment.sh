#!/usr/bin/env bash
# Liu's four-stage alltoallv against the direct exchange, pairwise and SMPI's own MPI_Alltoallv
# (ompi and mpich selectors), with lg and overlap where there are two clusters, on irregular
# traffic (topocoll-bench --pattern: uniform, zipf:1.2, sparse:4, hotspot:2, seed 1) at 64
# ranks (--ranks N: N) on three simulated networks written by topocoll-platform into results/liu/:
#   crossbar-64        two clusters of 32 hosts joined by a 6.4 Tbit/s backbone that no
#                      traffic can fill: a crossbar, 100 Gbit/s host links, about 2.3 us apart.
#                      Not run by default. SimGrid 3.32's max-min solver crashes there
#                      (segmentation fault in lmm::MaxMin::do_solve) from 63 ranks under the
#                      SMPI and CM02 models, native included: `direct` with 16-byte blocks at
#                      63 ranks crashes, at 62 it runs, and so does every arrangement tried
#                      where no shared link is the bottleneck (a switch tree with 3.2 Tbit/s
#                      uplinks, FATPIPE or SHARED backbones, 10 Gbit/s hosts), and with
#                      surf/precision 1e-6, contexts/stack-size or contexts/factory:thread;
#                      with network/crosstraffic:1 it runs, so the crossbar runs with it.
#   switch-tree-2x32   two leaf switches of 32 hosts under one spine, the traffic between them
#                      on one 100 Gbit/s uplink (32:1; docs/platforms.md, switch-tree)
#   two-clusters-32-32 the LG paper's grid (1 Gbit/s nodes, 10 Gbit/s / 5 ms backbone)
# Per-pair sizes around 16 B and 1 KiB. Two models: SMPI-unit (no per-message cost) and 1 us
# of CPU per message sent and received (smpi/os, ois, or), the start-ups liu saves.
# Local copies charged at 5 GB/s (the library's default). auto runs with a calibration of the
# platform under the same model (scripts/calibrate.sh, made here once: results/liu/PLATFORM.
# calibration.json and PLATFORM-overhead-1us.calibration.json), on the call's traffic shape;
# without its validation pass, which the same solver crash stops on switch-tree-2x32. One timed call per point after the
# set-up call (simulated time is deterministic), all ranks starting at one instant (--sync
# window); the time of a call is max_us (until the last rank is done).
# Writes results/liu/liu-PLATFORM.csv (MODEL,PLATFORM,PATTERN,SELECTOR, then topocoll-bench's
# columns) and liu-PLATFORM-auto.txt (what auto ran at each point). About 8 minutes a platform on two cores.
# Usage: scripts/liu-experiment.sh [--ranks N] [--patterns P,Q,...] [--sizes B,...] [--models M,...] [PLATFORM...]
#   --ranks N     ranks (even; default 64): the platforms are crossbar-N, switch-tree-2x(N/2) and
#                 two-clusters-(N/2)-(N/2) (default: the last two)
#   --patterns    default uniform,zipf:1.2,sparse:4,hotspot:2; --sizes default 16,1024;
#   --models      default SMPI-unit,overhead-1us (subsets for large N, whose points take longer)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out="$repo/results/liu"
mkdir -p "$out"
platform_tool="$repo/build/mpi/tools/topocoll-platform"
[[ -x $platform_tool ]] || { echo "$0: build the mpi preset first (cmake --build --preset mpi)" >&2; exit 2; }
np=64 patterns=uniform,zipf:1.2,sparse:4,hotspot:2 sizes=16,1024 models=SMPI-unit,overhead-1us
platforms=()
while (($# > 0)); do
  case $1 in
    --ranks) np=$2; shift 2 ;;
    --patterns) patterns=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --models) models=$2; shift 2 ;;
    -*) echo "$0: unknown option $1" >&2; exit 2 ;;
    *) platforms+=("$1"); shift ;;
  esac
done
[[ $np =~ ^[0-9]+$ ]] && ((np >= 4 && np % 2 == 0)) || { echo "$0: --ranks takes an even number from 4" >&2; exit 2; }
half=$((np / 2))
"$platform_tool" clusters --nodes "$half,$half" --node-bw 100Gbps --node-lat 1us --switch-lat 100ns \
  --wan-bw "$((np * 100))Gbps" --wan-lat 100ns --name "crossbar-$np" -o "$out" >/dev/null
"$platform_tool" switch-tree --leaves 2 --hosts-per-leaf "$half" --name "switch-tree-2x$half" -o "$out" >/dev/null
"$platform_tool" two-clusters --n1 "$half" --n2 "$half" --name "two-clusters-$half-$half" -o "$out" >/dev/null
((${#platforms[@]} > 0)) || platforms=("switch-tree-2x$half" "two-clusters-$half-$half")

flags=(--format csv --copy-bandwidth 5e9 --sync window -i 1 -x 0 --op alltoallv --seed 1)

# run MODEL PLATFORM PATTERN SELECTOR ALGORITHMS
log=$(mktemp)
trap 'rm -f "$log"' EXIT
overhead_cfg=(--cfg smpi/os:0:1e-6:0 --cfg smpi/ois:0:1e-6:0 --cfg smpi/or:0:1e-6:0)
# platform_cfg PLATFORM: settings of that platform's runs and calibrations. The crossbar, and every
# platform above 64 ranks (switch-tree-2x128 crashes the same way), run with
# network/crosstraffic:1 (a flow's acknowledgements take 5% of the reverse direction's
# bandwidth), the only setting found under which SimGrid 3.32 does not crash there (above).
platform_cfg() { [[ $1 == crossbar-* ]] || ((np > 64)) && echo "--cfg network/crosstraffic:1" || true; }
# calibration MODEL PLATFORM: the file auto reads under that model, measured once. Above 64 ranks
# it is the 64-rank platform's (the same hosts and links; a bigger backbone that no traffic fills
# on the crossbar): topocoll-calibrate's probes crash SimGrid 3.32 on crossbar-256 (segmentation
# fault with 1 us per message).
calibration() {
  local model=$1 platform=$2 file cfg=()
  if ((np > 64)); then
    case $platform in
      crossbar-*) platform=crossbar-64 ;;
      switch-tree-*) platform=switch-tree-2x32 ;;
      two-clusters-*) platform=two-clusters-32-32 ;;
    esac
  fi
  file="$out/$platform.calibration.json"
  [[ $model == overhead-1us ]] && file="$out/$platform-overhead-1us.calibration.json" && cfg+=("${overhead_cfg[@]}")
  # shellcheck disable=SC2207
  cfg+=($(platform_cfg "$platform"))
  if [[ ! -f $file ]]; then
    "$repo/scripts/calibrate.sh" "${cfg[@]}" --output "$file" "$out/$platform.xml" "$out/$platform.topology.json" \
      -- --copy-bandwidth 5e9 --validate-sizes none >&2
  fi
  echo "$file"
}

run() {
  local model=$1 platform=$2 pattern=$3 selector=$4 algorithms=$5 cfg=()
  [[ $model == overhead-1us ]] && cfg+=("${overhead_cfg[@]}")
  # shellcheck disable=SC2207
  cfg+=($(platform_cfg "$platform"))
  cfg+=(--calibration "$(calibration "$model" "$platform")")
  for m in ${sizes//,/ }; do
    echo "# $model $platform $pattern $selector $algorithms -m $m" >&2
    "$repo/scripts/simulate.sh" --selector "$selector" "${cfg[@]}" "$out/$platform.xml" "$np" -- "${flags[@]}" \
      --pattern "$pattern" --algorithms "$algorithms" -m "$m" 2>"$log" |
      grep -v '^#' | grep -v '^op,' | sed "s/^/$model,$platform,$pattern,$selector,/" >>"$out/liu-$platform.csv"
    # What auto ran (topocoll-bench says it on standard error).
    grep 'auto at' "$log" | sed "s/^/$model,$platform,$pattern: /" >>"$out/liu-$platform-auto.txt" || true
  done
}

for platform in "${platforms[@]}"; do
  [[ -f $out/$platform.xml ]] || { echo "$0: unknown platform '$platform'" >&2; exit 2; }
  echo "model,platform,pattern,selector,op,algorithm,np,bytes,avg_us,min_us,max_us,iterations,valid" \
    >"$out/liu-$platform.csv"
  : >"$out/liu-$platform-auto.txt"
  algorithms=liu,direct,pairwise,auto,native
  [[ $platform == two-clusters-* ]] && algorithms=liu,direct,pairwise,lg,overlap,auto,native
  for model in ${models//,/ }; do
    for pattern in ${patterns//,/ }; do
      run "$model" "$platform" "$pattern" ompi "$algorithms"
      run "$model" "$platform" "$pattern" mpich native
    done
  done
  echo "wrote $out/liu-$platform.csv" >&2
done
