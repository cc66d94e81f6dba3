#!/usr/bin/env bash
# Runs topocoll-bench on a simulated platform under SimGrid's smpirun, with a pinned SimGrid
# configuration that it prints first (on standard error, every line starting with '#').
# Builds build/smpi first when the benchmark is missing. See usage() or run with -h.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench="$repo/build/smpi/tools/topocoll-bench"

usage() {
  cat <<EOF
Usage: scripts/simulate.sh [OPTIONS] PLATFORM NP [-- BENCH-ARGS...]

Runs build/smpi/tools/topocoll-bench with NP simulated ranks, one per host of PLATFORM, and
passes BENCH-ARGS to it (topocoll-bench -h lists them). Simulated time is deterministic:
computation is not simulated, and topocoll charges its local copies at --copy-bandwidth.

  PLATFORM         a name in platforms/ (e.g. crossbar-16) or a path to a SimGrid .xml file;
                   the hostfile is the file beside it with the extension .hosts
  NP               number of ranks, at most the number of host slots in the hostfile

Options:
  --selector NAME  SMPI's collective decision logic, which decides what the benchmark's
                   'native' algorithm runs: ompi (default), mpich, mvapich2 or impi
  --model NAME     network model:
                     SMPI-unit     SMPI with latency and bandwidth factors 1 (default: the
                                   platform's numbers are used as written)
                     CM02          SimGrid's plain max-min flow model, factors 1
                     SMPI-default  SMPI with its calibrated factor tables (latency x11.6 for
                                   messages of 64 KiB and more)
  --program NAME   the SMPI program to run: topocoll-bench (default), topocoll-calibrate
                   (scripts/calibrate.sh), topocoll-tune (docs/tuning.md) or topocoll-overlap
                   (nonblocking alltoall against computation; give it --cfg smpi/test:0 with
                   --tests), with the same pinned configuration
  --cfg KEY:VALUE  an extra SimGrid setting, given after the pinned ones (so it overrides
                   them); may be repeated, e.g. --cfg network/crosstraffic:1
  --scale          settings for jobs of hundreds to thousands of ranks: the solver's
                   maxmin/precision 1e-4 (at 1e-5 its assertion fails once a switch link carries
                   about p^2 flows), and the program run stripped of its debug information
                   (SMPI loads one copy per rank). They leave every time identical (tests/smpi,
                   smpi_scale_settings_leave_times_alone). Not in it: --cfg
                   smpi/send-is-detached-thresh:0, which spares SMPI's bookkeeping of detached
                   sends (wall time growing like p^3 to p^4) but makes a blocking MPI_Send below
                   64 KiB wait for its receiver: bruck at 64 ranks, 1 KiB blocks, 775.3 -> 783.3 us
  --scale-nonblocking  --scale, and for algorithms whose every message is nonblocking (direct,
                   pairwise) maxmin/precision 1e-2 and smpi/send-is-detached-thresh:0: direct's
                   p^2 flows at once need both (256 ranks: a solver failure at 1e-4, more than 10
                   minutes without the threshold, 46 s with both). They leave direct's and
                   pairwise's times identical (smpi_scale_nonblocking_settings_leave_times_alone),
                   not bruck's nor the MPI library's at small blocks (docs/results.md), and not
                   with a receive overhead (--cfg smpi/or), which SMPI then no longer charges:
                   refused
  --hostfile FILE  the job's hostfile instead of the one beside the platform (a job on some of
                   the platform's hosts, e.g. platforms/ib-switch-tree-296.hosts)
  --topology SPEC  the machine's hierarchy for topology-aware algorithms (lg), exported as
                   TOPOCOLL_TOPOLOGY: clusters:N1,N2,..., flat:N or a topology file; 'none'
                   exports nothing. Default: TOPOCOLL_TOPOLOGY when set, else the file beside
                   the platform with the extension .topology.json when there is one (what
                   topocoll-platform writes)
  --network FILE   the platform whose routes algorithms that read them (linkaware) build
                   their phases from, exported as TOPOCOLL_NETWORK; 'none' exports nothing (they
                   then read the topology as a tree). Default: TOPOCOLL_NETWORK when set, else
                   PLATFORM itself when topocoll-platform wrote it (it records the command that
                   describes its network; other platforms describe none to the library)
  --calibration FILE
                   the machine's calibration for the benchmark's auto, exported as
                   TOPOCOLL_CALIBRATION (the benchmark's own --calibration still wins); 'none'
                   exports nothing. Default: TOPOCOLL_CALIBRATION when set, else the file beside
                   the platform with the extension .calibration.json when there is one (what
                   scripts/calibrate.sh writes)
  -h, --help       this help

Environment: TOPOCOLL_SMPIRUN_WRAPPER, when set, is smpirun's -wrapper (the command that runs
the program), e.g. "gdb -batch -ex run -ex bt --args" for a backtrace of a crash.

Example:
  scripts/simulate.sh crossbar-16 16 -- --format csv --algorithms direct,native -m 5968 -i 5
EOF
}

die() {
  echo "simulate.sh: $*" >&2
  exit 2
}

available_platforms() {
  local names=() xml
  for xml in "$repo"/platforms/*.xml; do
    [[ -e "$xml" ]] && names+=("$(basename "$xml" .xml)")
  done
  echo "${names[*]:-none}"
}

selector=ompi
model=SMPI-unit
extra_cfg=()
topology=${TOPOCOLL_TOPOLOGY:-}
calibration=${TOPOCOLL_CALIBRATION:-}
network=${TOPOCOLL_NETWORK:-}
program=topocoll-bench
hostfile=""
scale=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --program) [[ $# -ge 2 ]] || die "--program needs a value"; program=$2; shift 2 ;;
    --program=*) program=${1#*=}; shift ;;
    --selector) [[ $# -ge 2 ]] || die "--selector needs a value"; selector=$2; shift 2 ;;
    --selector=*) selector=${1#*=}; shift ;;
    --model) [[ $# -ge 2 ]] || die "--model needs a value"; model=$2; shift 2 ;;
    --model=*) model=${1#*=}; shift ;;
    --cfg) [[ $# -ge 2 ]] || die "--cfg needs KEY:VALUE"; extra_cfg+=("$2"); shift 2 ;;
    --cfg=*) extra_cfg+=("${1#*=}"); shift ;;
    --scale) scale=1; shift ;;
    --scale-nonblocking) scale=2; shift ;;
    --hostfile) [[ $# -ge 2 ]] || die "--hostfile needs a file"; hostfile=$2; shift 2 ;;
    --hostfile=*) hostfile=${1#*=}; shift ;;
    --topology) [[ $# -ge 2 ]] || die "--topology needs a value"; topology=$2; shift 2 ;;
    --topology=*) topology=${1#*=}; shift ;;
    --network) [[ $# -ge 2 ]] || die "--network needs a platform file or 'none'"; network=$2; shift 2 ;;
    --network=*) network=${1#*=}; shift ;;
    --calibration) [[ $# -ge 2 ]] || die "--calibration needs a file or 'none'"; calibration=$2; shift 2 ;;
    --calibration=*) calibration=${1#*=}; shift ;;
    --) die "PLATFORM and NP come before --; run with -h for the usage" ;;
    -*) die "unknown option '$1'; run with -h for the usage" ;;
    *) break ;;
  esac
done
[[ $# -ge 2 ]] || { usage >&2; exit 2; }
platform=$1
np=$2
shift 2
if [[ $# -gt 0 ]]; then
  [[ "$1" == "--" ]] || die "expected -- before the benchmark's arguments, got '$1'"
  shift
fi

case "$selector" in
  ompi|mpich|mvapich2|impi) ;;
  *) die "unknown selector '$selector': use ompi, mpich, mvapich2 or impi" ;;
esac

case "$model" in
  SMPI-unit) model_cfg=(network/model:SMPI smpi/lat-factor:0:1 smpi/bw-factor:0:1) ;;
  CM02) model_cfg=(network/model:CM02 network/latency-factor:1 network/bandwidth-factor:1) ;;
  SMPI-default) model_cfg=(network/model:SMPI) ;;
  *) die "unknown network model '$model': use SMPI-unit, CM02 or SMPI-default" ;;
esac

if [[ "$platform" == */* || "$platform" == *.xml ]]; then
  platform_xml=$platform
