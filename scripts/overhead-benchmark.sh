#!/usr/bin/env bash
# What topocoll costs on this machine, under real Open MPI over shared memory (mpirun
# --oversubscribe): prints markdown tables for docs/results.md.
#  1. Each flat algorithm (direct, shift, pairwise, group-shuffle, bruck) against the MPI
#     library's own MPI_Alltoall (native), at 1 KiB, 64 KiB and 1 MiB per block, p = 2 and 4.
#     One topocoll-bench job per (p, size) times them all side by side (OSU style, validated);
#     each ratio is an algorithm's time over native's from the same job. RUNS such jobs per
#     point: the table shows the median ratio and the range.
#  2. The library's own cost, schedule building and plan caching: the first call of an
#     algorithm on a communicator (which duplicates the communicator, builds the schedule and
#     the execution plan, and runs the exchange) against the steady state of part 1. Each
#     first call is a fresh job timing single calls (-x 0 -i 1) of native, then of the
#     algorithm: native's call touches the buffers and pays the MPI library's own first-use
#     costs, so the algorithm's call adds only topocoll's. The median of REPEATS jobs.
#  3. The drop-in library's per-call cost: native through libtopocoll-pmpi.so (preloaded,
#     TOPOCOLL_ALLTOALL=native) against native without it, at 1 KiB.
#  4. Schedule building alone, for larger p than this machine runs: topocoll-plan builds every
#     rank's schedule (and its statistics); its time, less start-up, over p bounds one rank's
#     share from above.
# Wall-clock times on 2 shared cores with up to 4 ranks are noisy, and other work on the
# machine shows in them (the load average is printed): compare ratios, not digits.
# Usage: scripts/overhead-benchmark.sh [--runs N] [--repeats N] [--scale F] [--build-dir DIR]
#   --runs N         side-by-side jobs per point of part 1 (default 3)
#   --repeats N      first-call jobs per point of part 2 (default 5)
#   --scale F        multiply the iteration counts (default 1; 0.1 for a quick look)
#   --build-dir DIR  a configured and built mpi-preset tree (default build/mpi, built if needed)
set -euo pipefail
cd "$(dirname "$0")/.."

runs=3 repeats=5 scale=1 build=build/mpi
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --repeats) repeats="$2"; shift 2 ;;
    --scale) scale="$2"; shift 2 ;;
    --build-dir) build="$2"; shift 2 ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    *) echo "overhead-benchmark.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

