#!/usr/bin/env bash
# Tam and Wang's Figure 2 in simulation (complete-exchange-on-clusters.txt, Sec. 4.1): bandwidth
# per node of each alltoall algorithm for k = 4..768 packets of 1492 bytes at p = 16 on
# platforms/crossbar-16, next to the Tam-Wang optimum and each algorithm's predicted time.
# Checks the platform mapping first (one k-packet message at p = 2 against T_ptp), and ends
# with the same sweep under other network settings (CM02, SMPI's calibrated factors,
# cross-traffic). Writes results/crossbar-16-*.csv, the predictions, the log (SimGrid
# configurations, wall-clock time) and results/crossbar-16-fig2-table.md (the tables of
# docs/results.md). Usage: scripts/crossbar-experiment.sh
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
results="$repo/results"
simulate="$repo/scripts/simulate.sh"
mkdir -p "$results"

readonly packet_bytes=1492
readonly np=16
readonly algorithms=direct,shift,pairwise,group-shuffle,bruck,native
# Memory copies of a 450 MHz Pentium III with PC100 SDRAM: a few hundred MB/s (docs/results.md).
readonly copy_bandwidth=3e8
readonly common=(--group-width 5 --copy-bandwidth "$copy_bandwidth")
log="$results/crossbar-16-fig2.log"
: >"$log"

bytes_of() { echo $(($1 * packet_bytes)); }

# Runs simulate.sh, appending its configuration (standard error) to the log and printing the
# benchmark's output without the CSV header when $1 is 'no-header'.
run() {
  local header=$1
  shift
  echo "## scripts/simulate.sh $*" >>"$log"
  if [[ "$header" == no-header ]]; then
    "$simulate" "$@" 2>>"$log" | tail -n +2
  else
    "$simulate" "$@" 2>>"$log"
  fi
}

# The sweep in three parts: k = 4..64 (10 timed calls), 128..512 and 768 (3 timed calls; the
# simulation is deterministic, so more calls would only repeat the same number).
# Arguments: the benchmark's --algorithms, then simulate.sh options (selector, model, cfg).
sweep() {
  local algorithm_list=$1
  shift
  run header "$@" crossbar-16 $np -- --format csv --algorithms "$algorithm_list" \
    "${common[@]}" -m "$(bytes_of 4):$(bytes_of 64)" -i 10 -x 2
  run no-header "$@" crossbar-16 $np -- --format csv --algorithms "$algorithm_list" \
    "${common[@]}" -m "$(bytes_of 128):$(bytes_of 512)" -i 3 -x 1
  run no-header "$@" crossbar-16 $np -- --format csv --algorithms "$algorithm_list" \
    "${common[@]}" -m "$(bytes_of 768)" -i 3 -x 1
}

start=$SECONDS
# Announces a step on standard error and records, in the log, the time spent so far.
step() {
  echo "$*" >&2
  echo "# $((SECONDS - start)) s: starting $*" >>"$log"
}

step "1/5 platform check: p = 2, shift, one k-packet message each way (copies ~free)"
run header crossbar-16 2 -- --format csv --algorithms shift --copy-bandwidth 1e15 \
  -m "$(bytes_of 1):$(bytes_of 512)" -i 3 -x 1 >"$results/crossbar-16-ptp.csv"
run no-header crossbar-16 2 -- --format csv --algorithms shift --copy-bandwidth 1e15 \
  -m "$(bytes_of 768)" -i 3 -x 1 >>"$results/crossbar-16-ptp.csv"

step "2/5 Figure 2 sweep, selector ompi (all algorithms)"
sweep "$algorithms" --selector ompi >"$results/crossbar-16-fig2-ompi.csv"

step "3/5 Figure 2 sweep, selector mpich (native only)"
sweep native --selector mpich >"$results/crossbar-16-fig2-mpich.csv"

step "4/5 Tam-Wang predictions (osu format, --predict; one timed call on shared buffers)"
{
  for range in "$(bytes_of 4):$(bytes_of 512)" "$(bytes_of 768)"; do
    run header crossbar-16 $np -- --format osu --predict --algorithms direct,shift,pairwise,group-shuffle,bruck \
      "${common[@]}" --shared-malloc -m "$range" -i 1 -x 1
  done
} >"$results/crossbar-16-fig2-predicted.txt"

step "5/5 sensitivity: CM02, SMPI's calibrated factors, cross-traffic on (selector ompi)"
sweep "$algorithms" --model CM02 >"$results/crossbar-16-fig2-cm02.csv"
sweep "$algorithms" --model SMPI-default >"$results/crossbar-16-fig2-smpi-default.csv"
sweep "$algorithms" --cfg network/crosstraffic:1 >"$results/crossbar-16-fig2-crosstraffic.csv"

elapsed=$((SECONDS - start))
echo "# total wall-clock time: ${elapsed} s" >>"$log"

awk -v np=$np -v packet_bytes=$packet_bytes -f "$repo/scripts/crossbar-table.awk" \
  "$results/crossbar-16-ptp.csv" "$results/crossbar-16-fig2-ompi.csv" "$results/crossbar-16-fig2-mpich.csv" \
  "$results/crossbar-16-fig2-predicted.txt" "$results/crossbar-16-fig2-cm02.csv" \
  "$results/crossbar-16-fig2-smpi-default.csv" "$results/crossbar-16-fig2-crosstraffic.csv" \
  >"$results/crossbar-16-fig2-table.md"
echo "done in ${elapsed} s: results/crossbar-16-fig2-table.md" >&2