else
  platform_xml="$repo/platforms/$platform.xml"
fi
[[ -f "$platform_xml" ]] || die "no platform '$platform' (looked for $platform_xml); platforms: $(available_platforms)"
if [[ -z "$hostfile" ]]; then
  hostfile="${platform_xml%.xml}.hosts"
  [[ -f "$hostfile" ]] || die "no hostfile beside the platform: $hostfile is missing"
fi
[[ -f "$hostfile" ]] || die "no hostfile '$hostfile'"

[[ "$np" =~ ^[1-9][0-9]*$ ]] || die "NP must be a positive number of ranks, got '$np'"

# The library's view of the machine (a topology, a calibration): VALUE as given, else the file
# beside the platform ending in SUFFIX when there is one (what topocoll-platform and
# scripts/calibrate.sh write); 'none' or nothing: empty. A value that matches SHORTHAND (a
# regular expression; empty: none) need not be a file; any other must be one.
beside_platform() {
  local value=$1 suffix=$2 what=$3 shorthand=$4
  [[ -n "$value" || ! -f "${platform_xml%.xml}$suffix" ]] || value="${platform_xml%.xml}$suffix"
  [[ "$value" != none ]] || value=""
  if [[ -n "$value" ]] && ! [[ -n "$shorthand" && "$value" =~ $shorthand ]]; then
    [[ -f "$value" ]] || die "no $what file '$value'"
  fi
  echo "$value"
}
topology=$(beside_platform "$topology" .topology.json topology '^(clusters|flat):') || exit 2
calibration=$(beside_platform "$calibration" .calibration.json calibration '') || exit 2
# The network: as given, else the platform when topocoll-platform wrote it; 'none': no network.
if [[ -z "$network" ]] && grep -q '<prop id="generated-by" value="topocoll-platform ' "$platform_xml"; then
  network=$platform_xml
