#!/usr/bin/env bash
# The LG paper's experiments in simulation (lg-two-cluster-total-exchange.txt, Sec. 5): total
# exchange between two clusters joined by a 10 Gbps backbone (Grid'5000 Nancy-Rennes, modelled in
# docs/platforms.md), topocoll's lg, overlap and auto beside the flat algorithms and SMPI's own
# MPI_Alltoall under the Open MPI and MPICH selectors, with the platform's lower bound. auto
# reads a calibration of each platform measured first under the same model (calibrate.sh).
#   Fig. 4: time against block size, 1 B .. 16 MiB, on two-clusters-30-30 and two-clusters-20-40;
#   Figs. 5 and 6: time against process count at 64 KiB and 512 KiB, n1 = n2 and n2 = 2 n1
#   (platforms generated with topocoll-platform into build/platforms).
# Writes CSV files (topocoll-bench's columns), the bounds, the calibrations (calibration-*.json),
# a log (SimGrid configurations and wall-clock times), tables (two-cluster-table.awk) and PNG
# plots (two-cluster-plot.sh) into results/two-clusters-MODEL/. Prints its progress on
# standard error.
# Usage: scripts/two-cluster-experiment.sh [--model SMPI-unit|CM02|SMPI-default] [--cfg KEY:VALUE]...
#          [--figures 4|56|all] [--out DIR] [--equal-counts "N1 ..."] [--double-counts "N1 ..."]
#          [--sizes "B ..."] [--append] [--only NAMES] [--tables-only] [--call-limit SECONDS]
# --append adds Figs. 5/6 points to the CSV files already in DIR (e.g. larger process counts);
# --sizes gives the block sizes of Figs. 5/6 (default "65536 524288", the paper's); --only runs,
# at each Figs. 5/6 point, only the named series (comma-separated: flat, auto, native, lg, bound;
# default all), e.g. --append --only lg to add lg where it is missing;
# --tables-only remakes the tables and plots from the CSV files in DIR. --call-limit stops any
# one simulation after that many seconds of wall-clock time (default 1800; logged, shown as '-').
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
arguments="$*"
simulate="$repo/scripts/simulate.sh"
platform_tool="$repo/build/mpi/tools/topocoll-platform"

model=SMPI-unit
figures=all
out=""
extra=()
# Process counts of Figs. 5/6 (n1 of each point): up to 256 ranks and beyond, as the issue asks
# ("at least 256"). The NONBLOCKING switches of the generated platforms keep the largest points
# to minutes of wall-clock time (docs/platforms.md).
equal_counts=(4 8 16 32 64 128)    # n1 = n2: p = 8 .. 256
double_counts=(4 8 16 32 64 86)    # n2 = 2 n1: p = 12 .. 258
fig56_sizes=(65536 524288)         # block sizes of Figs. 5/6 (64 KiB and 512 KiB)
# Beyond 128 ranks `direct` (all p (p - 1) flows at once) is not simulated: SimGrid re-solves the
# sharing of every flow at each event, and at 256 ranks one call ran for over 10 minutes.
readonly direct_max_np=128
# No call may run longer than this (wall-clock seconds; --call-limit).
call_limit=1800
append=0
tables_only=0
only=flat,auto,native,lg,bound
while [[ $# -gt 0 ]]; do
  case "$1" in
    --model) model=$2; shift 2 ;;
    --cfg) extra+=(--cfg "$2"); shift 2 ;;
    --figures) figures=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --equal-counts) read -r -a equal_counts <<<"$2"; shift 2 ;;
    --double-counts) read -r -a double_counts <<<"$2"; shift 2 ;;
    --append) append=1; shift ;;
    --tables-only) tables_only=1; shift ;;
    --call-limit) call_limit=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --sizes) read -r -a fig56_sizes <<<"$2"; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "two-cluster-experiment.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$figures" in 4|56|all) ;; *) echo "--figures takes 4, 56 or all" >&2; exit 2 ;; esac
for name in ${only//,/ }; do
  case "$name" in flat|auto|native|lg|bound) ;;
    *) echo "two-cluster-experiment.sh: --only takes flat, auto, native, lg and bound, not '$name'" >&2; exit 2 ;;
  esac
done
# Whether --only names series $1.
wanted() { [[ ",$only," == *",$1,"* ]]; }
[[ -n "$out" ]] || out="$repo/results/two-clusters-$(echo "$model" | tr '[:upper:]' '[:lower:]')"
mkdir -p "$out" "$repo/build/platforms"

