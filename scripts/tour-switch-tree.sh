#!/usr/bin/env bash
# The tour's InfiniBand switch tree section (scripts/demo.sh): gather and scatter on a quiet
# two-level switch tree (platforms/ib-switch-tree: leaf 0's hosts run 16 ranks each, leaf 1's
# 8; topology-aware-scatter-gather-infiniband.txt), reduced to 64 ranks on 2 + 4 hosts: topo
# (Kandalla et al.'s leaders per switch level) against binomial and linear, auto and the MPI
# libraries' own, at 16 B, 1 KiB and 16 KiB per rank from root 0, with the job's lower bound.
# Every time is validated byte for byte against MPI_Gather / MPI_Scatter. Writes
# OUT/switch-tree.txt and OUT/switch-tree.png (topo's gather tree drawn by topocoll-plan --svg,
# rendered by headless chromium).
# Usage: scripts/tour-switch-tree.sh OUT-DIR
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1
mkdir -p "$out"
# shellcheck source=tour-build.sh
source scripts/tour-build.sh

platform=platforms/ib-switch-tree
np=64
# The job: the first 2 hosts of leaf 0 (16 ranks each), the first 4 of leaf 1 (8 each).
hosts="$out/switch-tree-64.hosts"
{ head -n 32 "$platform-296.hosts"; grep '^switch1-' "$platform-296.hosts" | head -n 32; } >"$hosts"
job=(--hostfile "$hosts" --topology "$platform.topology.json")
common=(--format csv --sync window -i 1 -x 0 --root 0)
ompi="$out/switch-tree-ompi.csv" mpich="$out/switch-tree-mpich.csv" bound="$out/switch-tree-bound.csv"
: >"$ompi"; : >"$mpich"; : >"$bound"
for op in gather scatter; do
  for bytes in 16 1024 16384; do
    scripts/simulate.sh --selector ompi "${job[@]}" "$platform.xml" $np -- "${common[@]}" --op $op -m "$bytes" \
      --algorithms topo,binomial,linear,auto,native --calibration "$platform.calibration.json" 2>/dev/null >>"$ompi"
    scripts/simulate.sh --selector mpich "${job[@]}" "$platform.xml" $np -- "${common[@]}" --op $op -m "$bytes" \
      --algorithms native 2>/dev/null >>"$mpich"
    build/mpi/tools/topocoll-platform bound --platform "$platform.xml" --op $op --root 0 --hostfile "$hosts" \
      -m "$bytes" | sed "s/^/$op,/" >>"$bound"
  done
done

awk -F, -f scripts/tour-common.awk -f <(cat <<'AWK'
  FILENAME ~ /bound/ { if ($4 ~ /^[0-9]/) bound[$1, $4] = $5; next }  # op, then platform,np,bytes,bound_us,...
  $1 == "gather" || $1 == "scatter" { take_bench_row(1, $1, 1) }
  END {
    printf "== tour: switch tree (topo), gather and scatter on ib-switch-tree, 64 ranks (root 0), simulated ==\n"
    printf "time in us until the last rank is done\n"
    printf "%8s %7s %10s %10s %10s %10s %12s %12s %10s %9s %6s\n", "op", "block", "topo", "binomial", "linear", "auto",
      "native ompi", "native mpich", "bound", "speed-up", "valid"
    n = ascending(sizes, list)
    split("gather scatter", ops, " ")
    for (o = 1; o <= 2; o++) for (i = 1; i <= n; i++) {
      op = ops[o]; s = list[i]
      printf "%8s %7d %10.1f %10.1f %10.1f %10.1f %12.1f %12.1f %10.1f %8.2fx %6s\n", op, s, t[op, s, "topo"],
        t[op, s, "binomial"], t[op, s, "linear"], t[op, s, "auto"], t[op, s, "ompi"], t[op, s, "mpich"], bound[op, s],
        better_native(op, s) / t[op, s, "auto"], validated()
    }
    printf "(block: bytes per rank; speed-up: the better native over auto)\n"
    if (bad != "") { printf "INVALID results:%s\n", bad; exit 1 }
  }
AWK
) "$bound" "$ompi" "$mpich" | tee "$out/switch-tree.txt"

# The picture: topo's gather, leaders per node, then per leaf switch, then the root.
build/mpi/tools/topocoll-plan --op gather -a topo -t "$platform.topology.json" --hostfile "$hosts" --np $np -b 1024 \
  --svg "$out/switch-tree.svg" >/dev/null 2>&1
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --screenshot="$out/switch-tree.png" \
  --window-size=1600,1080 "file://$(realpath "$out/switch-tree.svg")" >/dev/null 2>&1
