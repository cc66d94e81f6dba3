#!/usr/bin/env python3
"""Tables of the liu study (scripts/liu-experiment.sh) for docs/results.md.

For each platform and network model, one Markdown table: a row per traffic pattern and size,
the time of the call (max_us: until the last rank is done) of every algorithm measured and of
SMPI's own MPI_Alltoallv under the ompi and mpich selectors, what auto ran (from
liu-PLATFORM-auto.txt), and auto's time over the fastest measured there.

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


def tables(csv_path):
    platform = os.path.basename(csv_path)[len("liu-"):-len(".csv")]
    runs = auto_runs(os.path.join(os.path.dirname(csv_path), f"liu-{platform}-auto.txt"))
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
        out.append(f"#### {platform}, {model}: time of the call in us (auto's choice; auto over the fastest)\n")
        out.append("| pattern | size | " + " | ".join(series) + " | auto ran | auto / fastest |")
        out.append("|---" * (len(series) + 4) + "|")
        for pattern, size in cases:
            row = [points.get((pattern, size, s)) for s in series]
            cells = [f"{t:.1f}" if t is not None else "" for t in row]
            measured = [t for t in row if t is not None]
            fastest = min(measured) if measured else None
            auto = points.get((pattern, size, "auto"))
            ratio = f"{auto / fastest:.3f}" if auto is not None and fastest else ""
            out.append(f"| {pattern} | {size_label(size)} | " + " | ".join(cells) +
                       f" | {runs.get((model, pattern, size), '')} | {ratio} |")
        out.append("")
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
