"""topocoll-overlap at 2 ranks, tiny: its CSV has a row per algorithm and size with times that
add up (the overall time at least the computation's, overlap within 0-100%), a topology-aware
algorithm without a known topology is refused with the reason, and a bad size is an error.
Not a timing test: it checks the benchmark's arithmetic and contract, not the machine.

Usage: overlap_check.py MPIEXEC TOPOCOLL_OVERLAP [MPIEXEC_FLAGS...]"""
import csv
import io
import sys

from check_support import check, finish, run_mpi

mpiexec, program, *flags = sys.argv[1:]

result = run_mpi(mpiexec, flags, 2, program, "-a", "native,pairwise,direct", "-m", "1024:4096", "-i", "4",
                 "--tests", "4")
check(result.returncode == 0, f"topocoll-overlap failed: {result.stderr}")
rows = list(csv.DictReader(io.StringIO(result.stdout)))
check([r["algorithm"] for r in rows] == ["native"] * 3 + ["pairwise"] * 3 + ["direct"] * 3,
      f"one row per algorithm and size expected, got {result.stdout}")
for r in rows:
    pure, compute, overall, overlap = (float(r[k]) for k in ("pure_us", "compute_us", "overall_us",
                                                            "overlap_percent"))
    check(r["ranks"] == "2" and r["tests"] == "4", f"ranks and tests columns: {r}")
    check(pure > 0 and compute >= pure * 0.99, f"the computation lasts at least the collective's time: {r}")
    check(overall >= compute, f"start, compute and wait take at least the computation: {r}")
    check(0.0 <= overlap <= 100.0, f"overlap within 0-100%: {r}")
    expected = 100 * min(1, max(0, 1 - (overall - compute) / pure))
    # The columns are rounded to 0.01 us: at sub-microsecond times that moves the percentage.
    tolerance = 0.1 + 100 * 0.02 / pure
    check(abs(overlap - expected) < tolerance,
          f"overlap {overlap} is 100 (1 - (overall - compute) / pure) = {expected} (within {tolerance:.2f})")

result = run_mpi(mpiexec, flags, 2, program, "-a", "lg", "-m", "64", "-i", "2")
check(result.returncode != 0 and "lg" in result.stderr and "does not apply" in result.stderr,
      f"lg without two clusters refused, saying why: rc {result.returncode}, {result.stderr}")

result = run_mpi(mpiexec, flags, 2, program, "-m", "4096:1024")
check(result.returncode == 2 and "MIN:MAX" in result.stderr, f"a bad size range is an error: {result.stderr}")

finish("overlap_check: passed")
