#!/usr/bin/env bash
# Runs the HPC Challenge suite (Debian's hpcc, an Open MPI program nobody here wrote) on 4
# ranks with libtopocoll-pmpi.so preloaded, on an input small enough for seconds, and checks:
# topocoll answered hpcc's MPI_Alltoall (its MPIFFT transposes), hpcc's summary says
# Success=1, and MPIFFT's error passes hpcc's own test (max|x-x0| / ln(N) / eps < threshold,
# the check mpifft.c computes but does not print). Exits 77 (skipped) when hpcc and the
# library use different MPI libraries.
# Usage: hpcc_check.sh HPCC LIBTOPOCOLL_PMPI MPIEXEC WORK_DIR
set -euo pipefail
hpcc="$1" library="$2" mpiexec="$3" work="$4"
here="$(cd "$(dirname "$0")" && pwd)"

rm -rf "$work"
mkdir -p "$work"
threshold=16.0
# HPL input: N=400 in blocks of 40 on a 2x2 grid; the other tests size themselves from it.
cat >"$work/hpccinf.txt" <<INPUT
HPLinpack benchmark input file
topocoll drop-in test: a small run on 4 ranks
HPL.out      output file name (if any)
8            device out (6=stdout,7=stderr,file)
1            # of problems sizes (N)
400          Ns
1            # of NBs
40           NBs
0            PMAP process mapping (0=Row-,1=Column-major)
1            # of process grids (P x Q)
2            Ps
2            Qs
$threshold         threshold
1            # of panel fact
2            PFACTs (0=left, 1=Crout, 2=Right)
1            # of recursive stopping criterium
4            NBMINs (>= 1)
1            # of panels in recursion
2            NDIVs
1            # of recursive panel fact.
1            RFACTs (0=left, 1=Crout, 2=Right)
1            # of broadcast
1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)
1            # of lookahead depth
1            DEPTHs (>=0)
2            SWAP (0=bin-exch,1=long,2=mix)
64           swapping threshold
0            L1 in (0=transposed,1=no-transposed) form
0            U  in (0=transposed,1=no-transposed) form
1            Equilibration (0=no,1=yes)
8            memory alignment in double (> 0)
##### This line (no. 32) is ignored (it serves as a separator). ######
0                               Number of additional problem sizes for PTRANS
1200 10000 30000                values of N
0                               number of additional blocking sizes for PTRANS
40 9 8 13 13 20 16 32 64        values of NB
INPUT

"$here/run_mpi_program.sh" --mpiexec "$mpiexec" --np 4 --workdir "$work" --preload "$library" \
  --env TOPOCOLL_VERBOSE=1 --env TOPOCOLL_ALLTOALL=pairwise \
  --expect "MPI_Alltoall on MPI_COMM_WORLD \(4 ranks\): answered by topocoll" \
  --output hpccoutf.txt --expect-output '^Success=1$' --expect-output '^MPIFFT_maxErr=' \
  -- "$hpcc"

# MPIFFT's own pass criterion, with HPL's eps (2^-53) and the threshold above.
awk -F= -v threshold="$threshold" '
  $1 == "MPIFFT_N" { n = $2 }
  $1 == "MPIFFT_maxErr" { err = $2 }
  END {
    if (n <= 1 || err == "") { print "FAIL: no MPIFFT_N / MPIFFT_maxErr in the summary" > "/dev/stderr"; exit 1 }
    scaled = err / log(n) / (2 ^ -53)
    printf "hpcc_check: MPIFFT N=%d max|x-x0|=%s, scaled error %.3g (passes below %s)\n", n, err, scaled, threshold
    exit !(err >= 0 && scaled < threshold)
  }' "$work/hpccoutf.txt"
echo "hpcc_check: passed"