fi
[[ "$network" != none ]] || network=""
[[ -z "$network" || -f "$network" ]] || die "no network platform file '$network'"
# Exported for the library (auto's calibration: the benchmark's own --calibration still wins).
if [[ -n "$topology" ]]; then export TOPOCOLL_TOPOLOGY="$topology"; else unset TOPOCOLL_TOPOLOGY; fi
if [[ -n "$network" ]]; then export TOPOCOLL_NETWORK="$network"; else unset TOPOCOLL_NETWORK; fi
if [[ -n "$calibration" ]]; then export TOPOCOLL_CALIBRATION="$calibration"; else unset TOPOCOLL_CALIBRATION; fi
# A hostfile line is 'host' (one slot) or 'host:slots'.
slots=$(awk -F: 'NF && $1 !~ /^#/ { n += (NF > 1 ? $2 : 1) } END { print n + 0 }' "$hostfile")
((np <= slots)) || die "NP=$np exceeds the $slots host slots of $hostfile"

case "$program" in
  topocoll-bench|topocoll-calibrate|topocoll-tune|topocoll-overlap) bench="$repo/build/smpi/tools/$program" ;;
  *) die "unknown --program '$program': use topocoll-bench, topocoll-calibrate, topocoll-tune or topocoll-overlap" ;;
esac
if [[ ! -x "$bench" ]]; then
  echo "# simulate.sh: $bench is missing; building build/smpi" >&2
  "$repo/scripts/install-deps.sh"
  (cd "$repo" && cmake --preset smpi >&2 && cmake --build build/smpi -j2 --target "$program" >&2)
  [[ -x "$bench" ]] || die "the build did not produce $bench"
fi