# Build what is missing: the benchmark (smpi flavour) and topocoll-platform (mpi flavour).
"$repo/scripts/install-deps.sh"
# Built or brought up to date every time (a no-op when current): a binary left from an older
# checkout would simulate or generate something else than the sources say.
[[ -f "$repo/build/smpi/CMakeCache.txt" ]] || (cd "$repo" && cmake --preset smpi >/dev/null)
cmake --build "$repo/build/smpi" -j2 --target topocoll-bench topocoll-calibrate >/dev/null
[[ -f "$repo/build/mpi/CMakeCache.txt" ]] || (cd "$repo" && cmake --preset mpi >/dev/null)
cmake --build "$repo/build/mpi" -j2 --target topocoll-platform >/dev/null

# The study's copy bandwidth, synchronised start and calls per point: scripts/study-flags.sh.
# shellcheck source=study-flags.sh
source "$repo/scripts/study-flags.sh"
readonly common=("${study_bench_flags[@]}")
readonly small=1:65536                 # validated byte for byte against MPI_Alltoall
readonly large=131072:16777216         # timing only: shared buffers (valid = skipped)
readonly lg_whole=131072:1048576       # lg's messages gather blocks: SMPI copies them into
readonly lg_pieces=262144:16777216     # temporary buffers, so above 1 MiB lg runs in pieces
readonly lg_piece_bytes=262144

log="$out/experiment.log"
start=$SECONDS
step=0
steps=0
announce() {
  step=$((step + 1))
  echo "[$step/$steps $((SECONDS - start)) s] $*" >&2
  echo "# $((SECONDS - start)) s: $*" >>"$log"
}

# Runs simulate.sh (the SimGrid configuration goes to the log) and prints the CSV, without its
# header unless $1 is 'header'.
# A call that exceeds call_limit seconds of wall-clock time is stopped, and a call that fails
# (SimGrid crashes in a few configurations) is skipped: their algorithms then show '-' in the
# tables, and the log says which and why; the study goes on.
run() {
  local header=$1
  shift
  echo "## scripts/simulate.sh --model $model ${extra[*]} $*" >>"$log"
  local status=0 output
  output=$(timeout -k 10 "$call_limit" "$simulate" --model "$model" "${extra[@]}" "$@" 2>>"$log") || status=$?
  if ((status == 124 || status == 137)); then
    echo "# stopped after ${call_limit} s of wall-clock time (not run)" >>"$log"
  elif ((status != 0)); then
    echo "# failed with exit status $status (not run)" >>"$log"
    echo "two-cluster-experiment.sh: a simulation failed (status $status), see $log" >&2
  fi
  if [[ -n "$output" && "$header" == header ]]; then
    printf '%s\n' "$output"
  elif [[ -n "$output" ]]; then
    printf '%s\n' "$output" | tail -n +2
  fi
}

# What Open MPI 4.1's decision (SMPI's ompi selector) runs at P ranks and B bytes per block is
# SMPI's `pair` when it says "pairwise"; that one only works for P a power of two (it crashes
# otherwise), so there the same exchange pattern is forced as SMPI's `ring` (Open MPI's pairwise
# is the shift: send to rank+i, receive from rank-i).
ompi_needs_ring() {
  local p=$1 bytes=$2
  (( (p & (p - 1)) == 0 )) && return 1
  if ((p >= 64 && p < 256)); then ((bytes >= 262144)); return; fi
  if ((p >= 256 && p < 512)); then ((bytes >= 32768)); return; fi
  return 1
}

# lg's piece size at P ranks for B-byte blocks: SMPI's temporary buffers for lg's gathered
# messages take about 4 P^2 x piece bytes at once; keep that near 4 GiB (0: whole blocks), but
# no piece below 32 KiB. lg's smallest message carries two pieces, and a message under SMPI's
# send-is-detached-thresh (64 KiB, pinned by simulate.sh) is a detached send: SimGrid 3.32 keeps
# every detached send of the run in one list and finds each one by a linear scan when it ends,
# so the tens of thousands in flight in lg's local phase at 256 ranks cost quadratic time (16 KiB
# pieces: stopped after 15 minutes; 32 KiB: 54 s, 17 GB resident).
readonly lg_min_piece=32768
lg_piece_for() {
  local p=$1 bytes=$2 piece=1
  while ((piece * 2 * p * p <= 1073741824)); do piece=$((piece * 2)); done
  ((piece < lg_min_piece)) && piece=$lg_min_piece
  ((bytes > piece)) && echo "$piece" || echo 0
}