bench="$build/tools/topocoll-bench"
plan="$build/tools/topocoll-plan"
pmpi="$build/src/interpose/libtopocoll-pmpi.so"
if [[ ! -x "$bench" || ! -f "$pmpi" ]]; then
  scripts/install-deps.sh
  cmake --preset mpi >/dev/null
  cmake --build --preset mpi -j "$(nproc)" >/dev/null
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
mpirun=(mpirun.openmpi --oversubscribe)
flat=(direct shift pairwise group-shuffle bruck)
sizes=(1024 65536 1048576)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Timed and warm-up calls per size, scaled.
iterations_for() {
  case "$1" in 1024) echo 4000 ;; 65536) echo 1000 ;; *) echo 100 ;; esac |
    awk -v s="$scale" '{n = int($1 * s); print n < 1 ? 1 : n}'
}
warmup_for() { echo $(( $(iterations_for "$1") / 10 + 1 )); }
csv_rows() { grep -v '^op,'; }  # topocoll-bench's CSV without its header
now_ns() { date +%s%N; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# 1. Rows run,op,algorithm,np,bytes,avg_us,min_us,max_us,iterations,valid.
steady="$work/steady.csv"
for ((run = 1; run <= runs; ++run)); do
  for p in 2 4; do
    for bytes in "${sizes[@]}"; do
      "${mpirun[@]}" -np "$p" "$bench" --format csv --algorithms "$(IFS=,; echo "${flat[*]}"),native" -m "$bytes" \
        -i "$(iterations_for "$bytes")" -x "$(warmup_for "$bytes")" | csv_rows | sed "s/^/$run,/" >>"$steady"
    done
  done
done

# 2. Rows op,algorithm,np,bytes,avg_us,... of single first calls.
first="$work/first.csv"
for p in 2 4; do
  for bytes in "${sizes[@]}"; do
    for algorithm in "${flat[@]}"; do
      for ((r = 0; r < repeats; ++r)); do
        "${mpirun[@]}" -np "$p" "$bench" --format csv --no-validate --algorithms "native,$algorithm" -m "$bytes" \
          -i 1 -x 0 | csv_rows | grep -v ',native,' >>"$first"
      done
    done
  done
done

# 3. Rows plain|preloaded,op,algorithm,np,bytes,avg_us,...
dropin="$work/dropin.csv"
for p in 1 2 4; do
  for mode in plain preloaded; do
    extra=()
    [[ $mode == preloaded ]] && extra=(-x "LD_PRELOAD=$pmpi" -x TOPOCOLL_ALLTOALL=native)
    for ((r = 0; r < 3; ++r)); do
      "${mpirun[@]}" -np "$p" "${extra[@]}" "$bench" --format csv --algorithms native -m 1024 \
        -i "$(iterations_for 1024)" -x "$(warmup_for 1024)" | csv_rows | sed "s/^/$mode,/" >>"$dropin"
    done
  done
done

# 4. Lines "p algorithm nanoseconds", start-up subtracted (best of 5 each).
best_time_ns() {
  local best="" start elapsed
  for ((r = 0; r < 5; ++r)); do
    start=$(now_ns)
    "$@" >/dev/null
    elapsed=$(( $(now_ns) - start ))
    [[ -z "$best" || $elapsed -lt $best ]] && best=$elapsed
  done
  echo "$best"
}
planning="$work/planning.txt"
startup=$(best_time_ns "$plan" --list)
for p in 256 1024; do
  for algorithm in "${flat[@]}"; do
    total=$(best_time_ns "$plan" --algorithm "$algorithm" --topology "flat:$p" --block-bytes 1024 --format json)
    echo "$p $algorithm $(( total > startup ? total - startup : 0 ))" >>"$planning"
  done
done

# Awk helpers shared by the tables: sorting a few numbers, their median.
awk_lib='
  function sort_numbers(v, n,    i, j, t) { for (i = 1; i <= n; ++i) for (j = i + 1; j <= n; ++j) if (v[i] + 0 > v[j] + 0) { t = v[i]; v[i] = v[j]; v[j] = t } }
  function median(list,    v, n) { n = split(list, v, " "); sort_numbers(v, n); return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
  function minimum(list,    v, n) { n = split(list, v, " "); sort_numbers(v, n); return v[1] }
  function maximum(list,    v, n) { n = split(list, v, " "); sort_numbers(v, n); return v[n] }
'
header_cells() { printf ' %s |' "$@"; }
rule_cells() { printf -- ' ---: |%.0s' "$@"; }

echo "Host: $(nproc) cores, $(mpirun.openmpi --version | head -1), shared memory (vader), --oversubscribe;"
echo "load average before the runs: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "#### Steady state: time per call over native's in the same job, median of $runs jobs [min-max]"
echo
echo "| p | bytes per block | native (us, median) |$(header_cells "${flat[@]}")"
echo "| ---: | ---: | ---: |$(rule_cells "${flat[@]}")"
awk -F, -v order="${flat[*]}" "$awk_lib"'
  { avg[$1 "," $4 "," $5 "," $3] = $6; if ($10 != "yes") invalid[$4 "," $5 "," $3] = $10; runs[$1] = 1; points[$4 "," $5] = 1 }
  END {
    n = split(order, names, " ")
    for (p = 1; p <= 64; ++p) for (bytes = 1; bytes <= 1073741824; bytes *= 2) {
      point = p "," bytes
      if (!(point in points)) continue
      natives = ""
      for (r in runs) natives = natives " " avg[r "," point ",native"]
      line = sprintf("| %d | %d | %.1f |", p, bytes, median(natives))
      for (c = 1; c <= n; ++c) {
        ratios = ""
        for (r in runs) ratios = ratios " " avg[r "," point "," names[c]] / avg[r "," point ",native"]
        mark = (point "," names[c]) in invalid ? " INVALID" : ""
        line = line sprintf(" %.2f [%.2f-%.2f]%s |", median(ratios), minimum(ratios), maximum(ratios), mark)
      }
      print line
    }
  }' "$steady"

echo
echo "#### First call on a communicator against the steady state (us; first call: median of $repeats jobs)"
echo
echo "First call = MPI_Comm_dup of the private communicator + schedule + execution plan + the exchange,"
echo "right after one native call in the same job (buffers touched, MPI warmed up for this size)."
echo
echo "| p | bytes per block | algorithm | first call | steady state (median) | first-call extra |"
echo "| ---: | ---: | --- | ---: | ---: | ---: |"
awk -F, "$awk_lib"'
  NR == FNR { steady[$4 "," $5 "," $3] = steady[$4 "," $5 "," $3] " " $6; next }
  { k = $3 "," $4 "," $2; times[k] = times[k] " " $5; if (!(k in seen)) { seen[k] = 1; order[++m] = k } }
  END {
    for (i = 1; i <= m; ++i) {
      k = order[i]
      split(k, f, ",")
      first_call = median(times[k]); steady_state = median(steady[k])
      printf "| %d | %d | %s | %.1f | %.1f | %.1f |\n", f[1], f[2], f[3], first_call, steady_state, first_call - steady_state
    }
  }' "$steady" "$first"

echo
echo "#### The drop-in library's per-call cost: native with and without libtopocoll-pmpi.so (1 KiB, us)"
echo
echo "Three jobs each, $(iterations_for 1024) calls per job; preloaded = LD_PRELOAD=libtopocoll-pmpi.so TOPOCOLL_ALLTOALL=native."
echo
echo "| p | without | preloaded |"
echo "| ---: | --- | --- |"
awk -F, '
  { k = $4 "," $1; runs[k] = runs[k] sprintf("%s%.2f", runs[k] == "" ? "" : ", ", $6); ps[$4] = 1 }
  END { for (p = 1; p <= 64; ++p) if (p in ps) printf "| %d | %s | %s |\n", p, runs[p ",plain"], runs[p ",preloaded"] }' "$dropin"

echo
echo "#### Schedule building alone: topocoll-plan's time for all p schedules and their statistics,"
echo "less its start-up ($(( startup / 1000 )) us), over p: us per rank, best of 5"
echo
echo "| p |$(header_cells "${flat[@]}")"
echo "| ---: |$(rule_cells "${flat[@]}")"
awk -v order="${flat[*]}" '
  { t[$1 "," $2] = $3; ps[$1] = 1 }
  END {
    n = split(order, names, " ")
    for (p = 1; p <= 65536; p *= 2) if (p in ps) {
      line = sprintf("| %d |", p)
      for (c = 1; c <= n; ++c) line = line sprintf(" %.1f |", t[p "," names[c]] / 1000 / p)
      print line
    }
  }' "$planning"
