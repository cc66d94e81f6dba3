#!/usr/bin/env bash
# The node-aware regime in simulation (issue 34): 16 ranks per host on a non-blocking two-level
# switch tree (topocoll-platform switch-tree, 100 Gbit/s host links, leaves joined by an uplink
# of hosts-per-leaf x 100 Gbit/s, so that no cut inside the network is narrower than the hosts'
# links), where each host's ranks share its link. topocoll's node-aware exchange (lg and overlap
# with the hosts as their groups: --group-level 1, the node level under the topology's leaf
# level) against direct, pairwise, bruck and SMPI's own alltoall under the Open MPI and MPICH
# selectors, with the lower bound (topocoll-platform bound) and, where a calibration is given,
# auto. Two network models: SMPI-unit (no cost per message) and overhead-1us (1 us of CPU per
# message sent, posted and received: smpi/os, ois, or).
# Each point is one job of one algorithm at one size (scripts/simulate.sh --scale, one timed
# call, --sync window, checked byte for byte; 64 KiB blocks on shared buffers, timing only).
# direct and overlap, whose every message is nonblocking and which put all their messages in
# flight at once, run under --scale-nonblocking (which leaves such algorithms' times identical
# and which SimGrid 3.32 needs for them at 256 ranks: docs/results.md), except with 1 us per
# message, whose receive overhead SMPI does not charge under it (simulate.sh refuses the pair).
# Writes OUT/node-aware.csv: model,np,series,bytes,max_us,valid,wall_s,ended; and
# OUT/bound-NP.csv. A job that fails or passes --limit is recorded as such.
# Usage: scripts/node-aware-study.sh [--out DIR] [--np 256|1024] [--sizes LIST] [--models LIST]
#        [--series LIST] [--calibration FILE] [--limit SECONDS]
#   --np       256 (2 leaves x 8 hosts x 16 ranks, default) or 1024 (4 leaves x 16 hosts x 16)
#   --sizes    block sizes in bytes (default 8,64,1024,65536)
#   --models   SMPI-unit,overhead-1us (default both)
#   --series   from native-ompi,native-mpich,bruck,pairwise,direct,lg-node,overlap-node,auto
#              (default: all but auto; auto needs --calibration)
#   --calibration FILE  the calibration auto reads under SMPI-unit (with auto among the series);
#              under overhead-1us the file beside it named with -overhead-1us before
#              .calibration.json (scripts/calibrate.sh, with the same --cfg, makes each)
#   --limit    wall-clock seconds per job (default 900)
#   --cfg KEY:VALUE  an extra SimGrid setting for every job (simulate.sh --cfg; may be repeated)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

out="$repo/results/node-aware" np=256 sizes=8,64,1024,65536 models=SMPI-unit,overhead-1us
series=native-ompi,native-mpich,bruck,pairwise,direct,lg-node,overlap-node calibration="" limit=900
extra_cfg=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --np) np="$2"; shift 2 ;;
    --sizes) sizes="$2"; shift 2 ;;
    --models) models="$2"; shift 2 ;;
    --series) series="$2"; shift 2 ;;
    --calibration) calibration="$2"; shift 2 ;;
    --limit) limit="$2"; shift 2 ;;
    --cfg) extra_cfg+=(--cfg "$2"); shift 2 ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0"; exit 0 ;;
    *) echo "node-aware-study.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case $np in
  256) leaves=2 hosts=8 ;;
  1024) leaves=4 hosts=16 ;;
  *) echo "node-aware-study.sh: --np is 256 or 1024, not '$np'" >&2; exit 2 ;;
esac
[[ ",$series," != *",auto,"* || -n $calibration ]] || { echo "node-aware-study.sh: auto needs --calibration" >&2; exit 2; }
tool="$repo/build/mpi/tools/topocoll-platform"
[[ -x $tool ]] || { echo "node-aware-study.sh: build the mpi preset first (cmake --build --preset mpi)" >&2; exit 2; }

mkdir -p "$out"
name="fat-${leaves}x${hosts}x16"
[[ -f $out/$name.xml ]] ||
  "$tool" switch-tree --leaves "$leaves" --hosts-per-leaf "$hosts" --ranks-per-host 16 \
    --uplink-bw "$((hosts * 100))Gbps" --name "$name" -o "$out" >/dev/null
# Every power of two a job may take, so that later jobs of other sizes keep their bound.
"$tool" bound --platform "$out/$name.xml" -m 1:1048576 >"$out/bound-$np.csv"
csv="$out/node-aware.csv"
[[ -f $csv ]] || echo "model,np,series,bytes,max_us,valid,wall_s,ended" >"$csv"
overhead_cfg=(--cfg smpi/os:0:1e-6:0 --cfg smpi/ois:0:1e-6:0 --cfg smpi/or:0:1e-6:0)
log=$(mktemp)
trap 'rm -f "$log" "$log.time"' EXIT

for model in ${models//,/ }; do
  for s in ${series//,/ }; do
    for bytes in ${sizes//,/ }; do
      args=() settings=(--scale) selector=ompi algorithm=$s
      case $s in
        native-ompi) algorithm=native ;;
        native-mpich) algorithm=native selector=mpich ;;
        direct) [[ $model == overhead-1us ]] || settings=(--scale-nonblocking) ;;
        lg-node) algorithm=lg args=(--group-level 1) ;;
        overlap-node) algorithm=overlap args=(--group-level 1)
                      [[ $model == overhead-1us ]] || settings=(--scale-nonblocking) ;;
        auto) args=(--calibration "$calibration")
              [[ $model == overhead-1us ]] && args=(--calibration "${calibration%.calibration.json}-overhead-1us.calibration.json") ;;
        bruck|pairwise) ;;
        *) echo "node-aware-study.sh: unknown series '$s'" >&2; exit 2 ;;
      esac
      cfg=("${extra_cfg[@]}")
      [[ $model == overhead-1us ]] && cfg+=("${overhead_cfg[@]}")
      ((bytes < 65536)) || args+=(--shared-malloc)
      echo "# $model $np $s $bytes" >&2
      rc=0
      /usr/bin/time -f "%e" -o "$log.time" timeout "$limit" \
        "$repo/scripts/simulate.sh" "${settings[@]}" --selector "$selector" "${cfg[@]}" --calibration none \
        "$out/$name.xml" "$np" -- --format csv -i 1 -x 0 --sync window --copy-bandwidth 5e9 -m "$bytes" \
        --algorithms "$algorithm" "${args[@]}" >"$log" 2>&1 || rc=$?
      row=$(grep "^alltoall,$algorithm," "$log" | tail -1 || true)
      case $rc in
        0) ended=done; [[ -n $row ]] || ended="failed (no result row: $(grep -m1 -i error "$log" | cut -c1-80 | tr , ';'))" ;;
        124) ended=limit ;;
        *) ended="failed $rc" ;;
      esac
      # What auto ran, as topocoll-bench says it on standard error.
      [[ $s != auto ]] || grep 'auto at' "$log" | sed "s/^/# $model $np $bytes: /" >&2 || true
      echo "$model,$np,$s,$bytes,$(cut -d, -f7 <<<"$row"),$(cut -d, -f9 <<<"$row"),$(tail -1 "$log.time"),$ended" \
        >>"$csv"
    done
  done
done
