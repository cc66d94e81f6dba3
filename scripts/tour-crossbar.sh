#!/usr/bin/env bash
# The tour's crossbar section (scripts/demo.sh): Tam and Wang's four complete-exchange schedules
# (direct = synchronous shuffle, shift, pairwise, group shuffle of width 5) on their 16-node
# crossbar (platforms/crossbar-16: 100 Mbps, 1492-byte packets; complete-exchange-on-clusters.txt
# Sec. 4), simulated at 4, 64 and 512 packets per block, each beside its Tam-Wang prediction
# (Table 1's parameters), then auto and the MPI libraries' own (Open MPI's and MPICH's selectors)
# with the network's lower bound. Every simulated time is validated byte for byte against
# MPI_Alltoall. Writes OUT/crossbar.txt (the table) and OUT/crossbar.png.
# Usage: scripts/tour-crossbar.sh OUT-DIR   (the smpi and mpi builds made: scripts/demo.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1
mkdir -p "$out"
packet=1492
# Memory copies of the paper's 450 MHz Pentium III nodes: a few hundred MB/s (docs/results.md).
common=(--group-width 5 --copy-bandwidth 3e8 --sync window)
schedules=direct,shift,pairwise,group-shuffle

ompi="$out/crossbar-ompi.csv" mpich="$out/crossbar-mpich.csv" predicted="$out/crossbar-predicted.txt"
bound="$out/crossbar-bound.csv"
: >"$ompi"; : >"$mpich"; : >"$predicted"; : >"$bound"
for packets in 4 64 512; do
  bytes=$((packets * packet))
  scripts/simulate.sh --selector ompi crossbar-16 16 -- --format csv "${common[@]}" -i 1 -x 0 -m "$bytes" \
    --algorithms "$schedules,auto,native" --calibration platforms/crossbar-16.calibration.json 2>/dev/null >>"$ompi"
  scripts/simulate.sh --selector mpich crossbar-16 16 -- --format csv "${common[@]}" -i 1 -x 0 -m "$bytes" \
    --algorithms native 2>/dev/null >>"$mpich"
  scripts/simulate.sh crossbar-16 16 -- --format osu --predict "${common[@]}" --shared-malloc -i 1 -x 0 -m "$bytes" \
    --algorithms "$schedules" 2>/dev/null >>"$predicted"
  # The crossbar as topocoll-platform can describe it: two halves of 8 whose backbone never
  # limits (1 Tbps, 1 ns), each node's link as the XML has it.
  build/mpi/tools/topocoll-platform bound --nodes 8,8 --node-bw 12130081.3Bps --node-lat 29.21us --switch-lat 1ns \
    --wan-bw 1Tbps --wan-lat 1ns \
    -m "$bytes" >>"$bound"
done

# The table: ms until the last rank is done; each schedule as simulated (Tam-Wang's prediction).
awk -F, -v packet=$packet -v dat="$out/crossbar.dat" -f scripts/tour-common.awk -f <(cat <<'AWK'
  FILENAME ~ /bound/ { if ($1 ~ /^[0-9]/) bound[$4] = $5 / 1000; next }
  FILENAME ~ /predicted/ {
    if ($0 ~ /^# algorithm:/) { split($0, a, /[ ,]+/); algorithm = a[3] }
    else if ($0 ~ /^[0-9]/) { split($0, f, / +/); predicted[f[1], algorithm] = f[6] / 1000 }
    next
  }
  $1 == "alltoall" { take_bench_row(1, "", 1000) }
  END {
    printf "== tour: crossbar (Tam and Wang), alltoall on crossbar-16, 16 ranks, simulated ==\n"
    printf "time in ms until the last rank is done; each schedule simulated (Tam-Wang model)\n"
    printf "%8s %17s %17s %17s %17s %9s %12s %12s %9s %9s %6s\n", "block", "direct", "shift", "pairwise",
      "group-shuffle", "auto", "native ompi", "native mpich", "bound", "speed-up", "valid"
    n = ascending(sizes, list)
    split("direct shift pairwise group-shuffle", schedule, " ")
    for (i = 1; i <= n; i++) {
      s = list[i]
      printf "%8d", s
      for (k = 1; k <= 4; k++) printf " %8.2f (%6.2f)", t["", s, schedule[k]], predicted[s, schedule[k]]
      printf " %9.2f %12.2f %12.2f %9.2f %8.2fx %6s\n", t["", s, "auto"], t["", s, "ompi"], t["", s, "mpich"], bound[s],
        better_native("", s) / t["", s, "auto"], validated()
      printf "%d %g %g %g %g %g %g %g %g %g %d\n", s / packet, t["", s, "direct"], predicted[s, "direct"], t["", s, "shift"],
        predicted[s, "shift"], t["", s, "pairwise"], predicted[s, "pairwise"], t["", s, "group-shuffle"],
        predicted[s, "group-shuffle"], bound[s], s > dat
    }
    printf "(block: bytes, 4, 64 and 512 packets of %d bytes; speed-up: the better native over auto)\n", packet
    if (bad != "") { printf "INVALID results:%s\n", bad; exit 1 }
  }
AWK
) "$out/crossbar-bound.csv" "$out/crossbar-predicted.txt" "$out/crossbar-ompi.csv" "$out/crossbar-mpich.csv" \
  | tee "$out/crossbar.txt"

# As Tam and Wang draw their Fig. 2: each node's bandwidth, the 15 blocks it sends over the time.
gnuplot <<PLOT
set terminal pngcairo size 960,640 font "sans,11"
set output "$out/crossbar.png"
set title "Tam and Wang's four schedules on a 16-node crossbar (simulated; dashed: their model)"
set logscale x
set xlabel "packets of $packet bytes per block"
set ylabel "bandwidth per node (MB/s)"
set key right bottom
set grid
mbs(t) = 15 * column(11) / (t * 1000)
plot "$out/crossbar.dat" using 1:(mbs(\$2)) with linespoints lw 2 lc 1 title "direct", \\
     "" using 1:(mbs(\$3)) with lines dt 2 lc 1 notitle, \\
     "" using 1:(mbs(\$4)) with linespoints lw 2 lc 2 title "shift", \\
     "" using 1:(mbs(\$5)) with lines dt 2 lc 2 notitle, \\
     "" using 1:(mbs(\$6)) with linespoints lw 2 lc 3 title "pairwise", \\
     "" using 1:(mbs(\$7)) with lines dt 2 lc 3 notitle, \\
     "" using 1:(mbs(\$8)) with linespoints lw 2 lc 4 title "group-shuffle", \\
     "" using 1:(mbs(\$9)) with lines dt 2 lc 4 notitle, \\
     "" using 1:(mbs(\$10)) with lines lw 1 lc rgb "black" title "bound"
PLOT
rm -f "$out/crossbar.dat"
