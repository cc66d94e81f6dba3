#!/usr/bin/env bash
# Prints (CSV) the lower bound of an alltoall on a platform made by topocoll-platform two-clusters
# or clusters,
# for blocks of MIN..MAX bytes (doubling): the platform's own description is read back from the
# command recorded in it (its generated-by property), so the bound and the simulated machine
# cannot disagree. What the bound counts: src/network/bound.hpp and docs/platforms.md.
# Usage: scripts/two-cluster-bound.sh PLATFORM.xml MIN:MAX
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool="$repo/build/mpi/tools/topocoll-platform"
[[ $# -eq 2 ]] || { sed -n '2,6p' "$0" >&2; exit 2; }
xml=$1
range=$2
[[ -x "$tool" ]] || { echo "two-cluster-bound.sh: $tool is missing (cmake --build build/mpi)" >&2; exit 2; }
command=$(sed -n 's/.*<prop id="generated-by" value="topocoll-platform \(two-\)\{0,1\}clusters \([^"]*\)".*/\2/p' "$xml")
[[ -n "$command" ]] || { echo "two-cluster-bound.sh: $xml records no topocoll-platform command" >&2; exit 2; }

# The description's options, without those that only name the generated files.
read -r -a words <<<"$command"
description=()
for ((i = 0; i < ${#words[@]}; i++)); do
  case "${words[i]}" in
    --name|--topology-format|--output-dir|-o) i=$((i + 1)) ;;
    *) description+=("${words[i]}") ;;
  esac
done
exec "$tool" bound "${description[@]}" -m "$range"
