#!/usr/bin/env bash
# How far the simulator goes on this machine (issue 34): jobs of 256 and 1024 ranks, 16 ranks per
# host on a two-level switch tree, under scripts/simulate.sh --scale (SMPI-unit, the selector's
# native beside topocoll's algorithms), each with its wall time and peak memory
# (/usr/bin/time) and a time limit. Prints one markdown table: ranks, algorithm, block size, the
# simulated max_us, whether it was checked byte for byte, wall seconds, peak resident MB, and
# how it ended (done, limit, or the simulator's failure), and the settings it ran under.
# Usage: scripts/scale-runs.sh [--limit SECONDS] [--out DIR] [--nonblocking ALGS] [JOB...]
#   --limit S  wall-clock limit of each job (default 600)
#   --out DIR  platforms and logs (default build/scale-runs)
#   --nonblocking ALGS  the algorithms run under simulate.sh --scale-nonblocking, which leaves
#              their times identical and lets direct run (default: direct; '' for none)
#   JOB        RANKS:ALGORITHM:BYTES (default: 256 and 1024 ranks, native, bruck and pairwise at
#              16 B, and direct at 256 ranks)
# Platforms: 256 ranks = 2 leaves x 8 hosts x 16 ranks, 1024 = 4 leaves x 16 hosts x 16 ranks
# (topocoll-platform switch-tree, 100 Gbit/s links, one spine). Nothing else may run beside it.
set -euo pipefail
cd "$(dirname "$0")/.."

limit=600 out=build/scale-runs nonblocking=direct
jobs=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --limit) limit="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --nonblocking) nonblocking="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    -*) echo "scale-runs.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) jobs+=("$1"); shift ;;
  esac
done
((${#jobs[@]} > 0)) || jobs=(256:native:16 256:bruck:16 256:pairwise:16 256:direct:16
                             1024:native:16 1024:bruck:16 1024:pairwise:16)
mkdir -p "$out"
platform_tool=build/mpi/tools/topocoll-platform
[[ -x $platform_tool ]] || { echo "scale-runs.sh: build the mpi preset first (cmake --build --preset mpi)" >&2; exit 2; }

platform_of() {
  case "$1" in
    256) echo "tree-2x8x16" ;;
    1024) echo "tree-4x16x16" ;;
    *) echo "scale-runs.sh: no platform for $1 ranks (256 or 1024)" >&2; exit 2 ;;
  esac
}
[[ -f $out/tree-2x8x16.xml ]] ||
  "$platform_tool" switch-tree --leaves 2 --hosts-per-leaf 8 --ranks-per-host 16 --name tree-2x8x16 -o "$out" >/dev/null
[[ -f $out/tree-4x16x16.xml ]] ||
  "$platform_tool" switch-tree --leaves 4 --hosts-per-leaf 16 --ranks-per-host 16 --name tree-4x16x16 -o "$out" >/dev/null

echo "| ranks | algorithm | bytes | max_us (simulated) | valid | wall s | peak MB | ended | settings |"
echo "| ---: | --- | ---: | ---: | --- | ---: | ---: | --- | --- |"
for job in "${jobs[@]}"; do
  IFS=: read -r np algorithm bytes <<<"$job"
  platform=$(platform_of "$np")
  log="$out/$np-$algorithm-$bytes.log"
  rc=0
  settings=--scale
  [[ ",$nonblocking," == *",$algorithm,"* ]] && settings=--scale-nonblocking
  /usr/bin/time -f "time %e s %M KB" -o "$log.time" timeout "$limit" \
    scripts/simulate.sh "$settings" --calibration none "$out/$platform.xml" "$np" -- \
    --format csv -i 1 -x 0 --sync window -m "$bytes" --algorithms "$algorithm" >"$log" 2>&1 || rc=$?
  row=$(grep "^alltoall,$algorithm," "$log" | tail -1 || true)
  wall=$(sed -n 's/.*time \([0-9.]*\) s.*/\1/p' "$log.time" | tail -1)
  peak=$(sed -n 's/.* \([0-9]*\) KB.*/\1/p' "$log.time" | tail -1)
  case $rc in
    0) ended=done ;;
    124) ended="limit ($limit s)" ;;
    *) ended="failed (exit $rc: $(grep -m1 -iE 'assert|segmentation|error' "$log" | cut -c1-60 || echo see log))" ;;
  esac
  max_us=$(cut -d, -f7 <<<"$row") valid=$(cut -d, -f9 <<<"$row")
  ((rc != 124)) || peak=""  # a job stopped at the limit is not waited for: no peak to read
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$np" "$algorithm" "$bytes" "${max_us:--}" \
    "${valid:--}" "${wall:--}" "$([[ -n $peak ]] && echo $((peak / 1024)) || echo -)" "$ended" "${settings#--}"
done
