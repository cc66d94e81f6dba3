#!/usr/bin/env bash
# Proves from the machine code that libtopocoll-pmpi.so cannot re-enter itself: no call site
# in it targets MPI_Alltoall or MPI_Alltoallv (which would bind to its own interposed
# definitions), while the executor's native path calls __wrap_MPI_Alltoall (PMPI_Alltoall),
# so the --wrap link option is in effect and the check is not vacuous.
# Usage: check_no_self_calls.sh LIBRARY
set -euo pipefail
library="$1"
disassembly=$(objdump -d --no-show-raw-insn "$library")
calls=$(grep -E '\s(call|jmp)\s' <<<"$disassembly" || true)

status=0
if grep -E '<MPI_Alltoallv?(@plt)?>' <<<"$calls"; then
  echo "FAIL: $library calls its own interposed MPI_Alltoall(v) (listed above)" >&2
  status=1
fi
for target in '__wrap_MPI_Alltoall' 'PMPI_Alltoall@plt' 'PMPI_Alltoallv@plt'; do
  if ! grep -qF "<$target>" <<<"$calls"; then
    echo "FAIL: no call to $target in $library" >&2
    status=1
  fi
done
[[ $status -eq 0 ]] && echo "check_no_self_calls: $library never calls MPI_Alltoall(v), only PMPI_Alltoall(v)"
exit $status
