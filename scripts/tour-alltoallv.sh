#!/usr/bin/env bash
# The tour's skewed alltoallv section (scripts/demo.sh): irregular traffic on the LG paper's two
# clusters (platforms/two-clusters-20-40, 60 ranks): topocoll-bench's patterns zipf:1.2 (block
# sizes falling off as a power of the distance) and hotspot:2 (two ranks receive most), around
# 16 B and 1 KiB per pair, seed 1. Liu's four-stage exchange (irregular-all-to-all-abstract.txt),
# the direct exchange, auto (which prices the call's traffic shape) and the MPI libraries' own
# MPI_Alltoallv, with the network's lower bound for the same sizes. Every time is validated byte
# for byte against MPI_Alltoallv. Writes OUT/alltoallv.txt and OUT/alltoallv.png.
# Usage: scripts/tour-alltoallv.sh OUT-DIR
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1
mkdir -p "$out"
# shellcheck source=tour-build.sh
source scripts/tour-build.sh

platform=two-clusters-20-40
np=60
# shellcheck source=study-flags.sh
source scripts/study-flags.sh
ompi="$out/alltoallv-ompi.csv" mpich="$out/alltoallv-mpich.csv" bound="$out/alltoallv-bound.csv"
: >"$ompi"; : >"$mpich"; : >"$bound"
for pattern in zipf:1.2 hotspot:2; do
  for bytes in 16 1024; do
    scripts/simulate.sh --selector ompi $platform $np -- "${study_bench_flags[@]}" --op alltoallv --pattern "$pattern" \
      -m "$bytes" --algorithms liu,direct,auto,native --calibration "platforms/$platform.calibration.json" \
      2>/dev/null | sed "s/^/$pattern,/" >>"$ompi"
    scripts/simulate.sh --selector mpich $platform $np -- "${study_bench_flags[@]}" --op alltoallv --pattern "$pattern" \
      -m "$bytes" --algorithms native 2>/dev/null | sed "s/^/$pattern,/" >>"$mpich"
    build/mpi/tools/topocoll-platform bound --platform "platforms/$platform.xml" --op alltoallv --pattern "$pattern" \
      -m "$bytes" | sed "s/^/$pattern,/" >>"$bound"
  done
done

awk -F, -v dat="$out/alltoallv.dat" -f scripts/tour-common.awk -f <(cat <<'AWK'
  FILENAME ~ /bound/ { if ($4 ~ /^[0-9]/) bound[$1, $4] = $5 / 1000; next }  # pattern, then platform,np,bytes,bound_us
  $2 == "alltoallv" { take_bench_row(2, $1, 1000) }
  END {
    printf "== tour: skewed alltoallv (Liu), alltoallv on two-clusters-20-40, 60 ranks, simulated ==\n"
    printf "time in ms until the last rank is done; block: bytes per pair around which the pattern draws\n"
    printf "%10s %6s %10s %10s %10s %12s %12s %10s %9s %6s\n", "pattern", "block", "liu", "direct", "auto",
      "native ompi", "native mpich", "bound", "speed-up", "valid"
    n = ascending(sizes, list)
    split("zipf:1.2 hotspot:2", order, " ")
    row = 0
    for (o = 1; o <= 2; o++) for (i = 1; i <= n; i++) {
      p = order[o]; s = list[i]
      if (!((p, s, "auto") in t)) continue
      native = better_native(p, s)
      printf "%10s %6d %10.3f %10.3f %10.3f %12.3f %12.3f %10.3f %8.2fx %6s\n", p, s, t[p, s, "liu"], t[p, s, "direct"],
        t[p, s, "auto"], t[p, s, "ompi"], t[p, s, "mpich"], bound[p, s], native / t[p, s, "auto"], validated()
      printf "%d \"%s %d B\" %g %g %g %g %g\n", row++, p, s, t[p, s, "liu"], t[p, s, "direct"], t[p, s, "auto"], native,
        bound[p, s] > dat
    }
    printf "(speed-up: the better native over auto)\n"
    if (bad != "") { printf "INVALID results:%s\n", bad; exit 1 }
  }
AWK
) "$bound" "$ompi" "$mpich" | tee "$out/alltoallv.txt"

gnuplot <<PLOT
set terminal pngcairo size 960,640 font "sans,11"
set output "$out/alltoallv.png"
set title "Skewed alltoallv on two clusters, 60 ranks (simulated)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set ylabel "time (ms), last rank done"
set key left top
set grid y
set xtics rotate by -20
plot "$out/alltoallv.dat" using 3:xtic(2) title "liu", "" using 4 title "direct", "" using 5 title "auto", \
     "" using 6 title "better native", "" using 7 title "bound"
PLOT
rm -f "$out/alltoallv.dat"
