#!/usr/bin/env bash
# Draws the scatter/gather study's figures with gnuplot (Kandalla et al.'s Figs. 2 and 3: time
# against bytes per rank, 296 ranks on the ib-switch-tree testbed) from the CSV files of
# scripts/scatter-gather-experiment.sh: fig2-gather.png and fig3-scatter.png, each with one panel
# per network model (quiet: SMPI-unit, overhead-1us; busy: busy-96, busy-nodes) and one curve per
# series (max_us, the last rank done), beside the network's lower bound of the quiet network
# (topocoll-platform bound; the busy network's own bound is higher).
# Usage: scripts/scatter-gather-plot.sh [RESULTS-DIR]   (default results/ib-switch-tree)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${1:-$repo/results/ib-switch-tree}
command -v gnuplot >/dev/null || { echo "scatter-gather-plot.sh: gnuplot is missing (scripts/install-deps.sh)" >&2; exit 2; }
platform_tool="$repo/build/mpi/tools/topocoll-platform"
[[ -x "$platform_tool" ]] || { echo "scatter-gather-plot.sh: build/mpi first (topocoll-platform gives the bound)" >&2; exit 2; }
csvs=()
for name in scatter-gather.csv scatter-gather-busy.csv; do [[ -s "$dir/$name" ]] && csvs+=("$dir/$name"); done
[[ ${#csvs[@]} -gt 0 ]] || { echo "scatter-gather-plot.sh: no scatter-gather CSV in $dir" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
series=(linear binomial topo two-level auto auto-tuned native-ompi native-mpich native-mvapich2)
titles=("linear" "binomial" "topo (as published)" "topo, two-level" "auto" "auto, tuned" "native (Open MPI)"
        "native (MPICH)" "native (MVAPICH2)")

# One table per model and operation: bytes, bound, then a column per series (NaN where missing).
# A CSV row: model,series,op,algorithm,np,bytes,avg_us,min_us,max_us,...; topocoll's series name
# its algorithms in the algorithm column.
tables() {
  local op=$1
  "$platform_tool" bound --platform "$repo/platforms/ib-switch-tree.xml" --op "$op" --root 0 \
    --hostfile "$repo/platforms/ib-switch-tree-296.hosts" -m 16:262144 >"$work/bound-$op.csv"
  awk -F, -v op="$op" -v dir="$work" -v names="${series[*]}" '
    FNR == 1 { next }
    FILENAME ~ /bound-/ { bound[$3] = $4; next }
    $3 != op { next }
    {
      name = $2 == "topocoll" ? $4 : $2
      t[$1, name, $6] = $9
      models[$1] = 1
      sizes[$1, $6] = 1
    }
    END {
      n = split(names, c, " ")
      for (m in models) {
        out = dir "/" m "-" op ".dat"
        for (b = 16; b <= 262144; b *= 2) {
          if (!((m, b) in sizes)) continue
          line = b " " (b in bound ? bound[b] : "NaN")
          for (i = 1; i <= n; i++) line = line " " (((m, c[i], b) in t) ? t[m, c[i], b] : "NaN")
          print line > out
        }
      }
    }' "$work/bound-$op.csv" "${csvs[@]}"
}

# The plot command of one panel: the bound and every series with data.
panel() {
  local dat=$1 i column
  local curves=("'$dat' using 1:2 with lines dt 2 lc rgb 'black' title 'lower bound (quiet)'")
  for i in "${!series[@]}"; do
    column=$((i + 3))
    awk -v c="$column" '$c != "NaN" { found = 1; exit } END { exit !found }' "$dat" || continue
    curves+=("'$dat' using 1:$column with linespoints lw 2 title '${titles[$i]}'")
  done
  local IFS=,
  echo "plot ${curves[*]}"
}

draw() {
  local op=$1 png=$2 model title plots=""
  tables "$op"
  for model in SMPI-unit overhead-1us busy-96 busy-nodes; do
    [[ -s "$work/$model-$op.dat" ]] || continue
    case $model in
      SMPI-unit) title="quiet, SMPI-unit" ;;
      overhead-1us) title="quiet, 1 us per message" ;;
      busy-96) title="busy: 96 background ranks (SimGrid's sharing per flow)" ;;
      busy-nodes) title="busy: a background rank per free node (sharing per port)" ;;
    esac
    plots+="set title \"$title\""$'\n'"$(panel "$work/$model-$op.dat")"$'\n'
  done
  gnuplot <<PLOT
set terminal pngcairo size 1400,1000 font "sans,10" noenhanced
set output "$png"
set multiplot layout 2,2 title "MPI_${op^} of 296 ranks on the simulated InfiniBand testbed (root 0, switch A)"
set logscale xy
set xrange [10:400000]
set xlabel "bytes per rank"
set ylabel "time (us), last rank done"
set format x "%.0s%cB"
set key left top font ",8"
set grid
set datafile missing "NaN"
$plots
unset multiplot
PLOT
}

draw gather "$dir/fig2-gather.png"
draw scatter "$dir/fig3-scatter.png"
echo "scatter-gather-plot.sh: wrote $dir/fig2-gather.png and $dir/fig3-scatter.png" >&2
