#!/usr/bin/env python3
"""The time of `direct` (every rank sends its block to every other at once) on clusters joined by
one backbone link per pair and direction, as a fluid max-min share of the links: what SimGrid's
flow-level models compute, and what topocoll's round model approximates per pair of clusters
(docs/algorithms.md, "Calibration", the three-cluster miss). Flows move no data during their
route's latency; a flow inside a cluster weighs WEIGHT flows across (latency-weighted sharing,
the calibration's near share: weight = share x flows across / (1 - share)); 1 is even sharing.

Usage: scripts/maxmin-direct.py --clusters 5,7,9 --block 524288 [--weight 26.4]
       [--link 125e6] [--backbone 1.25e9] [--near-latency 50e-6] [--far-latency 5.06e-3]
Prints the time in ms and the bound (every rank's bytes through its own link).
"""
import argparse


def direct_time(sizes, block, weight, link, backbone, near_latency, far_latency):
    cluster = [c for c, n in enumerate(sizes) for _ in range(n)]
    p = len(cluster)
    flows = []
    for a in range(p):
        for b in range(p):
            if a == b:
                continue
            near = cluster[a] == cluster[b]
            links = [("out", a), ("in", b)] + ([] if near else [("backbone", cluster[a], cluster[b])])
            flows.append({"links": links, "left": float(block), "weight": weight if near else 1.0,
                          "start": near_latency if near else far_latency})
    capacity = lambda key: backbone if key[0] == "backbone" else link
    now = 0.0
    while any(f["left"] > 0 for f in flows):
        active = [f for f in flows if f["left"] > 0 and f["start"] <= now * (1 + 1e-12)]
        if not active:  # nothing moves before the first latency has passed
            now = min(f["start"] for f in flows if f["left"] > 0)
            continue
        # Weighted progressive filling: raise every unfixed flow's rate (weight x level) until a
        # link is full; fix the flows through it; repeat.
        users, remaining, rate = {}, {}, {}
        for i, f in enumerate(active):
            for key in f["links"]:
                users.setdefault(key, []).append(i)
                remaining[key] = capacity(key)
        unfixed = set(range(len(active)))
        while unfixed:
            levels = {key: remaining[key] / sum(active[i]["weight"] for i in us if i in unfixed)
                      for key, us in users.items() if any(i in unfixed for i in us)}
            level = min(levels.values())
            full = [key for key, value in levels.items() if value <= level * (1 + 1e-12)]
            fixed = {i for key in full for i in users[key] if i in unfixed}
            for i in fixed:
                rate[i] = level * active[i]["weight"]
                for key in active[i]["links"]:
                    remaining[key] -= rate[i]
            unfixed -= fixed
        step = min(active[i]["left"] / rate[i] for i in rate)
        waiting = [f["start"] - now for f in flows if f["left"] > 0 and f["start"] > now * (1 + 1e-12)]
        if waiting:
            step = min(step, min(waiting))
        for i, f in enumerate(active):
            f["left"] = max(0.0, f["left"] - rate[i] * step) if f["left"] - rate[i] * step > 1e-6 else 0.0
        now += step
    return now, (p - 1) * block / link


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clusters", required=True, help="ranks per cluster, e.g. 5,7,9")
    parser.add_argument("--block", type=int, required=True, help="bytes per block")
    parser.add_argument("--weight", type=float, default=1.0, help="a flow inside a cluster, in flows across")
    parser.add_argument("--link", type=float, default=125e6, help="each rank's link, bytes/s each way")
    parser.add_argument("--backbone", type=float, default=1.25e9, help="each pair's link, bytes/s each way")
    parser.add_argument("--near-latency", type=float, default=50e-6, help="seconds inside a cluster")
    parser.add_argument("--far-latency", type=float, default=5.06e-3, help="seconds across")
    o = parser.parse_args()
    sizes = [int(n) for n in o.clusters.split(",")]
    took, bound = direct_time(sizes, o.block, o.weight, o.link, o.backbone, o.near_latency, o.far_latency)
    print("direct on clusters %s, %d B blocks, weight %g: %.2f ms (bound %.2f ms)" %
          (o.clusters, o.block, o.weight, took * 1e3, bound * 1e3))


if __name__ == "__main__":
    main()
