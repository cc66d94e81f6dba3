#!/usr/bin/env python3
"""Worst flows per link against the lower bound, for linkaware, mlfm and shift, on the multi-layer
full mesh platforms/mlfm-d3-32: the MLFM paper's four jobs and random allocations of its servers
(issue 14 part 3); then random allocations of the full mesh of D = 4 (80 servers, written by
topocoll-platform mlfm --d 4 into a temporary folder). Every number comes from
`topocoll-plan --network ... --links --format json` (max_flows_per_link and link_load_bound); this
script only runs it and prints Markdown tables.

Usage: scripts/link-loads-table.py [BUILD_DIR]   (default build/mpi)
"""
import json
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLATFORM = os.path.join(ROOT, "platforms", "mlfm-d3-32")
ALGORITHMS = ["linkaware", "mlfm", "shift"]
PAPER_JOBS = [("12 (2,3,2)", "2-3-2"), ("18 (3,3,2)", "3-3-2"), ("24 A (3,4,2)", "3-4-2"), ("24 B (2,4,3)", "2-4-3")]
# Random allocations: (ranks, seed); the servers drawn with Python's random.Random(seed).
RANDOM_JOBS = [(12, 1), (13, 2), (17, 3), (24, 4), (27, 5), (32, 6)]


# Random allocations of the full mesh of D = 4: (ranks, seed).
D4_JOBS = [(20, 1), (40, 2), (60, 3), (79, 4), (80, 5)]


def plan(tool, algorithm, hostfile, platform=PLATFORM):
    """(worst flows on a link, bound) or None where the algorithm does not apply."""
    command = [tool, "--algorithm", algorithm, "--topology", platform + ".topology.json", "--hostfile", hostfile,
               "--network", platform + ".xml", "--links", "--format", "json"]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode == 2 and "does not apply" in result.stderr:
        return None
    if result.returncode != 0:
        sys.exit("failed: " + " ".join(command) + "\n" + result.stderr)
    out = json.loads(result.stdout)
    return out["max_flows_per_link"], out["link_load_bound"]


def row(tool, label, hostfile, platform=PLATFORM):
    cells = [plan(tool, a, hostfile, platform) for a in ALGORITHMS]
    bound = next(c[1] for c in cells if c is not None)  # same p - 1 rounds of the same messages
    shown = ["n/a" if c is None else str(c[0]) for c in cells]
    return "| " + label + " | " + str(bound) + " | " + " | ".join(shown) + " |"


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "mpi")
    tool = os.path.join(build, "tools", "topocoll-plan")
    print("| job (servers) | bound | " + " | ".join(ALGORITHMS) + " |")
    print("|---|---|" + "---|" * len(ALGORITHMS))
    for label, box in PAPER_JOBS:
        print(row(tool, label, PLATFORM + "-" + box + ".hosts"))
    with tempfile.TemporaryDirectory() as work:
        for ranks, seed in RANDOM_JOBS:
            print(row(tool, "random %d (seed %d)" % (ranks, seed), random_hostfile(PLATFORM, ranks, seed, work)))
        full = os.path.join(work, "mlfm-d4-full")
        subprocess.run([os.path.join(build, "tools", "topocoll-platform"), "mlfm", "--d", "4", "--name", "mlfm-d4-full",
                        "-o", work], check=True, capture_output=True)
        print()
        print("| full mesh of D = 4 (servers) | bound | " + " | ".join(ALGORITHMS) + " |")
        print("|---|---|" + "---|" * len(ALGORITHMS))
        for ranks, seed in D4_JOBS:
            hostfile = random_hostfile(full, ranks, seed, work)
            print(row(tool, "random %d (seed %d)" % (ranks, seed), hostfile, full))


def random_hostfile(platform, ranks, seed, work):
    """`ranks` of the platform's servers drawn with random.Random(seed), in that order."""
    with open(platform + ".hosts") as f:
        servers = [line.strip() for line in f if line.strip()]
    chosen = random.Random(seed).sample(servers, ranks)
    hostfile = os.path.join(work, "%s-random-%d-%d.hosts" % (os.path.basename(platform), ranks, seed))
    with open(hostfile, "w") as f:
        f.write("\n".join(chosen) + "\n")
    return hostfile


if __name__ == "__main__":
    main()
