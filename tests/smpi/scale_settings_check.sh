#!/usr/bin/env bash
# simulate.sh --scale (maxmin/precision 1e-4, a stripped program) leaves the benchmark's times
# identical, to the thousandth of a microsecond: the same job (RANKS ranks of the InfiniBand
# switch tree, 16 per host) run with the pinned settings and with --scale, blocks below and
# above SMPI's detached threshold (64 KiB), topocoll's algorithms and the MPI library's own,
# under the benchmark's default (barrier) start.
# With MODE `nonblocking`: --scale-nonblocking (maxmin/precision 1e-2, smpi/send-is-detached-thresh
# 0) against the pinned settings, for the algorithms whose every message is nonblocking (direct,
# pairwise), blocks from 16 B, under window sync as scripts/scale-runs.sh runs them.
# Usage: scale_settings_check.sh REPO RANKS [scale|nonblocking]
set -uo pipefail
repo="$1" ranks="$2" mode="${3:-scale}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
args=(-- --format csv -i 1 -x 0 --shared-malloc -m 1024:131072
      --algorithms direct,pairwise,bruck,native)
option=--scale precision=1e-4
if [[ $mode == nonblocking ]]; then
  args=(-- --format csv -i 1 -x 0 --shared-malloc --sync window -m 16:131072 --algorithms direct,pairwise)
  option=--scale-nonblocking precision=1e-2
fi
run() {
  "$repo/scripts/simulate.sh" "$@" --calibration none --topology none ib-switch-tree "$ranks" "${args[@]}"
}
run > "$work/pinned.csv" 2> "$work/pinned.log" || { cat "$work/pinned.log" >&2; echo "FAIL: the pinned run" >&2; exit 1; }
run "$option" > "$work/scale.csv" 2> "$work/scale.log" || { cat "$work/scale.log" >&2; echo "FAIL: the $option run" >&2; exit 1; }
grep -q -- "--cfg=maxmin/precision:$precision" "$work/scale.log" || { echo "FAIL: $option did not set the precision" >&2; exit 1; }
# algorithm, bytes and its times, of every point, by the CSV's own header.
points() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
           { printf "%s %s %.3f %.3f %.3f\n", $col["algorithm"], $col["bytes"], $col["avg_us"], $col["min_us"], $col["max_us"] }' "$1"
}
points "$work/pinned.csv" > "$work/pinned.points"
points "$work/scale.csv" > "$work/scale.points"
lines=$(wc -l < "$work/pinned.points")
if [[ "$lines" -lt 16 ]]; then
  echo "FAIL: only $lines points measured" >&2; cat "$work/pinned.csv" >&2; exit 1
fi
if ! diff "$work/pinned.points" "$work/scale.points" >&2; then
  echo "FAIL: $option changed the times (above: pinned < > $option)" >&2
  exit 1
fi
echo "scale_settings_check: $lines points, every time identical with and without $option at $ranks ranks"
