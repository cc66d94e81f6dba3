#!/usr/bin/env bash
# What the drop-in library costs one MPI_Alltoall, route by route, under real Open MPI over
# shared memory: prints a markdown table for docs/results.md.
# Routes: plain (no library), preloaded with nothing set, TOPOCOLL_ALLTOALL=native, auto with a
# calibration whose tuning table says native for every size (the handed-on routes), and
# TOPOCOLL_ALLTOALL=direct and pairwise (topocoll's own schedules).
#  - Instructions per call: valgrind --tool=callgrind counting only inside the program's loop
#    of calls (--toggle-collect=alltoall_calls), on 1 rank (no waiting on a peer: the count
#    repeats exactly), for rounds of CALLS and of 2 x CALLS calls (each job makes an untimed
#    round and a timed one); the difference over 2 x CALLS is one call's count, the first
#    call's one-time work (topology, plan) cancelled.
#  - topocoll's own instructions per call at OWN_NP ranks: the same count on rank 0 of an
#    OWN_NP-rank job, with collection switched off inside every PMPI_ function
#    (--toggle-collect='PMPI_*' toggles it off on entry and on again on return), so that what
#    is left is the entry point's and topocoll's own work (checks, layouts, plan cache, the
#    executor's bookkeeping per message), not the MPI library's; the other ranks run without
#    valgrind and yield when idle.
#  - Wall clock: topocoll-call-cost's median microseconds per call (5 rounds of 20000 calls) at
#    NP ranks, RUNS jobs per route interleaved route by route; the table shows the median job
#    and the range. On 2 shared cores these swing by tens of per cent between jobs.
# Usage: scripts/call-cost-benchmark.sh [--np N] [--own-np N] [--runs N] [--bytes B] [--build-dir DIR] [--wall-only]
#   --np N      ranks of the wall-clock jobs (default 2)
#   --own-np N  ranks of the jobs counting topocoll's own instructions (default 16)
#   --runs N    wall-clock jobs per route (default 5)
#   --bytes B   bytes per block (default 8)
#   --build-dir a configured and built mpi-preset tree (default build/mpi, built if needed), or
#               a folder laid out like one (tools/topocoll-call-cost, src/interpose/libtopocoll-pmpi.so)
#   --wall-only the wall clock alone (no valgrind: for a node that lacks it)
# mpirun is Debian's mpirun.openmpi where there is one, else the mpirun on the PATH; extra
# mpirun arguments (binding, LD_LIBRARY_PATH) come from MPIRUN_ARGS.
set -euo pipefail
cd "$(dirname "$0")/.."

np=2 own_np=16 runs=5 bytes=8 build=build/mpi calls=2000 wall_only=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --np) np="$2"; shift 2 ;;
    --own-np) own_np="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --bytes) bytes="$2"; shift 2 ;;
    --build-dir) build="$2"; shift 2 ;;
    --wall-only) wall_only=1; shift ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    *) echo "call-cost-benchmark.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

program="$build/tools/topocoll-call-cost"
library="$build/src/interpose/libtopocoll-pmpi.so"
if [[ ! -x "$program" || ! -f "$library" ]]; then
  scripts/install-deps.sh
  cmake --preset mpi >/dev/null
  cmake --build --preset mpi -j "$(nproc)" >/dev/null
fi
mpirun=$(command -v mpirun.openmpi || command -v mpirun)
read -r -a mpirun_extra <<<"${MPIRUN_ARGS:-}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A calibration whose tuning table says native for alltoall at every size, on 1 to 64 ranks of
# one node.
python3 - platforms/crossbar-16.calibration.json "$work/native.calibration.json" <<'PYTHON'
import json, sys
calibration = json.load(open(sys.argv[1]))
calibration["decisions"] = [
    {"operation": "alltoall", "ranks": p, "shape": "node:1x%d" % p, "from_bytes": 0, "to_bytes": 1 << 30,
     "algorithm": "native"} for p in range(1, 65)]
json.dump(calibration, open(sys.argv[2], "w"))
PYTHON

routes=(plain unset native auto-table-native direct pairwise)
environment_of() {
  case "$1" in
    plain) ;;
    unset) echo "LD_PRELOAD=$library" ;;
    native) echo "LD_PRELOAD=$library TOPOCOLL_ALLTOALL=native" ;;
    auto-table-native) echo "LD_PRELOAD=$library TOPOCOLL_CALIBRATION=$work/native.calibration.json" ;;
    direct|pairwise) echo "LD_PRELOAD=$library TOPOCOLL_ALLTOALL=$1" ;;
  esac
}
mpirun_args_of() { local e; for e in $(environment_of "$1"); do printf -- '-x\n%s\n' "$e"; done; }

