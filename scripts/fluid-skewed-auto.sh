#!/usr/bin/env bash
# auto's choice for skewed alltoallv traffic at 1024 to 16384 ranks, against every candidate, in
# the fluid model (topocoll-plan --fluid, docs/algorithms.md "The fluid model") read by each
# round's bottlenecks (what its automatic reading takes there past the exact reading's budget),
# with the bound. auto prices an alltoallv by its average block (what each rank knows without an
# exchange of every count), so this is where its choice could go wrong.
#
# Points: the scale study's trees of 16 ranks a host (results/fluid-scale/fat-4x16x16, fat-4x64x16,
# fat-16x64x16: 1024, 4096, 16384 ranks), topocoll-bench's alltoallv patterns around 16 B, 1 KiB
# and 64 KiB; auto with the node-aware study's calibration (as scripts/fluid-scale.sh reads it).
# Candidates: direct, pairwise, lg and overlap over the hosts (-node), overlap over the leaves.
#
# Usage: scripts/fluid-skewed-auto.sh [--np N,N] [--sizes B,B] [--patterns P,P]
#   defaults: --np 1024,4096,16384 --sizes 16,1024,65536 --patterns zipf:1,hotspot:4
# Prints CSV: np,pattern,bytes,auto,auto_us,direct_us,pairwise_us,lg_node_us,overlap_node_us,
# overlap_us,bound_us,fastest,auto_over_fastest. With the defaults: 43 minutes on 2 cores shared
# with a CI run (most of it the 16384-rank points).
# Needs the mpi preset's topocoll-platform and topocoll-plan.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
nps=1024,4096,16384 sizes=16,1024,65536 patterns=zipf:1,hotspot:4
while [[ $# -gt 0 ]]; do
  case $1 in
    --np|--sizes|--patterns)
      [[ $# -ge 2 ]] || { echo "fluid-skewed-auto.sh: $1 needs a value" >&2; exit 2; }
      case $1 in --np) nps=$2 ;; --sizes) sizes=$2 ;; --patterns) patterns=$2 ;; esac
      shift 2 ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fluid-skewed-auto.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
platform_tool="$repo/build/mpi/tools/topocoll-platform" plan="$repo/build/mpi/tools/topocoll-plan"
for tool in "$platform_tool" "$plan"; do
  [[ -x $tool ]] || { echo "fluid-skewed-auto.sh: $tool is missing: build the mpi preset" >&2; exit 2; }
done
calibration="$repo/results/node-aware/fat-4x16x16.calibration.json"

# The platform of the scale study with NP ranks (16 a host, 16 to 64 hosts a leaf).
platform_of() {
  case $1 in
    1024) echo "$repo/results/fluid-scale/fat-4x16x16" ;; 2048) echo "$repo/results/fluid-scale/fat-4x32x16" ;;
    4096) echo "$repo/results/fluid-scale/fat-4x64x16" ;; 8192) echo "$repo/results/fluid-scale/fat-8x64x16" ;;
    16384) echo "$repo/results/fluid-scale/fat-16x64x16" ;;
    *) echo "fluid-skewed-auto.sh: no platform of the scale study has $1 ranks (1024-16384, powers of two)" >&2
       return 2 ;;
  esac
}

# A field of topocoll-plan --fluid's JSON.
field() { python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }

IFS=, read -ra np_list <<<"$nps"
IFS=, read -ra size_list <<<"$sizes"
IFS=, read -ra pattern_list <<<"$patterns"
for np in "${np_list[@]}"; do platform_of "$np" >/dev/null || exit 2; done
echo "np,pattern,bytes,auto,auto_us,direct_us,pairwise_us,lg_node_us,overlap_node_us,overlap_us,bound_us,fastest,auto_over_fastest"
for np in "${np_list[@]}"; do
  platform=$(platform_of "$np")
  machine=(--topology "$platform.topology.json" --hostfile "$platform.hosts" --network "$platform.xml")
  for pattern in "${pattern_list[@]}"; do
    for bytes in "${size_list[@]}"; do
      traffic=(--op alltoallv --pattern "$pattern" -b "$bytes" --fluid --fluid-reading bottlenecks --format json)
      auto_json=$("$plan" -a auto -c "$calibration" "${machine[@]}" "${traffic[@]}" 2>/dev/null)
      auto=$(field algorithm <<<"$auto_json") auto_us=$(field fluid_us <<<"$auto_json")
      row=()
      for series in "direct" "pairwise" "lg --group-level 1" "overlap --group-level 1" "overlap --group-level 0"; do
        read -ra knobs <<<"$series"
        row+=("$("$plan" -a "${knobs[@]}" "${machine[@]}" "${traffic[@]}" 2>/dev/null | field fluid_us)")
      done
      bound=$("$platform_tool" bound --platform "$platform.xml" --hostfile "$platform.hosts" --op alltoallv \
        --pattern "$pattern" -m "$bytes" | awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
          { print $col["bound_us"] }')
      fastest=$(printf '%s\n' "${row[@]}" | sort -g | head -1)
      printf '%s,%s,%s,"%s",%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.4f\n' "$np" "$pattern" "$bytes" "$auto" \
        "$auto_us" "${row[@]}" "$bound" "$fastest" "$(awk -v a="$auto_us" -v f="$fastest" 'BEGIN { print a / f }')"
    done
  done
done