# auto's calibration of a platform (XML path), measured once per results directory under the
# study's model and settings; prints its path.
calibration_for() {
  local xml=$1 name
  name=$(basename "$xml" .xml)
  local file="$out/calibration-$name.json"
  if [[ ! -f "$file" ]]; then
    echo "## scripts/calibrate.sh --model $model ${extra[*]} --output $file $xml ${xml%.xml}.topology.json -- ${study_calibrate_flags[*]}" >>"$log"
    "$repo/scripts/calibrate.sh" --model "$model" "${extra[@]}" --output "$file" "$xml" \
      "${xml%.xml}.topology.json" -- "${study_calibrate_flags[@]}" 2>>"$log" >&2
  fi
  echo "$file"
}

fig4() {
  local platform=$1 xml="$repo/platforms/$1.xml" np=60 prefix="$out/fig4-$1" calibration
  calibration=$(calibration_for "$xml")
  announce "Fig. 4 $platform: lg, overlap, auto, direct, pairwise, bruck, native (ompi), 1 B .. 64 KiB, validated"
  run header --selector ompi "$platform" $np -- "${common[@]}" --calibration "$calibration" \
    --algorithms lg,overlap,auto,direct,pairwise,bruck,native -m $small >"$prefix-ompi.csv"
  announce "Fig. 4 $platform: overlap, auto, direct, pairwise, native (ompi), 128 KiB .. 16 MiB, shared buffers"
  run no-header --selector ompi "$platform" $np -- "${common[@]}" --calibration "$calibration" \
    --algorithms overlap,auto,direct,pairwise,native --shared-malloc -m $large >>"$prefix-ompi.csv"
  announce "Fig. 4 $platform: lg, 128 KiB .. 1 MiB, whole blocks, shared buffers"
  run no-header --selector ompi "$platform" $np -- "${common[@]}" --algorithms lg --shared-malloc \
    -m $lg_whole >>"$prefix-ompi.csv"
  announce "Fig. 4 $platform: lg in pieces of $lg_piece_bytes B, 256 KiB .. 16 MiB (the slow part)"
  run header --selector ompi "$platform" $np -- "${common[@]}" --algorithms lg --shared-malloc \
    --segment-bytes $lg_piece_bytes -m $lg_pieces >"$prefix-lg-pieces.csv"
  announce "Fig. 4 $platform: native (mpich), 1 B .. 16 MiB"
  run header --selector mpich "$platform" $np -- "${common[@]}" --algorithms native -m $small >"$prefix-mpich.csv"
  run no-header --selector mpich "$platform" $np -- "${common[@]}" --algorithms native --shared-malloc \
    -m $large >>"$prefix-mpich.csv"
  "$repo/scripts/two-cluster-bound.sh" "$xml" 1:16777216 >"$prefix-bound.csv"
}

# One point of Figs. 5/6: every algorithm at n1 + n2 ranks and B-byte blocks, appended to the
# series' files.
fig56_point() {
  local series=$1 n1=$2 n2=$3 bytes=$4
  local np=$((n1 + n2)) name="two-clusters-$n1-$n2" prefix="$out/fig56-$series"
  local xml="$repo/build/platforms/$name.xml"
  # Always regenerated: a file left by an older topocoll-platform may describe another machine.
  "$platform_tool" two-clusters --n1 "$n1" --n2 "$n2" --output-dir "$repo/build/platforms" >>"$log"
  local calibration=""
  wanted auto && calibration=$(calibration_for "$xml")
  announce "Figs. 5/6 $series: $n1 + $n2 ranks, $bytes B blocks"
  local flat=direct,pairwise
  ((np > direct_max_np)) && flat=pairwise
  if wanted flat; then
    run no-header --selector ompi "$xml" $np -- "${common[@]}" --shared-malloc --algorithms $flat -m "$bytes" \
      >>"$prefix-ompi.csv"
  fi
  if wanted auto; then
    run no-header --selector ompi "$xml" $np -- "${common[@]}" --shared-malloc --calibration "$calibration" \
      --algorithms auto -m "$bytes" >>"$prefix-ompi.csv"
  fi
  if wanted native; then
    if ompi_needs_ring $np "$bytes"; then
      run no-header --selector ompi --cfg smpi/alltoall:ring "$xml" $np -- "${common[@]}" --shared-malloc \
        --algorithms native -m "$bytes" >>"$prefix-ompi-ring.csv"
    else
      run no-header --selector ompi "$xml" $np -- "${common[@]}" --shared-malloc --algorithms native -m "$bytes" \
        >>"$prefix-ompi.csv"
    fi
    run no-header --selector mpich "$xml" $np -- "${common[@]}" --shared-malloc --algorithms native -m "$bytes" \
      >>"$prefix-mpich.csv"
  fi
  local piece
  piece=$(lg_piece_for $np "$bytes")
  if ! wanted lg; then
    :
  elif ((piece == 0)); then
    run no-header --selector ompi "$xml" $np -- "${common[@]}" --shared-malloc --algorithms lg -m "$bytes" \
      >>"$prefix-ompi.csv"
  else
    run no-header --selector ompi "$xml" $np -- "${common[@]}" --shared-malloc --algorithms lg \
      --segment-bytes "$piece" -m "$bytes" >>"$prefix-lg-pieces.csv"
  fi
  wanted bound || return 0
  "$repo/scripts/two-cluster-bound.sh" "$xml" "$bytes" | tail -n +2 >>"$prefix-bound.csv"
}

