#!/usr/bin/env bash
# The MLFM paper's Fig. 3 in simulation (issue 14 part 4; docs/results.md, "The MLFM paper's
# Fig. 3 in simulation"): the time of one alltoall of mlfm, linkaware (phases from the network's
# routes: simulate.sh exports TOPOCOLL_NETWORK, the platform), shift (the pattern Open MPI's
# pairwise runs), pairwise and SMPI's own MPI_Alltoall under the ompi and mpich selectors, at 16,
# 64 and 256 MiB per server (the server's whole send buffer: blocks of bytes / p, its own block a
# charged local copy), on the paper's four jobs of platforms/mlfm-d3-32, two random allocations of
# its servers, all 32 of them (`whole`: no box, a prism of the columns), and the full systems of
# D = 3 to 6 (n = D, l = D + 1, m = D), under the SMPI-unit and CM02 models. Timing points run
# on shared buffers (--shared-malloc: valid=skipped); each job is validated byte-exact separately
# at 64 KiB per server. Local copies are charged at 5 GB/s. No
# mpich point at an odd number of ranks (SimGrid's mpich selector aborts there); where the ompi
# selector picks `pair` (80 ranks and more, large blocks) it aborts too, after the other algorithms' rows.
# Writes results/mlfm/mlfm-JOB.csv (model,job,selector, then topocoll-bench's columns).
# Usage: scripts/mlfm-experiment.sh [JOB...]   (default: 2-3-2 3-3-2 3-4-2 2-4-3 random-17 random-24 whole full-d3 ... full-d6)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out="$repo/results/mlfm"
mkdir -p "$out"
platform_tool="$repo/build/mpi/tools/topocoll-platform"
testbed="$repo/platforms/mlfm-d3-32"

# The full system of D (every server: n = D, l = D + 1, m = D), with the testbed's links.
full_system() {
  local d=$1
  [[ -x $platform_tool ]] || { echo "$0: build the mpi preset first (cmake --build --preset mpi)" >&2; exit 2; }
  local mesh=(mlfm --d "$d" --latency 500ns --switch-latency 100ns --name "mlfm-d$d-full" -o "$out")
  "$platform_tool" "${mesh[@]}" >/dev/null
  "$platform_tool" "${mesh[@]}" --job "$d,$((d + 1)),$d" >/dev/null
}
# Two allocations that are no box: servers of the testbed drawn as scripts/link-loads-table.py
# draws them (Python's random.Random(seed).sample), 17 (seed 3) and 24 (seed 4).
for job in 17:3 24:4; do
  python3 -c 'import random, sys
servers = [l.strip() for l in open(sys.argv[1]) if l.strip()]
print("\n".join(random.Random(int(sys.argv[3])).sample(servers, int(sys.argv[2]))))' \
    "$testbed.hosts" "${job%:*}" "${job#*:}" >"$out/random-${job%:*}.hosts"
done

# platform, hostfile, topology and ranks of JOB
describe() {
  case "$1" in
    random-*) echo "$testbed.xml $out/$1.hosts $testbed.topology.json ${1#random-}" ;;
    whole) echo "$testbed.xml $testbed.hosts $testbed.topology.json 32" ;;
    full-d*) local d=${1#full-d}; echo "$out/mlfm-d$d-full.xml $out/mlfm-d$d-full-$d-$((d + 1))-$d.hosts $out/mlfm-d$d-full.topology.json $((d * (d + 1) * d))" ;;
    *) local box; IFS=- read -ra box <<<"$1"; echo "$testbed.xml $testbed-$1.hosts $testbed.topology.json $((box[0] * box[1] * box[2]))" ;;
  esac
}

flags=(--format csv --copy-bandwidth 5e9 --sync window -i 1 -x 0)
# run JOB MODEL SELECTOR ALGORITHMS BENCH-ARGS...
run() {
  local job=$1 model=$2 selector=$3 algorithms=$4
  shift 4
  local platform hostfile topology np
  read -r platform hostfile topology np <<<"$(describe "$job")"
  echo "# $job $model $selector $algorithms $*" >&2
  "$repo/scripts/simulate.sh" --model "$model" --selector "$selector" --hostfile "$hostfile" --topology "$topology" \
    "$platform" "$np" -- "${flags[@]}" --algorithms "$algorithms" "$@" 2>/dev/null |
    grep -v '^#' | grep -v '^op,' | sed "s/^/$model,$job,$selector,/" >>"$out/mlfm-$job.csv"
}

jobs=("$@")
((${#jobs[@]} > 0)) || jobs=(2-3-2 3-3-2 3-4-2 2-4-3 random-17 random-24 whole full-d3 full-d4 full-d5 full-d6)
mib=$((1024 * 1024))
for job in "${jobs[@]}"; do
  [[ $job == full-d* ]] && full_system "${job#full-d}"
  read -r _ _ _ np <<<"$(describe "$job")"
  algorithms=mlfm,linkaware,shift,pairwise,native
  [[ $job == random-* || $job == whole ]] && algorithms=linkaware,shift,pairwise,native
  echo "model,job,selector,op,algorithm,np,bytes,avg_us,min_us,max_us,iterations,valid" >"$out/mlfm-$job.csv"
  run "$job" SMPI-unit ompi "$algorithms" -m $((65536 / np))   # byte-exact check
  for model in SMPI-unit CM02; do
    for per_server in 16 64 256; do
      block=$((per_server * mib / np))
      run "$job" "$model" ompi "$algorithms" --shared-malloc -m "$block"
      # SimGrid 3.32's mpich selector runs its `pair` alltoall on large blocks, which aborts at an
      # odd number of ranks ("can't be used with non power of two number of processes").
      ((np % 2 == 1)) || run "$job" "$model" mpich native --shared-malloc -m "$block"
    done
  done
  echo "wrote $out/mlfm-$job.csv" >&2
done