# Pinned: deterministic simulated time (no computation is timed), the network model, the
# collective selector, no reverse-path cross-traffic (on by default: 5% of each flow), and the
# protocol thresholds and caps that shape point-to-point costs, at SimGrid 3.32's defaults.
# The benchmark's --shared-malloc buffers map one file block many times over; 1 GiB blocks
# (instead of 1 MiB) keep 60 ranks x 2 x 960 MiB (16 MiB blocks) within the kernel's limit of
# 65530 mappings per process. No simulated time depends on it.
pinned_cfg=(
  smpi/simulate-computation:no
  "${model_cfg[@]}"
  network/crosstraffic:0
  network/TCP-gamma:4194304
  smpi/send-is-detached-thresh:65536
  smpi/async-small-thresh:0
  smpi/coll-selector:"$selector"
  smpi/wtime:0
  smpi/host-speed:1Gf
  smpi/shared-malloc-blocksize:1073741824
)
scale_cfg=()
if ((scale)); then
  scale_cfg=(maxmin/precision:1e-4)
  ((scale == 2)) && scale_cfg=(maxmin/precision:1e-2 smpi/send-is-detached-thresh:0)
  # SMPI maps the program once per rank: run a copy without debug information (rebuilt when the
  # program is newer).
  stripped="$repo/build/smpi/stripped/$program"
  if [[ ! -x "$stripped" || "$bench" -nt "$stripped" ]]; then
    mkdir -p "$(dirname "$stripped")"
    objcopy --strip-debug "$bench" "$stripped" || die "cannot strip $bench into $stripped"
  fi
  bench=$stripped
elif ((np > 256)); then
  echo "# simulate.sh: $np ranks without --scale: SimGrid may fail its solver's assertion, and take hours" >&2
fi
cfg_args=()
for setting in "${pinned_cfg[@]}" "${scale_cfg[@]}" "${extra_cfg[@]}"; do cfg_args+=("--cfg=$setting"); done
# SMPI charges smpi/or to detached messages only: with the detached threshold at 0 a model's
# receive overhead vanishes (direct on 32 ranks of the node-aware study's platform, 8 B blocks,
# 1 us per message: 31.8 us instead of 62.0), so the two are not run together.
detached_none=0 receive_overhead=0
for setting in "${scale_cfg[@]}" "${extra_cfg[@]}"; do
  [[ $setting == smpi/send-is-detached-thresh:0 ]] && detached_none=1
  [[ $setting == smpi/or:*[1-9]* ]] && receive_overhead=1
done
((detached_none && receive_overhead)) &&
  die "a receive overhead (--cfg smpi/or:...) is not charged with smpi/send-is-detached-thresh:0 (which --scale-nonblocking sets): SMPI charges it to detached messages only; run this model with --scale instead"

# smpirun (SimGrid) takes --help for itself; the benchmark's own help is -h.
bench_args=()
for arg in "$@"; do
  if [[ "$arg" == "--help" ]]; then bench_args+=(-h); else bench_args+=("$arg"); fi
done

{
  echo "# simulate.sh: $(smpirun -version 2>/dev/null | head -n 1), platform $platform_xml, hostfile $hostfile, np $np"
  echo "# model $model, selector $selector, topology ${topology:-(none: node level only)}; SimGrid configuration:"
  for arg in "${cfg_args[@]}"; do echo "#   $arg"; done
  # Settings the platform file carries itself (<config><prop id=... value=.../>).
  sed -n '/<config>/,/<\/config>/ s/.*<prop id="\([^"]*\)" value="\([^"]*\)".*/#   --cfg=\1:\2 (from the platform file)/p' "$platform_xml"
  echo "# calibration for auto (TOPOCOLL_CALIBRATION): ${calibration:-(none)}"
  echo "# network for linkaware's routes (TOPOCOLL_NETWORK): ${network:-(none: the topology read as a tree)}"
} >&2

exec smpirun ${TOPOCOLL_SMPIRUN_WRAPPER:+-wrapper "$TOPOCOLL_SMPIRUN_WRAPPER"} -np "$np" -platform "$platform_xml" -hostfile "$hostfile" "${cfg_args[@]}" \
  --log=root.thres:warning "$bench" "${bench_args[@]}"