readonly csv_header="op,algorithm,np,bytes,avg_us,min_us,max_us,iterations,valid"
fig56() {
  local series=$1
  shift
  # New files get their header (with --append, only those that do not exist yet).
  local kind
  for kind in ompi ompi-ring mpich lg-pieces; do
    ((append)) && [[ -f "$out/fig56-$series-$kind.csv" ]] || echo "$csv_header" >"$out/fig56-$series-$kind.csv"
  done
  ((append)) && [[ -f "$out/fig56-$series-bound.csv" ]] ||
    echo "n1,n2,np,bytes,bound_us,limited_by,latency_us,node_link_us,wan_us,switch_us" >"$out/fig56-$series-bound.csv"
  local n1
  for n1 in "$@"; do
    local n2=$n1
    [[ "$series" == double ]] && n2=$((2 * n1))
    for bytes in "${fig56_sizes[@]}"; do fig56_point "$series" "$n1" "$n2" "$bytes"; done
  done
}

# The platform check: one message each way between the clusters (1 + 1 nodes) must cost the
# route latency plus (bytes + SMPI's 16-byte envelope) / 1 Gbps, copies made free.
ptp_check() {
  announce "platform check: 1 + 1 ranks across the backbone, direct, 1 B .. 16 MiB"
  "$platform_tool" two-clusters --n1 1 --n2 1 --output-dir "$repo/build/platforms" >>"$log"
  run header "$repo/build/platforms/two-clusters-1-1.xml" 2 -- --format csv --sync window -i 1 -x 0 \
    --algorithms direct --copy-bandwidth 1e15 -m 1:16777216 >"$out/ptp-1-1.csv"
}

if ((tables_only)); then
  awk -f "$repo/scripts/two-cluster-table.awk" -v dir="$out" -v model="$model" -v figures="$figures" >"$out/tables.md"
  "$repo/scripts/two-cluster-plot.sh" "$out" "$figures"
  exit 0
fi
[[ "$figures" != 56 ]] && steps=$((steps + 11))
((append)) || : >"$log"
[[ "$figures" != 4 ]] && steps=$((steps + ${#fig56_sizes[@]} * (${#equal_counts[@]} + ${#double_counts[@]})))
{
  echo "# two-cluster-experiment.sh $arguments (model $model, figures $figures)"
  echo "# $(smpirun -version 2>/dev/null | head -n 1); $(nproc) cores; started $(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >>"$log"
if [[ "$figures" != 56 ]]; then
  ptp_check
  fig4 two-clusters-30-30
  fig4 two-clusters-20-40
fi
if [[ "$figures" != 4 ]]; then
  fig56 equal "${equal_counts[@]}"
  fig56 double "${double_counts[@]}"
fi
elapsed=$((SECONDS - start))
echo "# total wall-clock time: ${elapsed} s" >>"$log"

# With --append the directory holds a whole study: its tables and plots cover every figure.
shown=$figures
((append)) && shown=all
awk -f "$repo/scripts/two-cluster-table.awk" -v dir="$out" -v model="$model" -v figures="$shown" >"$out/tables.md"
"$repo/scripts/two-cluster-plot.sh" "$out" "$shown"
echo "done in ${elapsed} s: $out/tables.md and the plots beside it" >&2