# Instructions inside MPI_Alltoall for `calls` calls on one rank.
instructions() {
  local route="$1" n="$2" out="$work/callgrind.$1.$2"
  mapfile -t extra < <(mpirun_args_of "$route")
  "$mpirun" "${mpirun_extra[@]}" -np 1 "${extra[@]}" valgrind --tool=callgrind --toggle-collect=alltoall_calls \
    --callgrind-out-file="$out" "$program" "$bytes" "$n" 1 >/dev/null 2>&1
  awk '/^summary:/ { print $2 }' "$out"
}

# Instructions outside the MPI library on rank 0 of an own_np-rank job, for `calls` calls.
own_instructions() {
  local route="$1" n="$2" out="$work/own.$1.$2"
  mapfile -t extra < <(mpirun_args_of "$route")
  "$mpirun" "${mpirun_extra[@]}" --oversubscribe -x OMPI_MCA_mpi_yield_when_idle=1 "${extra[@]}" -np 1 \
    valgrind --tool=callgrind --toggle-collect=alltoall_calls --toggle-collect='PMPI_*' \
    --callgrind-out-file="$out" "$program" "$bytes" "$n" 1 : \
    -x OMPI_MCA_mpi_yield_when_idle=1 "${extra[@]}" -np $((own_np - 1)) "$program" "$bytes" "$n" 1 >/dev/null 2>&1
  # The total, and what of it is execute_plan's (the executor's work per message and round).
  printf '%s %s\n' "$(awk '/^summary:/ { print $2 }' "$out")" \
    "$(callgrind_annotate --inclusive=yes --threshold=100 "$out" 2>/dev/null |
       awk '/exec::execute_plan\(/ { gsub(",", "", $1); if ($1 + 0 > most) most = $1 + 0 } END { print most + 0 }')"
}

declare -A per_call own_per_call walk_per_call
own_calls=500
for route in "${routes[@]}"; do
  [[ $wall_only == 1 ]] && break
  once=$(instructions "$route" "$calls")
  twice=$(instructions "$route" $((2 * calls)))
  per_call[$route]=$(( (twice - once) / (2 * calls) ))
  read -r once walk_once < <(own_instructions "$route" "$own_calls")
  read -r twice walk_twice < <(own_instructions "$route" $((2 * own_calls)))
  own_per_call[$route]=$(( (twice - once) / (2 * own_calls) ))
  walk_per_call[$route]=$(( (walk_twice - walk_once) / (2 * own_calls) ))
done

# Wall clock, interleaved: run r of every route before run r + 1 of any.
for ((r = 1; r <= runs; ++r)); do
  for route in "${routes[@]}"; do
    mapfile -t extra < <(mpirun_args_of "$route")
    "$mpirun" "${mpirun_extra[@]}" --oversubscribe -np "$np" "${extra[@]}" "$program" "$bytes" 20000 5 |
      sed -n 's/.*median \([0-9.]*\) us per call.*/\1/p' >>"$work/wall.$route"
  done
done

echo "Host: $(nproc) cores, $("$mpirun" --version | head -1), shared memory (vader); $bytes bytes per block."
echo
median_of() { sort -g "$work/wall.$1" | awk '{ v[NR] = $1 } END { printf "%.3f [%.3f-%.3f]", v[int((NR + 1) / 2)], v[1], v[NR] }'; }
if [[ $wall_only == 1 ]]; then
  echo "| route | wall clock, $np ranks: us per call, median of $runs jobs [range] | over plain (medians) |"
  echo "| --- | --- | ---: |"
  plain=$(median_of plain | cut -d' ' -f1)
  for route in "${routes[@]}"; do
    wall=$(median_of "$route")
    printf '| %s | %s | %+.3f us |\n' "$route" "$wall" "$(awk -v a="${wall%% *}" -v b="$plain" 'BEGIN { print a - b }')"
  done
  exit 0
fi
echo "| route | instructions per call (1 rank) | over plain | outside the MPI library, $own_np ranks | of which the executor's | wall clock, $np ranks: us per call, median of $runs jobs [range] |"
echo "| --- | ---: | ---: | ---: | ---: | --- |"
for route in "${routes[@]}"; do
  wall=$(median_of "$route")
  printf '| %s | %d | %+d | %d | %d | %s |\n' "$route" "${per_call[$route]}" $(( per_call[$route] - per_call[plain] )) \
    "${own_per_call[$route]}" "${walk_per_call[$route]}" "$wall"
done
