#!/usr/bin/env bash
# Draws the two-cluster study's figures with gnuplot (log-log, like the LG paper's) from the
# CSV files of scripts/two-cluster-experiment.sh: fig4-PLATFORM.png (time against block size)
# and fig5-equal.png / fig6-double.png (time against process count, 64 KiB and 512 KiB).
# Times are max_us (until the last rank is done), in ms; lg in pieces where whole blocks did
# not fit.
# Usage: scripts/two-cluster-plot.sh RESULTS-DIR [4|56|all]
#        scripts/two-cluster-plot.sh --sizes PNG TITLE OMPI-CSV MPICH-CSV BOUND-CSV
#          (one time-against-block-size plot from any such files: scripts/two-cluster-demo.sh)
set -euo pipefail

command -v gnuplot >/dev/null || { echo "two-cluster-plot.sh: gnuplot is missing (scripts/install-deps.sh)" >&2; exit 2; }

# Joins CSV files into one whitespace table keyed by column KEY of the CSV (3: np, 4: bytes),
# one column per series named in COLUMNS, NaN where missing. The arguments after the first two
# are TAG FILE pairs: native rows take the file's TAG as their series name; TAG "pieces" holds
# lg in pieces (used where whole blocks are missing); TAG "bound" holds topocoll-platform bound
# rows. awk reads each tag=TAG argument as an assignment made before the next file.
table() {
  local key=$1 columns=$2
  shift 2
  local args=()
  while [[ $# -ge 2 ]]; do
    [[ -s "$2" ]] && args+=("tag=$1" "$2")
    shift 2
  done
  awk -F, -v key="$key" -v columns="$columns" '
    $1 == "n1" || $1 == "op" { next }
    tag == "bound" { k = (key == 3 ? $3 : $4); v["bound", k] = $5 / 1000; keys[k] = 1; next }
    {
      name = $2
      if (name == "native") name = tag
      if (tag == "pieces") name = "lg*"
      v[name, $key] = $7 / 1000
      keys[$key] = 1
    }
    END {
      n = split(columns, c, " ")
      m = 0; for (k in keys) s[++m] = k + 0
      for (i = 2; i <= m; i++) { x = s[i]; for (j = i - 1; j >= 1 && s[j] > x; j--) s[j + 1] = s[j]; s[j + 1] = x }
      printf "#"; for (i = 1; i <= n; i++) printf " %s", c[i]; printf "\n"
      for (i = 1; i <= m; i++) {
        printf "%s", s[i]
        for (j = 1; j <= n; j++) {
          name = c[j]
          if (name == "lg" && !(("lg", s[i]) in v)) name = "lg*"
          printf " %s", ((name, s[i]) in v) ? v[name, s[i]] : "NaN"
        }
        printf "\n"
      }
    }' "${args[@]}"
}

# Time against block size: plot_sizes PNG TITLE OMPI-CSV PIECES-CSV MPICH-CSV BOUND-CSV.
plot_sizes() {
  local png=$1 title=$2 dat
  dat=$(mktemp)
  table 4 "bound lg direct pairwise bruck ompi mpich overlap auto" ompi "$3" pieces "$4" mpich "$5" bound "$6" >"$dat"
  # One curve per series that has data (gnuplot warns about an all-NaN column).
  local styles=(
    "2:with lines dt 2 lc rgb 'black' title 'lower bound'"
    "3:with linespoints lw 2 title 'lg'"
    "4:with linespoints title 'direct'"
    "5:with linespoints title 'pairwise'"
    "6:with linespoints title 'bruck'"
    "7:with linespoints lw 2 lc rgb '#d95f02' title 'native (Open MPI selector)'"
    "8:with linespoints lw 2 title 'native (MPICH selector)'"
    "9:with linespoints title 'overlap'"
    "10:with points pt 6 ps 2 lw 2 lc rgb 'black' title 'auto'"
  )
  local curves=() style column
  for style in "${styles[@]}"; do
    column=${style%%:*}
    awk -v c="$column" '!/^#/ && $c != "NaN" { found = 1; exit } END { exit !found }' "$dat" || continue
    curves+=("'$dat' using 1:$column ${style#*:}")
  done
  local IFS=,
  gnuplot <<PLOT
set terminal pngcairo size 960,640 font "sans,11"
set output "$png"
set title "$title"
set logscale xy
set xlabel "bytes per block"
set ylabel "time (ms), last rank done"
set format x "%.0s%cB"
set key left top
set grid
set datafile missing "NaN"
plot ${curves[*]}
PLOT
  rm -f "$dat"
}

plot_fig4() {
  local platform=$1 prefix="$dir/fig4-$1"
  plot_sizes "$dir/fig4-$platform.png" "Alltoall on $platform (simulated Grid'5000 Nancy-Rennes, 60 ranks)" \
    "$prefix-ompi.csv" "$prefix-lg-pieces.csv" "$prefix-mpich.csv" "$prefix-bound.csv"
}

plot_fig56() {
  local series=$1 number=$2 title=$3 prefix="$dir/fig56-$1" work bytes kind
  work=$(mktemp -d)
  for bytes in 65536 524288; do
    for kind in ompi ompi-ring lg-pieces mpich bound; do
      if [[ -f "$prefix-$kind.csv" ]]; then
        awk -F, -v b=$bytes '$4 == b' "$prefix-$kind.csv" >"$work/$kind-$bytes.csv"
      else
        : >"$work/$kind-$bytes.csv"
      fi
    done
    table 3 "bound lg direct pairwise ompi mpich auto" ompi "$work/ompi-$bytes.csv" ompi "$work/ompi-ring-$bytes.csv" \
      pieces "$work/lg-pieces-$bytes.csv" mpich "$work/mpich-$bytes.csv" bound "$work/bound-$bytes.csv" \
      >"$work/$bytes.dat"
  done
  gnuplot <<PLOT
set terminal pngcairo size 960,640 font "sans,11"
set output "$dir/fig$number-$series.png"
set title "Alltoall on two clusters, $title (simulated Grid'5000 Nancy-Rennes)"
set logscale xy
set xlabel "processes (n1 + n2)"
set xrange [6:160]
set ylabel "time (ms), last rank done"
set key left top
set grid
set datafile missing "NaN"
plot "$work/524288.dat" using 1:3 with linespoints lw 2 lc 1 pt 7 title "lg, 512 KiB", \
     "" using 1:6 with linespoints lw 2 lc 2 pt 7 title "native (Open MPI), 512 KiB", \
     "" using 1:7 with linespoints lc 3 pt 7 title "native (MPICH), 512 KiB", \
     "" using 1:5 with linespoints lc 4 pt 7 title "pairwise, 512 KiB", \
     "" using 1:8 with points lc rgb "black" pt 6 ps 2 lw 2 title "auto, 512 KiB", \
     "" using 1:2 with lines dt 2 lc rgb "black" title "lower bound, 512 KiB", \
     "$work/65536.dat" using 1:3 with linespoints lw 2 lc 1 pt 4 dt 3 title "lg, 64 KiB", \
     "" using 1:6 with linespoints lw 2 lc 2 pt 4 dt 3 title "native (Open MPI), 64 KiB", \
     "" using 1:7 with linespoints lc 3 pt 4 dt 3 title "native (MPICH), 64 KiB", \
     "" using 1:5 with linespoints lc 4 pt 4 dt 3 title "pairwise, 64 KiB", \
     "" using 1:8 with points lc rgb "gray40" pt 8 ps 2 lw 2 title "auto, 64 KiB", \
     "" using 1:2 with lines dt 3 lc rgb "gray40" title "lower bound, 64 KiB"
PLOT
  rm -rf "$work"
}

if [[ "${1:-}" == --sizes ]]; then
  [[ $# -eq 6 ]] || { echo "two-cluster-plot.sh --sizes PNG TITLE OMPI-CSV MPICH-CSV BOUND-CSV" >&2; exit 2; }
  plot_sizes "$2" "$3" "$4" /dev/null "$5" "$6"
  exit 0
fi
dir=$1
figures=${2:-all}
if [[ "$figures" != 56 ]]; then
  for platform in two-clusters-30-30 two-clusters-20-40; do plot_fig4 $platform; done
fi
if [[ "$figures" != 4 ]]; then
  plot_fig56 equal 5 "n1 = n2"
  plot_fig56 double 6 "n2 = 2 n1"
fi
echo "plots in $dir" >&2
