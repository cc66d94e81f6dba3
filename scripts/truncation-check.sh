#!/usr/bin/env bash
# Shows whether the MPI library writes a longer message than the receive buffer past its end
# (it must only return MPI_ERR_TRUNCATE): two ranks, sizes below and above the usual eager
# limits, then over TCP. Open MPI 4.1.4 overwrites whatever follows the buffer once a message
# goes by rendezvous (README.md, "Ranks that disagree"). Exits 1 when any size overwrote.
# Usage: scripts/truncation-check.sh [MPIRUN_FLAGS...]   (e.g. --mca btl self,tcp)
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in -h|--help) sed -n '2,6p' "$0"; exit 0 ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc -O1 tests/tools/truncation_check.c -o "$work/truncation_check"
launcher=(mpirun -np 2)
if [[ "$(mpirun --version 2>&1 || true)" == *"Open MPI"* ]]; then launcher+=(--oversubscribe); [[ $(id -u) -eq 0 ]] && launcher+=(--allow-run-as-root); fi
status=0
for sizes in "4000 1000" "4096 16" "60000 100" "160000 1000" "3000000 100"; do
  # shellcheck disable=SC2086
  if ! "${launcher[@]}" "$@" "$work/truncation_check" $sizes; then status=1; fi
done
exit $status
