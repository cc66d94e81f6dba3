#!/usr/bin/env python3
"""Markdown tables of the node-aware study (scripts/node-aware-study.sh): per model and rank
count, the simulated time of every series at each block size (max_us, in us; a star: run without
the model's receive overhead, see the CSV's `ended`), the better of the two native selectors, node-aware lg's speed-up over it, the fastest topocoll series over the
lower bound, and auto's choice where it ran. Usage: scripts/node-aware-table.py [DIR]
(default results/node-aware)."""
import csv
import sys
from pathlib import Path

SERIES = ["native-ompi", "native-mpich", "bruck", "pairwise", "direct", "lg-node", "overlap-node", "auto"]
TOPOCOLL = ["bruck", "pairwise", "direct", "lg-node", "overlap-node", "auto"]


def main():
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "results/node-aware")
    times = {}
    for row in csv.DictReader(open(folder / "node-aware.csv")):
        key = (row["model"], int(row["np"]), int(row["bytes"]))
        value = float(row["max_us"]) if row["max_us"] else None
        # "done without o_r": run with SMPI's detached threshold at 0, under which it charges no
        # receive overhead (smpi/or): shown with a star, left out of the ratios.
        if row["ended"] == "done without o_r":
            value = f"{value:.1f}*"
        times.setdefault(key, {})[row["series"]] = value if row["ended"].startswith("done") else row["ended"]
    bounds = {}
    for path in folder.glob("bound-*.csv"):
        for row in csv.DictReader(open(path)):
            bounds[(int(row["np"]), int(row["bytes"]))] = float(row["bound_us"])
    for model, np in sorted({(m, n) for m, n, _ in times}):
        present = [s for s in SERIES if any(s in v for (m, n, _), v in times.items() if (m, n) == (model, np))]
        print(f"\n#### {model}, {np} ranks (16 per host): max_us\n")
        print("| block | " + " | ".join(present) + " | bound | lg-node / better native | fastest topocoll / bound |")
        print("| ---: | " + " | ".join("---:" for _ in present) + " | ---: | ---: | ---: |")
        for size in sorted(b for m, n, b in times if (m, n) == (model, np)):
            row = times[(model, np, size)]
            cells = []
            for s in present:
                v = row.get(s)
                cells.append("-" if v is None else (f"{v:.1f}" if isinstance(v, float) else str(v)))
            natives = [row[s] for s in ("native-ompi", "native-mpich") if isinstance(row.get(s), float)]
            ours = [row[s] for s in TOPOCOLL if isinstance(row.get(s), float)]
            bound = bounds.get((np, size))
            lg = row.get("lg-node")
            speedup = f"{min(natives) / lg:.2f}x" if natives and isinstance(lg, float) else "-"
            over = f"{min(ours) / bound:.2f}" if ours and bound else "-"
            print(f"| {size} | " + " | ".join(cells) + f" | {bound:.1f} | {speedup} | {over} |" if bound else
                  f"| {size} | " + " | ".join(cells) + f" | - | {speedup} | {over} |")


if __name__ == "__main__":
    main()
