#!/usr/bin/env python3
"""Tables of the liu study (scripts/liu-experiment.sh) for docs/results.md.

For each platform and network model, one Markdown table: a row per traffic pattern and size,
the time of the call (max_us: until the last rank is done) of every algorithm measured and of
SMPI's own MPI_Alltoallv under the ompi and mpich selectors, what auto ran (from
liu-PLATFORM-auto.txt), auto's time over the fastest measured there, and the network's lower
bound of the exchange with the fastest over it (from statistics-PLATFORM.csv, written by
scripts/liu-statistics.sh, when present). Then one table per platform of every algorithm's
start-ups on the critical path and L_max per pattern and size, from the same file.

Usage: scripts/liu-table.py [PLATFORM...]   (default: every results/liu/liu-*.csv)
"""
import csv
import glob
import os
import re
import sys

ORDER = ["liu", "direct", "pairwise", "lg", "overlap", "auto", "native-ompi", "native-mpich"]


def size_label(size):
    return f"{size // 1024} KiB" if size >= 1024 else f"{size} B"


def auto_runs(path):
    """(model, pattern, bytes) -> what auto ran, from topocoll-bench's 'auto at' lines."""
    runs = {}
    if not os.path.exists(path):
        return runs
    for line in open(path):
        m = re.match(r"([^,]+),[^,]+,(.+?): topocoll-bench: auto at (\d+) bytes per block runs (.+?), chosen", line)
        if m:
            runs[(m.group(1), m.group(2), int(m.group(3)))] = m.group(4)
    return runs


def statistics(path):
    """(pattern, bytes, algorithm) -> the row of statistics-PLATFORM.csv; {} without the file."""
    if not os.path.exists(path):
        return {}
    return {(row["pattern"], int(row["bytes"]), row["algorithm"]): row for row in csv.DictReader(open(path))}


def statistics_table(platform, stats):
    algorithms = [a for a in ORDER if any(k[2] == a for k in stats)]
    cases = sorted({(p, b) for (p, b, _) in stats})
    out = [f"#### {platform}: start-ups on the critical path and L_max in bytes (the most a rank moves)\n",
           "| pattern | size | " + " | ".join(algorithms) + " | bound (us) | limited by |",
           "|---" * (len(algorithms) + 4) + "|"]
    for pattern, size in cases:
        cells = []
        for a in algorithms:
            row = stats.get((pattern, size, a))
            cells.append(f"{row['startups']}, {row['max_traffic_bytes']}" if row else "")
        bound = stats.get((pattern, size, "bound"))
        out.append(f"| {pattern} | {size_label(size)} | " + " | ".join(cells) +
                   (f" | {float(bound['bound_us']):.1f} | {bound['limited_by']} |" if bound else " | | |"))
    out.append("")
    return "\n".join(out)


def tables(csv_path):
    platform = os.path.basename(csv_path)[len("liu-"):-len(".csv")]
    runs = auto_runs(os.path.join(os.path.dirname(csv_path), f"liu-{platform}-auto.txt"))
    stats = statistics(os.path.join(os.path.dirname(csv_path), f"statistics-{platform}.csv"))
    times = {}
    for row in csv.DictReader(open(csv_path)):
        name = row["algorithm"] if row["algorithm"] != "native" else "native-" + row["selector"]
        if row["valid"] != "yes":
            name += " (invalid)"
        times.setdefault(row["model"], {})[(row["pattern"], int(row["bytes"]), name)] = float(row["max_us"])
    out = []
    for model, points in times.items():
        series = [s for s in ORDER if any(n == s for (_, _, n) in points)]
        cases = sorted({(p, b) for (p, b, _) in points}, key=lambda c: (c[0], c[1]))
        bounds = " | bound | fastest / bound" if stats else ""
        out.append(f"#### {platform}, {model}: time of the call in us (auto's choice; auto over the fastest)\n")
        out.append("| pattern | size | " + " | ".join(series) + " | auto ran | auto / fastest" + bounds + " |")
        out.append("|---" * (len(series) + 4 + (2 if stats else 0)) + "|")
        for pattern, size in cases:
            row = [points.get((pattern, size, s)) for s in series]
            cells = [f"{t:.1f}" if t is not None else "" for t in row]
            measured = [t for t in row if t is not None]
            fastest = min(measured) if measured else None
            auto = points.get((pattern, size, "auto"))
            ratio = f"{auto / fastest:.3f}" if auto is not None and fastest else ""
            bound_cells = ""
            if stats:
                bound = stats.get((pattern, size, "bound"))
                bound_us = float(bound["bound_us"]) if bound else None
                bound_cells = (f" | {bound_us:.1f} | {fastest / bound_us:.2f}" if bound_us and fastest else " | |")
            out.append(f"| {pattern} | {size_label(size)} | " + " | ".join(cells) +
                       f" | {runs.get((model, pattern, size), '')} | {ratio}{bound_cells} |")
        out.append("")
    if stats:
        out.append(statistics_table(platform, stats))
    return "\n".join(out)


def main(argv):
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "results", "liu")
    paths = [os.path.join(here, f"liu-{p}.csv") for p in argv] or sorted(glob.glob(os.path.join(here, "liu-*.csv")))
    for path in paths:
        if not os.path.exists(path):
            print(f"liu-table.py: no {path} (scripts/liu-experiment.sh)", file=sys.stderr)
            return 2
        print(tables(path))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
