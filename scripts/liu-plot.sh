#!/usr/bin/env bash
# Draws the liu study (scripts/liu-experiment.sh) with gnuplot: for one platform, one panel per
# network model (SMPI-unit, overhead-1us), clustered bars of the call's time (max_us, the last
# rank done; log scale) per traffic pattern and size for liu, direct, pairwise (lg and overlap
# where measured), auto and SMPI's own MPI_Alltoallv under the ompi and mpich selectors. Writes results/liu/liu-PLATFORM.png.
# Usage: scripts/liu-plot.sh [PLATFORM]   (default switch-tree-2x32)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
platform=${1:-switch-tree-2x32}
csv="$repo/results/liu/liu-$platform.csv"
command -v gnuplot >/dev/null || { echo "liu-plot.sh: gnuplot is missing (scripts/install-deps.sh)" >&2; exit 2; }
[[ -s $csv ]] || { echo "liu-plot.sh: no $csv (scripts/liu-experiment.sh $platform)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One table per model: a row per (pattern, size), a column per series.
for model in SMPI-unit overhead-1us; do
  python3 - "$csv" "$model" >"$work/$model.dat" <<'PY'
import csv, sys
path, model = sys.argv[1:3]
order = ["liu", "direct", "pairwise", "lg", "overlap", "auto", "native-ompi", "native-mpich"]
times, keys = {}, []
for row in csv.DictReader(open(path)):
    if row["model"] != model:
        continue
    name = row["algorithm"] if row["algorithm"] != "native" else "native-" + row["selector"]
    key = f'{row["pattern"]} {int(row["bytes"]) if int(row["bytes"]) < 1024 else str(int(row["bytes"]) // 1024) + "K"}'
    if key not in keys:
        keys.append(key)
    times[(key, name)] = row["max_us"]
series = [s for s in order if any(name == s for (_, name) in times)]
print('"case" ' + " ".join(f'"{s}"' for s in series))
for key in keys:
    print(f'"{key}" ' + " ".join(times.get((key, s), "NaN") for s in series))
PY
done

ranks=$(awk -F, 'NR == 2 { print $7 }' "$csv")  # the np column
# A panel per model measured (a table with rows beyond its header).
panels="" count=0
for model in SMPI-unit overhead-1us; do
  (($(wc -l <"$work/$model.dat") > 1)) || continue
  columns=$(head -1 "$work/$model.dat" | wc -w)
  title="SMPI-unit (no per-message cost)"
  [[ $model == overhead-1us ]] && title="overhead-1us (1 us of CPU per message sent and received)"
  panels+="set title \"$title\""$'\n'"plot for [i=2:$columns] \"$work/$model.dat\" using i:xtic(1) title columnheader(i)"$'\n'
  count=$((count + 1))
done
gnuplot <<GP
set terminal pngcairo size $((count * 700)),560 font ",10"
set output "$repo/results/liu/liu-$platform.png"
set multiplot layout 1,$count title "alltoallv at $ranks ranks on $platform: time of the call (us, log scale)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set grid ytics
set xtics rotate by -30
set key top left
$panels
unset multiplot
GP
echo "wrote results/liu/liu-$platform.png" >&2
