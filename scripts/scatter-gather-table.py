#!/usr/bin/env python3
"""Tables of the scatter-gather study (scripts/scatter-gather-experiment.sh) for docs/results.md.

One Markdown table per network model and operation: a row per size, the time of the call
(max_us: from a common start until the last rank is done) of linear, binomial, topo, topo as a
two-level tree, auto (from its cost model, and with a table tuned on the job) and SMPI's own
algorithms under the ompi, mpich and mvapich2 selectors, then the network's lower bound (topocoll-platform bound, the quiet network's). `*` marks points
run on shared buffers (timing only), `-` series that did not run.

Usage: scripts/scatter-gather-table.py   (reads results/ib-switch-tree/scatter-gather*.csv)
"""
import csv
import functools
import os
import subprocess
import sys

COLUMNS = [("topocoll", "linear", "linear"), ("topocoll", "binomial", "binomial"), ("topocoll", "topo", "topo"),
           ("two-level", "topo", "topo, two-level"), ("auto", "auto", "auto"), ("auto-tuned", "auto", "auto, tuned"),
           ("native-ompi", "native", "ompi"),
           ("native-mpich", "native", "mpich"), ("native-mvapich2", "native", "mvapich2")]


@functools.cache
def bound_us(repo, op, size):
    """The bound in us of `op` with `size` bytes per rank, from topocoll-platform bound (once per
    operation and size: every network model shares the quiet network's bound)."""
    tool = os.path.join(repo, "build", "mpi", "tools", "topocoll-platform")
    text = subprocess.run([tool, "bound", "--platform", os.path.join(repo, "platforms", "ib-switch-tree.xml"),
                           "--op", op, "--root", "0", "--hostfile",
                           os.path.join(repo, "platforms", "ib-switch-tree-296.hosts"), "-m", str(size)],
                          capture_output=True, text=True, check=True).stdout.splitlines()
    return float(text[1].split(",")[3])


def main():
    repo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    rows = []
    for name in ("scatter-gather.csv", "scatter-gather-busy.csv"):
        path = os.path.join(repo, "results", "ib-switch-tree", name)
        if not os.path.exists(path):
            print(f"scatter-gather-table.py: no {path} (scripts/scatter-gather-experiment.sh)", file=sys.stderr)
            return 2
        rows += list(csv.DictReader(open(path)))
    points = {(r["model"], r["op"], r["series"], r["algorithm"], int(r["bytes"])): r for r in rows}
    models = list(dict.fromkeys(r["model"] for r in rows))
    for model in models:
        for op in ("gather", "scatter"):
            sizes = sorted({b for (m, o, _, _, b) in points if m == model and o == op})
            if not sizes:
                continue
            print(f"{op}, {model} (us; max over ranks from a common start)\n")
            print("| bytes per rank | " + " | ".join(c[2] for c in COLUMNS) + " | bound |")
            print("|---" * (len(COLUMNS) + 2) + "|")
            for size in sizes:
                cells = []
                for series, algorithm, _ in COLUMNS:
                    r = points.get((model, op, series, algorithm, size))
                    cells.append("-" if r is None else f"{float(r['max_us']):.1f}" + ("*" if r["valid"] == "skipped" else ""))
                print(f"| {size} | " + " | ".join(cells) + f" | {bound_us(repo, op, size):.1f} |")
            print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
