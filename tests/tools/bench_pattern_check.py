#!/usr/bin/env python3
"""topocoll-bench --op alltoallv --pattern under mpirun: every pattern's sizes run byte-exact
(valid = yes) for liu and the flat algorithms against MPI_Alltoallv, the pattern and its seed
are printed with the results, and bad uses fail clearly.

Usage: bench_pattern_check.py MPIEXEC BENCH [MPIEXEC-FLAGS...]
"""
import csv
import io
import sys

from check_support import check, finish, run_mpi

mpiexec, bench = sys.argv[1:3]
mpiexec_flags = sys.argv[3:]


def run(np, *args):
    return run_mpi(mpiexec, mpiexec_flags, np, bench, *args)


for pattern in ["uniform", "random", "zipf:1.2", "sparse:2", "hotspot:1"]:
    result = run(5, "--op", "alltoallv", "--pattern", pattern, "--seed", "9", "-m", "8:20000", "-i", "2", "-x", "0",
                 "--format", "csv", "--algorithms", "liu,direct,pairwise,native")
    check(result.returncode == 0, f"{pattern}: exit {result.returncode}: {result.stderr[-500:]}")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    check(len(rows) == 4 * 12, f"{pattern}: {len(rows)} rows")
    bad = [(r["algorithm"], r["bytes"]) for r in rows if r["valid"] != "yes"]
    check(not bad, f"{pattern}: not byte-exact: {bad}")
    check(f"# pattern: {pattern} (seed 9)" in result.stderr, f"{pattern}: the pattern is not printed: {result.stderr[-300:]}")

# Rows smaller than the set-up call's p one-byte blocks (the buffers must still hold those).
tiny = run(5, "--op", "alltoallv", "--pattern", "sparse:1", "--seed", "4", "-m", "1:4", "-i", "1", "-x", "0",
           "--format", "csv", "--algorithms", "liu,direct,native")
check(tiny.returncode == 0, f"sparse rows under p bytes: exit {tiny.returncode}: {tiny.stderr[-500:]}")
tiny_rows = list(csv.DictReader(io.StringIO(tiny.stdout)))
check(len(tiny_rows) == 9 and all(r["valid"] == "yes" for r in tiny_rows), f"sparse rows under p bytes: {tiny.stdout}")

osu = run(3, "--op", "alltoallv", "--pattern", "random", "-m", "64", "-i", "1", "-x", "0", "--algorithms", "liu")
check(osu.returncode == 0 and "# pattern: random (seed 1)" in osu.stdout, f"osu format: {osu.stdout[-300:]}")

for args, expected in [(["--pattern", "zipf:x", "--op", "alltoallv"], "is not a positive number"),
                       (["--pattern", "random"], "applies only to --op alltoallv"),
                       (["--pattern", "skewed", "--op", "alltoallv"], "expected uniform, random")]:
    result = run(2, *args)
    check(result.returncode != 0, f"{args}: accepted")
    check(expected in result.stdout + result.stderr, f"{args}: no '{expected}' in {result.stderr[-300:]}")

finish("bench patterns: all checks passed")
