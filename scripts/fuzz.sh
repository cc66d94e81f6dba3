#!/usr/bin/env bash
# Builds the parser fuzz targets (tests/fuzz, Debian's clang and libFuzzer under ASan and UBSan)
# and runs each for a bounded time on a copy of its seed corpus. Exits non-zero on a crash, an
# uncaught exception, a sanitizer report or a leak (libFuzzer saves the input in build/fuzz/).
# Usage: scripts/fuzz.sh [SECONDS-PER-TARGET]   (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in -h|--help) sed -n '2,5p' "$0"; exit 0 ;; esac
seconds="${1:-20}"
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: '$seconds' is not a whole number of seconds" >&2; exit 2; }

cores=$(nproc 2>/dev/null || echo 2)
cmake -S tests/fuzz -B build/fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build/fuzz -j "$cores" >/dev/null

# Each target runs on a core of its own, as many at once as there are cores (each still gets
# its full time); the reports come out in the targets' order.
targets=(topology_json shorthand ibnetdiscover slurm_topology calibration host_pattern)
run_target() {
  local target=$1 corpus="build/fuzz/corpus/$1"
  rm -rf "$corpus" && mkdir -p "$corpus" && cp tests/fuzz/corpus/"$target"/* "$corpus"/
  (cd build/fuzz && "./fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
     -print_final_stats=1 "corpus/$target" 2>"fuzz_$target.log")
}
declare -A pid
for target in "${targets[@]}"; do
  while (( $(jobs -rp | wc -l) >= cores )); do wait -n || true; done
  run_target "$target" & pid[$target]=$!
done

status=0
for target in "${targets[@]}"; do
  echo "=== fuzz_$target: $seconds s"
  if ! wait "${pid[$target]}"; then
    echo "fuzz_$target FAILED (build/fuzz/fuzz_$target.log, the input is saved in build/fuzz/):" >&2
    grep -E "ERROR|SUMMARY|runtime error|terminate" "build/fuzz/fuzz_$target.log" | head -5 >&2
    status=1
  else
    grep -E "stat::number_of_executed_units" "build/fuzz/fuzz_$target.log" || true
  fi
done
exit $status
