#!/usr/bin/env bash
# The node-aware regime beyond what SimGrid reaches, through the fluid model (topocoll-plan
# --fluid; docs/results.md, "The fluid model at scale"): switch trees of 16 ranks per host,
# 256 to 16384 ranks, the node-aware exchange (lg and overlap over the hosts) against direct,
# pairwise and bruck (the algorithm both native selectors run below 200 B blocks at these sizes),
# and overlap over the leaves (what auto runs from 1 KiB), with the bound. Each point is priced in the reading of links alike (a sample of ranks, rounds
# that end together: O(p)), and, up to the ranks given per series, in the exact reading (every
# rank at its own pace, every link alone: what matched SimGrid to 0.1% from 64 to 1024 ranks).
#
# Beside it, the cost model's prediction of each series and auto's choice (topocoll-plan --algorithm
# auto --choose-only with the calibration of the node-aware study's 1024 ranks), which the tables
# price through the fluid model.
#
# Usage: scripts/fluid-scale.sh [--out DIR] [--np LIST] [--sizes LIST] [--exact-up-to SERIES:P,...]
#                               [--calibration FILE]
#   --np            ranks (default 256,1024,2048,4096,8192,16384; 16 per host, 16 to 64 hosts per leaf)
#   --sizes         block sizes in bytes (default 8,64,1024,65536)
#   --exact-up-to   the most ranks at which each series is also read exactly (default
#                   bruck:4096,lg-node:2048,direct:1024,pairwise:1024,overlap-node:1024,overlap:256; the exact
#                   reading of lg over the hosts takes about 3 minutes at 4096 ranks)
#   --calibration   what auto reads (default results/node-aware/fat-4x16x16.calibration.json)
# Writes OUT/fluid-scale.csv (np,series,bytes,reading,fluid_us,model_s,peak_mb; a point already
# there is not run again), OUT/cost-model.csv (np,bytes,series,predicted_us,chosen) and
# OUT/bound.csv; prints the tables (scripts/fluid-scale-table.py).
# OUT: results/fluid-scale.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out="$repo/results/fluid-scale" nps=256,1024,2048,4096,8192,16384 sizes=8,64,1024,65536
exact=bruck:4096,lg-node:2048,direct:1024,pairwise:1024,overlap-node:1024,overlap:256
calibration="$repo/results/node-aware/fat-4x16x16.calibration.json"
while [[ $# -gt 0 ]]; do
  case $1 in
    --out|--np|--sizes|--exact-up-to|--calibration)
      [[ $# -ge 2 ]] || { echo "fluid-scale.sh: $1 needs a value" >&2; exit 2; }
      case $1 in
        --out) out=$2 ;; --np) nps=$2 ;; --sizes) sizes=$2 ;; --exact-up-to) exact=$2 ;; --calibration) calibration=$2 ;;
      esac
      shift 2 ;;
    -h|--help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fluid-scale.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
platform_tool="$repo/build/mpi/tools/topocoll-platform" plan="$repo/build/mpi/tools/topocoll-plan"
for tool in "$platform_tool" "$plan"; do
  [[ -x $tool ]] || { echo "fluid-scale.sh: $tool is missing: build the mpi preset" >&2; exit 2; }
done
mkdir -p "$out"
csv="$out/fluid-scale.csv"
[[ -f $csv ]] || echo "np,series,bytes,reading,fluid_us,model_s,peak_mb" >"$csv"
[[ -f $out/bound.csv ]] || echo "platform,np,bytes,bound_us" >"$out/bound.csv"
costs="$out/cost-model.csv"
[[ -f $costs ]] || echo "np,bytes,series,predicted_us,chosen" >"$costs"

# The most ranks at which a series is read exactly.
exact_limit() {
  local entry
  for entry in ${exact//,/ }; do [[ ${entry%%:*} == "$1" ]] && { echo "${entry#*:}"; return; }; done
  echo 0
}

for np in ${nps//,/ }; do
  hosts=$((np / 16))
  leaves=2
  while ((hosts / leaves > 64 || (leaves < 4 && np >= 1024))); do leaves=$((leaves * 2)); done
  per_leaf=$((hosts / leaves))
  ((leaves * per_leaf * 16 == np)) || { echo "fluid-scale.sh: $np ranks are not 16 per host on equal leaves" >&2; exit 2; }
  name="fat-${leaves}x${per_leaf}x16"
  platform="$out/$name"
  [[ -f $platform.xml ]] || "$platform_tool" switch-tree --leaves "$leaves" --hosts-per-leaf "$per_leaf" \
    --ranks-per-host 16 --uplink-bw "$((per_leaf * 100))Gbps" --name "$name" -o "$out" >/dev/null
  # The bound at every power of two from the smallest size to the largest, kept at the sizes asked.
  range=$(tr , '\n' <<<"$sizes" | sort -n | sed -n '1p;$p' | paste -sd:)
  "$platform_tool" bound --platform "$platform.xml" -m "$range" |
    awk -F, -v sizes=",$sizes," 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
      index(sizes, "," $col["bytes"] ",") { print $col["platform"] "," $col["np"] "," $col["bytes"] "," $col["bound_us"] }' \
      >>"$out/bound.csv"
  awk '!seen[$0]++' "$out/bound.csv" >"$out/.bound" && mv "$out/.bound" "$out/bound.csv"
  # The cost model's predictions and auto's choice, series by series.
  for bytes in ${sizes//,/ }; do
    grep -q "^$np,$bytes," "$costs" && continue
    "$plan" --algorithm auto --calibration "$calibration" --topology "$platform.topology.json" \
      --hostfile "$platform.hosts" -b "$bytes" --choose-only --format json | python3 -c '
import json, sys
np, size = sys.argv[1], sys.argv[2]
auto = json.load(sys.stdin)["auto"]
def series(name, level):  # as the scale study names them: lg and overlap over the hosts, or the leaves
    return name + "-node" if name in ("lg", "overlap") and level == 1 else name
chosen = series(auto["chosen"], auto.get("group_level", -1))
for p in auto["predictions"]:
    if p.get("predicted_us") is not None:
        print(",".join([np, size, series(p["algorithm"], p["group_level"]), str(p["predicted_us"]), chosen]))
' "$np" "$bytes" >>"$costs"
  done
  for series in bruck lg-node direct pairwise overlap-node overlap; do
    case $series in
      lg-node) algorithm=(--algorithm lg --group-level 1) ;;
      overlap-node) algorithm=(--algorithm overlap --group-level 1) ;;
      overlap) algorithm=(--algorithm overlap --group-level 0) ;;
      *) algorithm=(--algorithm "$series") ;;
    esac
    readings=(links-alike)
    ((np <= $(exact_limit "$series"))) && readings+=(every-link)
    for bytes in ${sizes//,/ }; do
      for reading in "${readings[@]}"; do
        grep -q "^$np,$series,$bytes,$reading," "$csv" && continue  # done by an earlier run
        echo "# $np $series $bytes $reading" >&2
        row=$(/usr/bin/time -f "%e %M" -o "$out/.time" "$plan" "${algorithm[@]}" --topology "$platform.topology.json" \
          --hostfile "$platform.hosts" --network "$platform.xml" -b "$bytes" --fluid --fluid-reading "$reading" \
          --format json | sed -n 's/.*"fluid_us": \([0-9.e+-]*\).*/\1/p')
        read -r seconds kb <"$out/.time"
        echo "$np,$series,$bytes,$reading,$row,$seconds,$((kb / 1024))" >>"$csv"
      done
    done
  done
done
rm -f "$out/.time"
"$repo/scripts/fluid-scale-table.py" "$out"
