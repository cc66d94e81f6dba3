#!/usr/bin/env python3
"""topocoll-bench --op alltoallv --pattern under mpirun: every pattern's sizes run byte-exact
(valid = yes) for liu and the flat algorithms against MPI_Alltoallv, the pattern and its seed
are printed with the results, and bad uses fail clearly.

Usage: bench_pattern_check.py MPIEXEC BENCH [MPIEXEC-FLAGS...]
"""
import csv
import io
import subprocess
import sys

mpiexec, bench = sys.argv[1:3]
mpiexec_flags = sys.argv[3:]
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def run(np, *args):
    command = [mpiexec, "-np", str(np), *mpiexec_flags, bench, *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=240)


for pattern in ["uniform", "random", "zipf:1.2", "sparse:2", "hotspot:1"]:
    result = run(5, "--op", "alltoallv", "--pattern", pattern, "--seed", "9", "-m", "8:20000", "-i", "2", "-x", "0",
                 "--format", "csv", "--algorithms", "liu,direct,pairwise,native")
    check(result.returncode == 0, f"{pattern}: exit {result.returncode}: {result.stderr[-500:]}")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    check(len(rows) == 4 * 12, f"{pattern}: {len(rows)} rows")
    bad = [(r["algorithm"], r["bytes"]) for r in rows if r["valid"] != "yes"]
    check(not bad, f"{pattern}: not byte-exact: {bad}")
    check(f"# pattern: {pattern} (seed 9)" in result.stderr, f"{pattern}: the pattern is not printed: {result.stderr[-300:]}")

osu = run(3, "--op", "alltoallv", "--pattern", "random", "-m", "64", "-i", "1", "-x", "0", "--algorithms", "liu")
check(osu.returncode == 0 and "# pattern: random (seed 1)" in osu.stdout, f"osu format: {osu.stdout[-300:]}")

for args, expected in [(["--pattern", "zipf:x", "--op", "alltoallv"], "is not a positive number"),
                       (["--pattern", "random"], "applies only to --op alltoallv"),
                       (["--pattern", "skewed", "--op", "alltoallv"], "expected uniform, random")]:
    result = run(2, *args)
    check(result.returncode != 0, f"{args}: accepted")
    check(expected in result.stdout + result.stderr, f"{args}: no '{expected}' in {result.stderr[-300:]}")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("bench patterns: all checks passed")
