#!/usr/bin/env python3
"""topocoll-bench --repeat N under mpirun: the repetitions run interleaved (A B C A B C ...),
each row of the CSV is the median of its repetitions, the statistics file's ratios are medians
of per-repetition ratios, auto says what it ran at every size, and bad uses fail clearly.

Usage: bench_repeat_check.py MPIEXEC BENCH CALIBRATION WORK-DIR [MPIEXEC-FLAGS...]
"""
import csv
import os
import statistics
import sys

from check_support import check, finish, run_mpi

mpiexec, bench, calibration, work = sys.argv[1:5]
mpiexec_flags = sys.argv[5:]
ALGORITHMS = ["direct", "auto", "native"]
SIZES = [4, 8]
REPEAT = 3


def run(np, *args):
    return run_mpi(mpiexec, mpiexec_flags, np, bench, *args)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def close(a, b, tolerance):
    return abs(a - b) <= tolerance


os.makedirs(work, exist_ok=True)
stats_path = os.path.join(work, "statistics.csv")
reps_path = os.path.join(work, "repetitions.csv")
result = run(2, "--format", "csv", "--algorithms", ",".join(ALGORITHMS), "--calibration", calibration,
             "-m", f"{SIZES[0]}:{SIZES[-1]}", "-i", "3", "-x", "1", "--repeat", str(REPEAT),
             "--statistics", stats_path, "--repetitions", reps_path)
if result.returncode != 0:
    sys.exit(f"FAIL: topocoll-bench exited {result.returncode}: {result.stderr}")

# The CSV contract: the same columns, one row per algorithm and size, in OSU's order.
lines = result.stdout.splitlines()
check(lines[0] == "op,algorithm,np,bytes,avg_us,min_us,max_us,iterations,valid", f"header: {lines[0]}")
rows = list(csv.DictReader(lines))
check([(r["algorithm"], int(r["bytes"])) for r in rows] == [(a, s) for a in ALGORITHMS for s in SIZES],
      f"rows: {[(r['algorithm'], r['bytes']) for r in rows]}")
check(all(r["valid"] == "yes" and r["iterations"] == "3" for r in rows), "every row valid, 3 iterations")

# Every repetition, in the order run: at each size, REPEAT rounds of every algorithm in turn.
reps = read_csv(reps_path)
expected_order = [(s, r, a) for s in SIZES for r in range(1, REPEAT + 1) for a in ALGORITHMS]
check([(int(x["bytes"]), int(x["repetition"]), x["algorithm"]) for x in reps] == expected_order,
      "repetitions not interleaved: " + str([(x["bytes"], x["repetition"], x["algorithm"]) for x in reps]))
check([int(x["order"]) for x in reps] == list(range(1, len(expected_order) + 1)), "order column")


def times(algorithm, size, column):
    return [float(x[column]) for x in reps if x["algorithm"] == algorithm and int(x["bytes"]) == size]


# Each row: the median of its repetitions (the files round to 0.001 us).
for row in rows:
    a, s = row["algorithm"], int(row["bytes"])
    for column in ("avg_us", "min_us", "max_us"):
        median = statistics.median(times(a, s, column))
        check(close(float(row[column]), median, 0.0015), f"{a}@{s} {column} {row[column]} is not the median {median}")

# The statistics: median, spread, and the median of per-repetition ratios to native.
stats = read_csv(stats_path)
check(len(stats) == len(rows), f"{len(stats)} statistics rows for {len(rows)} points")
for row in stats:
    a, s = row["algorithm"], int(row["bytes"])
    mine, base = times(a, s, "avg_us"), times("native", s, "avg_us")
    check(row["baseline"] == "native", f"baseline {row['baseline']}")
    check(int(row["repetitions"]) == REPEAT, f"{a}@{s}: {row['repetitions']} repetitions")
    check(close(float(row["lowest_avg_us"]), min(mine), 0.0015), f"{a}@{s} lowest_avg_us")
    check(close(float(row["highest_avg_us"]), max(mine), 0.0015), f"{a}@{s} highest_avg_us")
    ratio = statistics.median(m / b for m, b in zip(mine, base))
    check(close(float(row["median_ratio_avg"]), ratio, 0.01 * ratio + 1e-3),
          f"{a}@{s} median_ratio_avg {row['median_ratio_avg']}, expected the median of per-repetition ratios {ratio}")
    if a == "native":
        check(float(row["median_ratio_avg"]) == 1.0, f"native's ratio to itself: {row['median_ratio_avg']}")

# auto says what it ran at every size (standard error: the CSV columns stay fixed).
for s in SIZES:
    check(f"topocoll-bench: auto at {s} bytes per block runs " in result.stderr,
          f"no auto line for {s} bytes in: {result.stderr}")

# With --format osu, a '#' line of auto's table before each row, and the header names the repetitions.
osu = run(2, "--algorithms", "auto", "--calibration", calibration, "-m", "4:8", "-i", "2", "-x", "0", "--repeat", "2")
check(osu.returncode == 0, f"osu run exited {osu.returncode}: {osu.stderr}")
for s in SIZES:
    check(f"# {s} bytes: auto runs " in osu.stdout, f"no '# {s} bytes: auto runs' line in: {osu.stdout}")
check("2 interleaved repetitions (times: their medians)" in osu.stdout, f"osu header: {osu.stdout}")

# Bad uses: a clear message and a non-zero exit.
bad = [
    (["--statistics", stats_path], "--statistics: applies to --repeat N only"),
    (["--repetitions", reps_path], "--repetitions: applies to --repeat N only"),
    (["--repeat", "0"], "--repeat"),
    (["--repeat", "2", "--statistics", os.path.join(work, "no-such-dir", "s.csv")], "cannot write"),
]
for args, message in bad:
    r = run(2, "--format", "csv", "--algorithms", "direct", "-m", "4", "-i", "1", "-x", "0", *args)
    check(r.returncode != 0 and message in r.stderr, f"{args}: exit {r.returncode}, stderr {r.stderr!r}")

finish(f"bench_repeat_check: {len(rows)} rows, {len(reps)} interleaved repetitions, medians and ratios checked")
