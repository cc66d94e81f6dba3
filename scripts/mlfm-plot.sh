#!/usr/bin/env bash
# Draws the MLFM study (scripts/mlfm-experiment.sh, tables by scripts/mlfm-table.py) with gnuplot:
# one panel per network model (SMPI-unit, CM02), clustered bars of the throughput per server
# (MiB/s) per job and size for mlfm, linkaware, shift, pairwise and SMPI's own MPI_Alltoall under
# the ompi and mpich selectors, with the 3770 MiB/s link as a line: the paper's Fig. 3, in
# simulation. Writes results/mlfm/mlfm-throughput.png.
# Usage: scripts/mlfm-plot.sh
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out="$repo/results/mlfm"
command -v gnuplot >/dev/null || { echo "mlfm-plot.sh: gnuplot is missing (scripts/install-deps.sh)" >&2; exit 2; }
compgen -G "$out/mlfm-*.csv" >/dev/null || { echo "mlfm-plot.sh: no $out/mlfm-*.csv (scripts/mlfm-experiment.sh)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$repo/scripts/mlfm-table.py" "$out" --dat "$work/throughput.dat" >/dev/null
for model in SMPI-unit CM02; do
  { echo '"case" "mlfm" "linkaware" "shift" "pairwise" "native-ompi" "native-mpich"'
    grep "^\"$model\" " "$work/throughput.dat" | cut -d' ' -f2-; } >"$work/$model.dat"
done

gnuplot <<GP
set terminal pngcairo size 1600,1000 font ",10"
set output "$out/mlfm-throughput.png"
set multiplot layout 2,1 title "alltoall on a multi-layer full mesh (simulated): throughput per server, MiB/s; line: the 3770 MiB/s link"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0:4200]
set grid ytics
set xtics rotate by -40 font ",8"
set key outside right top
set title "SMPI-unit"
plot for [i=2:7] "$work/SMPI-unit.dat" using i:xtic(1) title columnheader(i), 3770 with lines lw 2 lc rgb "black" title "link"
set title "CM02"
plot for [i=2:7] "$work/CM02.dat" using i:xtic(1) title columnheader(i), 3770 with lines lw 2 lc rgb "black" title "link"
unset multiplot
GP
echo "wrote results/mlfm/mlfm-throughput.png" >&2
