#!/usr/bin/env bash
# Regenerates the shipped cluster platforms, platforms/two-clusters-30-30.* and
# two-clusters-20-40.* (the LG paper's Fig. 4 set-ups: platform, hostfile, topology file), and
# clusters-5-7-9.* (three clusters, a backbone link per pair), with topocoll-platform at its
# default parameters, which model Grid'5000 Nancy-Rennes (docs/platforms.md); and
# ib-switch-tree.* (Kandalla et al.'s InfiniBand testbed, parameters in docs/platforms.md) with
# ib-switch-tree-296.hosts, the hostfile of its measured job (4 nodes of switch A, 29 of B),
# ib-switch-tree-busy.hosts and -busy-nodes.hosts, the same job followed by a background job on the
# nodes it leaves free (topocoll-bench --background-ranks 96, or 7: one per node); and
# mlfm-d3-32.* (the MLFM paper's 32-server testbed) with the hostfiles of its four jobs,
# mlfm-d3-32-N-L-M.hosts; and memory-bound-nodes.* (two 16-core nodes whose cores share their
# node's memory bandwidth). The command that made each file is recorded in it; tests/platform checks
# that the committed files are exactly what it generates. Builds build/mpi when the tool is
# missing. Usage: scripts/make-platforms.sh
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool="$repo/build/mpi/tools/topocoll-platform"
if [[ ! -x "$tool" ]]; then
  "$repo/scripts/install-deps.sh"
  (cd "$repo" && cmake --preset mpi >/dev/null && cmake --build build/mpi -j2 --target topocoll-platform >/dev/null)
fi

for counts in "30 30" "20 40"; do
  read -r n1 n2 <<<"$counts"
  "$tool" two-clusters --n1 "$n1" --n2 "$n2" --output-dir "$repo/platforms"
done
"$tool" clusters --nodes 5,7,9 --output-dir "$repo/platforms"
"$tool" switch-tree --leaves 2 --hosts-per-leaf 8,32 --ranks-per-host 16,8 --loopback-bw 32Gbps --loopback-lat 400ns \
  --spines 1 --uplinks 1 --uplink-bw 32Gbps --uplink-lat 300ns --node-bw 16Gbps --node-lat 700ns --switch-lat 200ns \
  --prefix switch --name ib-switch-tree --output-dir "$repo/platforms"
# The measured job: the 16 ranks of each of switch0-0..3 (hostfile lines 1-64), then the 8 of
# each of switch1-0..28 (lines 129-360).
{ sed -n 1,64p "$repo/platforms/ib-switch-tree.hosts"; sed -n 129,360p "$repo/platforms/ib-switch-tree.hosts"; } \
  >"$repo/platforms/ib-switch-tree-296.hosts"
# The busy network: the measured job, then a background job of 96 ranks (the paper's count), half
# on each switch, on the nodes the measured job leaves free: 12 on each of switch0-4..7 and 16 on
# each of switch1-29..31 (8-core nodes, so two ranks per core there: only 88 cores are free, and
# the background only loads the links between the switches, which its rank count does not change).
{
  cat "$repo/platforms/ib-switch-tree-296.hosts"
  for host in switch0-4 switch0-5 switch0-6 switch0-7; do for _ in $(seq 12); do echo "$host"; done; done
  for host in switch1-29 switch1-30 switch1-31; do for _ in $(seq 16); do echo "$host"; done; done
} >"$repo/platforms/ib-switch-tree-busy.hosts"
# The busy network with one background rank per free node (4 of switch A, 3 of B).
{
  cat "$repo/platforms/ib-switch-tree-296.hosts"
  printf '%s\n' switch0-4 switch0-5 switch0-6 switch0-7 switch1-29 switch1-30 switch1-31
} >"$repo/platforms/ib-switch-tree-busy-nodes.hosts"
# The MLFM paper's testbed: D = 3, two servers on each leaf of the last layer, QDR links
# (3770 MiB/s ping-pong); and its four jobs, 12, 18, 24 A and 24 B servers.
"$tool" mlfm --d 3 --last-layer-servers 2 --leaf-bandwidth 3770MiBps --spine-bandwidth 3770MiBps --latency 500ns \
  --switch-latency 100ns --name mlfm-d3-32 --output-dir "$repo/platforms"
for job in 2,3,2 3,3,2 3,4,2 2,4,3; do
  "$tool" mlfm --d 3 --last-layer-servers 2 --name mlfm-d3-32 --job "$job" --output-dir "$repo/platforms"
done
# Two memory-bound nodes of 16 cores, as the cluster level: each core a host of its own with a
# 10 GB/s link into its node's memory, which passes 36 GB/s in all (a SHARED "switch"; what a
# 16-rank Open MPI job over shared memory moved on a real 16-core node, issue 16), the nodes joined
# by 100 Gbit/s. A job on one node (the first 16 hostfile lines) exchanges as a node's ranks do
# over shared memory: SimGrid shares no bandwidth between the ranks of one host (its loopback is a
# FATPIPE), so cores as ranks of one host could not show it.
"$tool" clusters --nodes 16,16 --names node0,node1 --node-bw 80Gbps --node-lat 400ns --switch-sharing SHARED \
  --switch-bw 288Gbps --switch-lat 100ns --wan-bw 100Gbps --wan-lat 1us --name memory-bound-nodes \
  --output-dir "$repo/platforms"
