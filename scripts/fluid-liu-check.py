#!/usr/bin/env python3
"""The fluid model against the SimGrid runs of the skewed-traffic study (scripts/liu-experiment.sh,
results/liu/liu-*.csv): every row of direct, pairwise and liu priced by topocoll-plan --fluid with
the settings its run had (1 us per message under overhead-1us; SimGrid's cross-traffic on the
crossbars and beyond 64 ranks, as liu-experiment.sh sets it), against its simulated max_us.

Usage: scripts/fluid-liu-check.py [CSV...]   (default: every results/liu/liu-*.csv)
Prints a Markdown table per platform and model, and the largest error per algorithm. A point
whose model takes more than LIMIT_S seconds is shown as "limit".
"""
import csv
import glob
import json
import os
import subprocess
import sys

ALGORITHMS = ("direct", "pairwise", "liu")
# A point whose model takes longer than this is shown as "limit" (the exact reading shares its
# classes at every start and end: O(events x classes in flight)). Every point of the study's
# files takes seconds.
LIMIT_S = 120


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    plan = os.path.join(root, "build", "mpi", "tools", "topocoll-plan")
    if not os.access(plan, os.X_OK):
        sys.exit(f"fluid-liu-check.py: {plan} is missing: build the mpi preset")
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(root, "results", "liu", "liu-*.csv")))
    worst = {}
    for path in files:
        rows = [r for r in csv.DictReader(open(path)) if r["algorithm"] in ALGORITHMS and r["max_us"]]
        by_table = {}
        for r in rows:
            by_table.setdefault((r["platform"], r["model"]), []).append(r)
        for (platform, model), table in by_table.items():
            prefix = os.path.join(os.path.dirname(path), platform)
            np = int(table[0]["np"])
            flags = ["--crosstraffic"] if platform.startswith("crossbar-") or np > 64 else []
            if model == "overhead-1us":
                flags += ["--overhead-us", "1"]
            print(f"\n#### {platform}, {model}{' (cross-traffic)' if '--crosstraffic' in flags else ''}: "
                  "max_us simulated / fluid\n")
            print("| pattern | block | " + " | ".join(ALGORITHMS) + " |")
            print("| --- | ---: | " + " | ".join("---" for _ in ALGORITHMS) + " |")
            cells = {}
            for r in table:
                simulated = float(r["max_us"])
                try:
                    out = subprocess.run(
                        [plan, "--op", "alltoallv", "--pattern", r["pattern"], "--seed", "1", "-a", r["algorithm"],
                         "-t", prefix + ".topology.json", "--hostfile", prefix + ".hosts", "--network",
                         prefix + ".xml", "-b", r["bytes"], "--fluid", "--format", "json"] + flags,
                        capture_output=True, text=True, check=True, timeout=LIMIT_S).stdout
                except subprocess.TimeoutExpired:
                    cells[(r["pattern"], int(r["bytes"]), r["algorithm"])] = f"{simulated:.1f} / limit"
                    continue
                fluid = json.loads(out)["fluid_us"]
                error = fluid / simulated - 1
                cells[(r["pattern"], int(r["bytes"]), r["algorithm"])] = f"{simulated:.1f} / {fluid:.1f} ({error:+.1%})"
                key = (r["algorithm"], model)
                if abs(error) > abs(worst.get(key, (0.0, ""))[0]):
                    worst[key] = (error, f"{platform} {r['pattern']} {r['bytes']} B")
            for pattern, size in sorted({(k[0], k[1]) for k in cells}, key=lambda k: (k[1], k[0])):
                print(f"| {pattern} | {size} | " + " | ".join(cells.get((pattern, size, a), "-") for a in ALGORITHMS) + " |")
    print("\nLargest error per algorithm and model:")
    for (algorithm, model), (error, where) in sorted(worst.items()):
        print(f"- {algorithm}, {model}: {error:+.1%} ({where})")


if __name__ == "__main__":
    main()
