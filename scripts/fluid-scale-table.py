#!/usr/bin/env python3
"""The tables of scripts/fluid-scale.sh (docs/results.md, "The fluid model at scale").

Usage: scripts/fluid-scale-table.py [OUT]   (default results/fluid-scale)

Reads OUT/fluid-scale.csv and OUT/bound.csv, and the SimGrid runs of the node-aware study
(results/node-aware/node-aware.csv, SMPI-unit) for the same series at 256 and 1024 ranks. Prints:
1. the model against SimGrid where both ran (exact reading, and links alike);
2. every size of job: each series' time (exact where read, else links alike), the bound, and lg
   over the hosts against bruck (both native selectors' algorithm below 200 B blocks);
3. where both readings ran, links alike against exact;
4. the cost model's predictions (auto's, OUT/cost-model.csv) against the fluid model, and auto's
   choice priced by the fluid model against bruck;
5. the model's own cost (seconds and peak memory of topocoll-plan --fluid) against p.
"""
import csv
import os
import sys

SERIES = ["bruck", "lg-node", "direct", "pairwise", "overlap-node", "overlap"]


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "results", "fluid-scale")
    fluid = {}  # (np, series, bytes, reading) -> (us, seconds, mb)
    with open(os.path.join(out, "fluid-scale.csv")) as f:
        for row in csv.DictReader(f):
            if row["fluid_us"]:
                key = (int(row["np"]), row["series"], int(row["bytes"]), row["reading"])
                fluid[key] = (float(row["fluid_us"]), float(row["model_s"]), int(row["peak_mb"]))
    bound = {}
    with open(os.path.join(out, "bound.csv")) as f:
        for row in csv.DictReader(f):
            bound[(int(row["np"]), int(row["bytes"]))] = float(row["bound_us"])
    simulated = {}
    node_aware = os.path.join(root, "results", "node-aware", "node-aware.csv")
    if os.path.exists(node_aware):
        with open(node_aware) as f:
            for row in csv.DictReader(f):
                if row["model"] == "SMPI-unit" and row["max_us"] and row["series"] in SERIES:
                    simulated[(int(row["np"]), row["series"], int(row["bytes"]))] = float(row["max_us"])

    nps = sorted({k[0] for k in fluid})
    sizes = sorted({k[2] for k in fluid})

    def best(np, series, size):
        for reading in ("every-link", "links-alike"):
            if (np, series, size, reading) in fluid:
                return fluid[(np, series, size, reading)][0], reading
        return None, None

    print("#### The fluid model against SimGrid (SMPI-unit, 16 ranks per host): us, and the model's error\n")
    print("| ranks | series | block | SimGrid | exact reading | links alike |")
    print("| ---: | --- | ---: | ---: | ---: | ---: |")
    for (np, series, size), sim in sorted(simulated.items(), key=lambda kv: (kv[0][0], SERIES.index(kv[0][1]), kv[0][2])):
        cells = []
        for reading in ("every-link", "links-alike"):
            value = fluid.get((np, series, size, reading))
            cells.append(f"{value[0]:.1f} ({value[0] / sim - 1:+.1%})" if value else "-")
        print(f"| {np} | {series} | {size} | {sim:.1f} | {cells[0]} | {cells[1]} |")

    for np in nps:
        print(f"\n#### {np} ranks (16 per host): us through the model (exact reading where marked *)\n")
        print("| block | " + " | ".join(SERIES) + " | bound | lg-node / bruck | fastest / bound |")
        print("| ---: | " + " | ".join("---:" for _ in SERIES) + " | ---: | ---: | ---: |")
        for size in sizes:
            cells, values = [], {}
            for series in SERIES:
                value, reading = best(np, series, size)
                values[series] = value
                cells.append("-" if value is None else f"{value:.1f}{'*' if reading == 'every-link' else ''}")
            if all(v is None for v in values.values()):
                continue  # a size not run at this many ranks
            b = bound.get((np, size))
            ratio = values["bruck"] / values["lg-node"] if values["bruck"] and values["lg-node"] else None
            fastest = min(v for v in values.values() if v is not None)
            print(f"| {size} | " + " | ".join(cells) + (f" | {b:.1f} | " if b else " | - | ") +
                  (f"{ratio:.2f}x" if ratio else "-") + (f" | {fastest / b:.2f} |" if b else " | - |"))

    print("\n#### Where both readings ran: links alike / exact\n")
    print("| ranks | series | block | exact | links alike | ratio |")
    print("| ---: | --- | ---: | ---: | ---: | ---: |")
    for (np, series, size, reading), value in sorted(fluid.items()):
        if reading != "every-link" or (np, series, size, "links-alike") not in fluid:
            continue
        alike = fluid[(np, series, size, "links-alike")][0]
        if abs(alike / value[0] - 1) > 0.0005:
            print(f"| {np} | {series} | {size} | {value[0]:.1f} | {alike:.1f} | {alike / value[0]:.3f} |")

    costs = {}  # (np, bytes, series) -> predicted us; (np, bytes) -> auto's choice
    chosen = {}
    cost_file = os.path.join(out, "cost-model.csv")
    if os.path.exists(cost_file):
        with open(cost_file) as f:
            for row in csv.DictReader(f):
                costs[(int(row["np"]), int(row["bytes"]), row["series"])] = float(row["predicted_us"])
                chosen[(int(row["np"]), int(row["bytes"]))] = row["chosen"]
    if costs:
        print("\n#### The cost model (auto's, the 1024-rank calibration) against the fluid model: predicted / fluid, us\n")
        print("| ranks | block | " + " | ".join(SERIES) + " | auto runs | its fluid time | bruck / it |")
        print("| ---: | ---: | " + " | ".join("---" for _ in SERIES) + " | --- | ---: | ---: |")
        for np in nps:
            for size in sizes:
                if (np, size) not in chosen:
                    continue
                cells = []
                for series in SERIES:
                    value, _ = best(np, series, size)
                    predicted = costs.get((np, size, series))
                    cells.append(f"{predicted:.1f} / {value:.1f} ({predicted / value - 1:+.0%})" if value and predicted else "-")
                pick = chosen[(np, size)]
                pick_us, _ = best(np, pick, size)
                bruck, _ = best(np, "bruck", size)
                speed_up = f"{bruck / pick_us:.2f}x" if pick_us and bruck else "-"
                print(f"| {np} | {size} | " + " | ".join(cells) + f" | {pick} | " +
                      (f"{pick_us:.1f}" if pick_us else "-") + f" | {speed_up} |")

    print("\n#### The model's cost: the slowest point of each reading (seconds, peak MB of topocoll-plan)\n")
    print("| ranks | links alike: s | MB | exact: s | MB |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for np in nps:
        cells = []
        for reading in ("links-alike", "every-link"):
            runs = [v for k, v in fluid.items() if k[0] == np and k[3] == reading]
            slowest = max(runs, key=lambda v: v[1]) if runs else None
            cells += [f"{slowest[1]:.2f}", str(max(v[2] for v in runs))] if slowest else ["-", "-"]
        print(f"| {np} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
