#!/usr/bin/env bash
# The liu study's schedules without running them (scripts/liu-experiment.sh runs them): for each
# platform, traffic pattern (seed 1) and size, every topocoll algorithm's start-ups on the
# critical path, the most messages one rank sends and L_max (the most bytes one rank moves,
# round by round the larger of its sends and receives: Liu's flat model), from topocoll-plan
# --pattern, and the network's lower bound of that alltoallv, from topocoll-platform bound --op
# alltoallv (every block through the cuts of its route). Needs the mpi preset's tools and the
# platforms liu-experiment.sh writes into results/liu/.
# Writes results/liu/statistics-PLATFORM.csv:
#   platform,pattern,bytes,algorithm,startups,max_messages_per_rank,max_traffic_bytes,bound_us,limited_by
# (algorithm "bound" carries the bound; the others leave its columns empty).
# Usage: scripts/liu-statistics.sh [PLATFORM...]   (default: switch-tree-2x32 two-clusters-32-32)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out="$repo/results/liu"
plan="$repo/build/mpi/tools/topocoll-plan"
platform_tool="$repo/build/mpi/tools/topocoll-platform"
[[ -x $plan && -x $platform_tool ]] || { echo "$0: build the mpi preset first (cmake --build --preset mpi)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "$0: needs python3" >&2; exit 2; }

platforms=("$@")
((${#platforms[@]} > 0)) || platforms=(switch-tree-2x32 two-clusters-32-32)
for platform in "${platforms[@]}"; do
  [[ -f $out/$platform.xml ]] || { echo "$0: no $out/$platform.xml (scripts/liu-experiment.sh writes it)" >&2; exit 2; }
  csv="$out/statistics-$platform.csv"
  echo "platform,pattern,bytes,algorithm,startups,max_messages_per_rank,max_traffic_bytes,bound_us,limited_by" >"$csv"
  algorithms=(liu direct pairwise)
  [[ $platform == two-clusters-* ]] && algorithms+=(lg overlap)
  for pattern in uniform zipf:1.2 sparse:4 hotspot:2; do
    for m in 16 1024; do
      for algorithm in "${algorithms[@]}"; do
        "$plan" --op alltoallv --algorithm "$algorithm" --topology "$out/$platform.topology.json" \
          --hostfile "$out/$platform.hosts" --pattern "$pattern" --seed 1 -b "$m" --format json |
          python3 -c 'import json, sys
s = json.load(sys.stdin)
print(",".join(str(x) for x in (sys.argv[1], sys.argv[2], s["block_bytes"], s["algorithm"], s["startups"],
                                 s["max_messages_per_rank"], s["max_traffic_bytes"], "", "")))' "$platform" "$pattern" >>"$csv"
      done
      "$platform_tool" bound --platform "$out/$platform.xml" --op alltoallv --pattern "$pattern" --seed 1 -m "$m" |
        awk -F, -v platform="$platform" -v pattern="$pattern" \
          'NR == 2 { printf "%s,%s,%s,bound,,,,%s,%s\n", platform, pattern, $3, $4, $5 }' >>"$csv"
    done
  done
  echo "wrote $csv" >&2
done
