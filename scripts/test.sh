#!/usr/bin/env bash
# Installs what is missing, builds both flavours (real Open MPI and SimGrid SMPI) and runs
# every test: schedule-level, real MPI under mpirun, simulated under smpirun; then the schedule
# tests and the MPI tests to 4 ranks again under AddressSanitizer and UndefinedBehaviorSanitizer
# (preset asan), and each parser fuzz target for 20 s (scripts/fuzz.sh). Each suite runs as many
# tests at once as there are cores.
# Exits non-zero on any failure.
# Usage: scripts/test.sh [--with-mpich]   (--with-mpich also builds and tests against MPICH)
set -euo pipefail
cd "$(dirname "$0")/.."

with_mpich=0
for arg in "$@"; do
  case "$arg" in
    --with-mpich) with_mpich=1 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown argument '$arg' (see --help)" >&2; exit 2 ;;
  esac
done

if [[ $with_mpich -eq 1 ]]; then scripts/install-deps.sh --with-mpich; else scripts/install-deps.sh; fi

presets=(mpi smpi)
[[ $with_mpich -eq 1 ]] && presets+=(mpich)
jobs=$(nproc 2>/dev/null || echo 2)

status=0
for preset in "${presets[@]}"; do
  echo "=== $preset: configure and build"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  echo "=== $preset: test"
  if ! ctest --preset "$preset" -j "$jobs" --timeout 900; then status=1; fi
done

echo "=== asan: configure and build (ASan + UBSan)"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs"
echo "=== asan: test"
# Leaks are checked in both: under mpirun, what Open MPI leaves allocated is suppressed by its
# libraries' names (tests/asan/lsan-openmpi.supp), nothing of topocoll's.
if ! ctest --preset asan -j "$jobs" --timeout 900; then status=1; fi
if ! ctest --preset asan-mpi -j "$jobs" --timeout 900; then status=1; fi

echo "=== fuzz: parsers"
if ! scripts/fuzz.sh 20; then status=1; fi
exit $status
