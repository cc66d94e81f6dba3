#!/usr/bin/env bash
# Proves from the machine code that libtopocoll-pmpi.so cannot re-enter itself: no call site
# in it targets one of the operations it interposes (MPI_Alltoall, MPI_Alltoallv, MPI_Alltoallw,
# MPI_Scatter, MPI_Gather, MPI_Scatterv, MPI_Gatherv, their nonblocking MPI_I forms and, under
# MPI-4, their large-count _c forms; and the completion calls MPI_Wait ... MPI_Request_get_status:
# those would bind to its own definitions), while the executor's native path calls
# __wrap_MPI_Alltoall, __wrap_MPI_Scatter, __wrap_MPI_Ialltoall, and its windows __wrap_MPI_Waitall
# and __wrap_MPI_Testsome (the PMPI_ entry points), so the --wrap link options are in effect and
# the check is not vacuous.
# Usage: check_no_self_calls.sh LIBRARY
set -euo pipefail
library="$1"
disassembly=$(objdump -d --no-show-raw-insn "$library")
calls=$(grep -E '\s(call|jmp)\s' <<<"$disassembly" || true)

status=0
if grep -E '<MPI_(I?(Alltoall[vw]?|Scatterv?|Gatherv?)(_c)?|(Wait|Test)(all|any|some)?|Request_get_status)(@plt)?>' <<<"$calls"; then
  echo "FAIL: $library calls one of its own interposed operations (listed above)" >&2
  status=1
fi
for target in '__wrap_MPI_Alltoall' '__wrap_MPI_Scatter' '__wrap_MPI_Ialltoall' '__wrap_MPI_Waitall' \
              '__wrap_MPI_Testsome' 'PMPI_Waitall@plt' 'PMPI_Ialltoall@plt' 'PMPI_Alltoall@plt' 'PMPI_Alltoallv@plt' \
              'PMPI_Alltoallw@plt' 'PMPI_Scatter@plt' 'PMPI_Gather@plt' 'PMPI_Scatterv@plt' 'PMPI_Gatherv@plt'; do
  if ! grep -qF "<$target>" <<<"$calls"; then
    echo "FAIL: no call to $target in $library" >&2
    status=1
  fi
done
[[ $status -eq 0 ]] && echo "check_no_self_calls: $library never calls its interposed operations, only their PMPI_ forms"
exit $status
