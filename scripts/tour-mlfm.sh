#!/usr/bin/env bash
# The tour's multi-layer full mesh section (scripts/demo.sh): the MLFM paper's smallest job, 12
# servers in a box of 2 layers x 3 columns x 2 slots of platforms/mlfm-d3-32
# (mlfm-congestion-free-all-to-all.txt), alltoall by mlfm (its congestion-free phases), linkaware
# (phases from the network's routes), shift (the pattern Open MPI's pairwise runs), auto and the
# MPI libraries' own, simulated at three block sizes, with the job's lower bound and the most
# flows any schedule puts on one link in a round (topocoll-plan --links: 1 is congestion-free).
# Every time is validated byte for byte against MPI_Alltoall. Writes OUT/mlfm.txt (the table)
# and OUT/mlfm.png (mlfm's schedule drawn by topocoll-plan --svg with the mesh's links shaded,
# rendered by headless chromium).
# Usage: scripts/tour-mlfm.sh OUT-DIR
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1
mkdir -p "$out"
# shellcheck source=tour-build.sh
source scripts/tour-build.sh

testbed=platforms/mlfm-d3-32
hosts=$testbed-2-3-2.hosts
np=12
job=(--hostfile "$hosts" --topology "$testbed.topology.json")
# Local copies at 5 GB/s, the MLFM study's (docs/results.md).
common=(--format csv --copy-bandwidth 5e9 --sync window -i 1 -x 0)
ompi="$out/mlfm-ompi.csv" mpich="$out/mlfm-mpich.csv" bound="$out/mlfm-bound.csv" flows="$out/mlfm-flows.csv"
: >"$ompi"; : >"$mpich"; : >"$bound"; : >"$flows"
for bytes in 16384 262144 1048576; do
  scripts/simulate.sh --selector ompi "${job[@]}" "$testbed.xml" $np -- "${common[@]}" -m "$bytes" \
    --algorithms mlfm,linkaware,shift,auto,native --calibration "$testbed.calibration.json" 2>/dev/null >>"$ompi"
  scripts/simulate.sh --selector mpich "${job[@]}" "$testbed.xml" $np -- "${common[@]}" -m "$bytes" \
    --algorithms native 2>/dev/null >>"$mpich"
  # The job's bound: a uniform alltoallv on its hosts is its alltoall.
  build/mpi/tools/topocoll-platform bound --platform "$testbed.xml" --op alltoallv --pattern uniform \
    --hostfile "$hosts" -m "$bytes" >>"$bound"
done
for algorithm in mlfm linkaware shift; do
  printf '%s,' "$algorithm" >>"$flows"
  build/mpi/tools/topocoll-plan -a "$algorithm" -t "$testbed.topology.json" --hostfile "$hosts" --np $np -b 16384 \
    --network "$testbed.xml" --links -f json | python3 -c 'import json, sys; print(json.load(sys.stdin)["max_flows_per_link"])' >>"$flows"
done

awk -F, -f scripts/tour-common.awk -f <(cat <<'AWK'
  FILENAME ~ /bound/ { if ($3 ~ /^[0-9]/) bound[$3] = $4 / 1000; next }  # platform,np,bytes,bound_us,...
  FILENAME ~ /flows/ { flows[$1] = $2; next }
  $1 == "alltoall" { take_bench_row(1, "", 1000) }
  END {
    printf "== tour: multi-layer full mesh (MLFM), alltoall on mlfm-d3-32, 12 ranks (2 x 3 x 2), simulated ==\n"
    printf "time in ms until the last rank is done; most flows on one link in a round: mlfm %d, linkaware %d, shift %d\n",
      flows["mlfm"], flows["linkaware"], flows["shift"]
    printf "%9s %10s %10s %10s %10s %12s %12s %10s %9s %6s\n", "block", "mlfm", "linkaware", "shift", "auto",
      "native ompi", "native mpich", "bound", "speed-up", "valid"
    n = ascending(sizes, list)
    for (i = 1; i <= n; i++) {
      s = list[i]
      printf "%9d %10.3f %10.3f %10.3f %10.3f %12.3f %12.3f %10.3f %8.2fx %6s\n", s, t["", s, "mlfm"], t["", s, "linkaware"],
        t["", s, "shift"], t["", s, "auto"], t["", s, "ompi"], t["", s, "mpich"], bound[s],
        better_native("", s) / t["", s, "auto"], validated()
    }
    printf "(block: bytes; speed-up: the better native over auto. SMPI copies a rank's own block for free in\n"
    printf "native, topocoll charges it at 5 GB/s: docs/results.md, auto with the network on the mesh)\n"
    if (bad != "") { printf "INVALID results:%s\n", bad; exit 1 }
  }
AWK
) "$bound" "$flows" "$ompi" "$mpich" | tee "$out/mlfm.txt"

# The picture: mlfm's phases, every link of the mesh shaded by its flows per round.
build/mpi/tools/topocoll-plan -a mlfm -t "$testbed.topology.json" --hostfile "$hosts" --np $np -b 16384 \
  --network "$testbed.xml" --svg "$out/mlfm.svg" >/dev/null 2>&1
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --screenshot="$out/mlfm.png" --window-size=1600,780 \
  "file://$(realpath "$out/mlfm.svg")" >/dev/null 2>&1
