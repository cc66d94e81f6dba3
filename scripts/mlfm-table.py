#!/usr/bin/env python3
"""Tables of the MLFM study (scripts/mlfm-experiment.sh): throughput per server, in MiB/s, of every
algorithm at 16, 64 and 256 MiB per server on every job, per network model, against the 3770 MiB/s
link, with mlfm's and linkaware's ratio to shift; and the byte-exact check of every job.

Throughput per server = the bytes a server sends to the others, (p - 1) x block, over the time of
the call (max_us: until the last rank is done); the block is the per-server size / p (the server's
own block is a charged local copy, not on the wire). At best it equals the link's bandwidth.

Usage: scripts/mlfm-table.py [results/mlfm] [--dat FILE]   (prints Markdown; --dat: the plot's data,
one line per model, job and size: "MODEL" "JOB SIZE" and a throughput per series)
"""
import csv
import glob
import os
import sys

LINK_MIB_S = 3770.0
MIB = 1024 * 1024
SERIES = ["mlfm", "linkaware", "shift", "pairwise", "native-ompi", "native-mpich"]
JOB_ORDER = ["2-3-2", "3-3-2", "3-4-2", "2-4-3", "random-17", "random-24", "whole", "full-d3", "full-d4", "full-d5",
             "full-d6"]
JOB_NAMES = {"2-3-2": "12 (2,3,2)", "3-3-2": "18 (3,3,2)", "3-4-2": "24 A (3,4,2)", "2-4-3": "24 B (2,4,3)",
             "random-17": "random 17", "random-24": "random 24", "whole": "every server (32)", "full-d3": "full D=3 (36)",
             "full-d4": "full D=4 (80)", "full-d5": "full D=5 (150)", "full-d6": "full D=6 (252)"}


def series_of(row):
    return row["algorithm"] if row["algorithm"] != "native" else "native-" + row["selector"]


def load(directory):
    rows = []
    for path in glob.glob(os.path.join(directory, "mlfm-*.csv")):
        with open(path) as f:
            rows.extend(csv.DictReader(f))
    return rows


def per_server_mib(row):
    """The per-server size a block stands for (blocks are floor(size / p))."""
    return round(int(row["bytes"]) * int(row["np"]) / MIB)


def throughput(row):
    p, block, us = int(row["np"]), int(row["bytes"]), float(row["max_us"])
    return (p - 1) * block / (us * 1e-6) / MIB


def main():
    args = sys.argv[1:]
    dat_path = None
    if "--dat" in args:
        at = args.index("--dat")
        dat_path = args[at + 1]
        del args[at:at + 2]
    directory = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "results", "mlfm")
    rows = load(directory)
    jobs = [j for j in JOB_ORDER if any(r["job"] == j for r in rows)]
    timed = [r for r in rows if r["valid"] == "skipped"]
    value = {(r["model"], r["job"], per_server_mib(r), series_of(r)): throughput(r) for r in timed}
    models = [m for m in ["SMPI-unit", "CM02"] if any(r["model"] == m for r in timed)]
    dat = open(dat_path if dat_path else os.devnull, "w")
    for model in models:
        print(f"\n#### {model}: throughput per server, MiB/s (link {LINK_MIB_S:.0f} MiB/s)\n")
        print("| job | MiB/server | " + " | ".join(SERIES) + " | mlfm/shift | linkaware/shift |")
        print("|---|---|" + "---|" * (len(SERIES) + 2))
        for job in jobs:
            for size in (16, 64, 256):
                cells = [value.get((model, job, size, s)) for s in SERIES]
                if all(c is None for c in cells):
                    continue
                shown = ["n/a" if c is None else f"{c:.0f}" for c in cells]
                shift = value.get((model, job, size, "shift"))
                ratios = [f"{value[(model, job, size, a)] / shift:.2f}" if shift and (model, job, size, a) in value
                          else "n/a" for a in ("mlfm", "linkaware")]
                print(f"| {JOB_NAMES[job]} | {size} | " + " | ".join(shown) + " | " + " | ".join(ratios) + " |")
                dat.write(f'"{model}" "{JOB_NAMES[job]} {size}M" ' +
                          " ".join("NaN" if c is None else f"{c:.1f}" for c in cells) + "\n")
    dat.close()
    checked = [r for r in rows if r["valid"] != "skipped"]
    print("\n#### Byte-exact check (64 KiB per server, SMPI-unit): valid per job\n")
    print("| job | " + " | ".join(SERIES[:-1]) + " |")
    print("|---|" + "---|" * (len(SERIES) - 1))
    for job in jobs:
        valid = {series_of(r): r["valid"] for r in checked if r["job"] == job}
        print(f"| {JOB_NAMES[job]} | " + " | ".join(valid.get(s, "n/a") for s in SERIES[:-1]) + " |")


if __name__ == "__main__":
    main()
