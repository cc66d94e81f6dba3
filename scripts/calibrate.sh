#!/usr/bin/env bash
# Calibrates topocoll's cost model on a simulated platform: runs build/smpi/tools/topocoll-calibrate
# under smpirun with the SimGrid configuration that scripts/simulate.sh pins (deterministic
# simulated time), and stores the calibration beside the platform (or at --output). See usage()
# or run with -h.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() {
  cat <<EOF
Usage: scripts/calibrate.sh [OPTIONS] PLATFORM TOPOLOGY [-- CALIBRATE-ARGS...]

Measures the hierarchical cost model's parameters on PLATFORM (topocoll-calibrate -h lists
what) with one rank per host slot, and writes PLATFORM.calibration.json beside the platform's
.xml file (platforms/NAME.calibration.json for a shipped platform; a platform elsewhere gets its
calibration elsewhere too), the file that 'auto' reads and scripts/simulate.sh passes to it.

  PLATFORM         a name in platforms/ (e.g. crossbar-16) or a path to a SimGrid .xml file;
                   the hostfile is the file beside it with the extension .hosts
  TOPOLOGY         clusters:N1,N2,..., flat:N, or a topology file (e.g.
                   platforms/two-clusters-30-30.topology.json)
  CALIBRATE-ARGS   passed to topocoll-calibrate, e.g. --copy-bandwidth 3e8 (the bandwidth at
                   which benchmarks on this platform charge local copies; the two-cluster and
                   scatter-gather studies: 1.5e9, scripts/study-flags.sh); --eager-limit
                   65536 is given first (SMPI's detached threshold as simulate.sh pins it)

Options:
  --np N           ranks (default: every host slot of the hostfile)
  --output FILE    where to write (default: beside the platform, PLATFORM.calibration.json)
  --model NAME     network model, as scripts/simulate.sh: SMPI-unit (default), CM02, SMPI-default
  --cfg KEY:VALUE  an extra SimGrid setting after the pinned ones; may be repeated
  -h, --help       this help

Example:
  scripts/calibrate.sh crossbar-16 flat:16 -- --copy-bandwidth 3e8
EOF
}

die() {
  echo "calibrate.sh: $*" >&2
  exit 2
}

np=
output=
model=SMPI-unit
extra_cfg=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --np) [[ $# -ge 2 ]] || die "--np needs a value"; np=$2; shift 2 ;;
    --output) [[ $# -ge 2 ]] || die "--output needs a value"; output=$2; shift 2 ;;
    --model) [[ $# -ge 2 ]] || die "--model needs a value"; model=$2; shift 2 ;;
    --cfg) [[ $# -ge 2 ]] || die "--cfg needs KEY:VALUE"; extra_cfg+=("$2"); shift 2 ;;
    -*) die "unknown option '$1'; run with -h for the usage" ;;
    *) break ;;
  esac
done
[[ $# -ge 2 ]] || { usage >&2; exit 2; }
platform=$1
topology=$2
shift 2
if [[ $# -gt 0 ]]; then
  [[ "$1" == "--" ]] || die "expected -- before topocoll-calibrate's arguments, got '$1'"
  shift
fi


if [[ "$platform" == */* || "$platform" == *.xml ]]; then
  platform_xml=$platform
else
  platform_xml="$repo/platforms/$platform.xml"
fi
[[ -f "$platform_xml" ]] || die "no platform '$platform' (looked for $platform_xml)"
hostfile="${platform_xml%.xml}.hosts"
[[ -f "$hostfile" ]] || die "no hostfile beside the platform: $hostfile is missing"
name=$(basename "$platform_xml" .xml)
[[ -n "$output" ]] || output="${platform_xml%.xml}.calibration.json"
[[ "$output" == /* ]] || output="$PWD/$output"
[[ "$platform_xml" == /* ]] || platform_xml="$PWD/$platform_xml"
[[ "$hostfile" == /* ]] || hostfile="$PWD/$hostfile"
if [[ "$topology" != clusters:* && "$topology" != flat:* ]]; then
  [[ -f "$topology" ]] || die "TOPOLOGY '$topology' is neither clusters:..., flat:... nor a file"
  [[ "$topology" == /* ]] || topology="$PWD/$topology"
fi
# smpirun runs in the repository, and paths inside it are recorded relative to it (the file
# says how it was made).
output=${output#"$repo/"}
topology=${topology#"$repo/"}

slots=$(awk -F: 'NF && $1 !~ /^#/ { n += (NF > 1 ? $2 : 1) } END { print n + 0 }' "$hostfile")
[[ -n "$np" ]] || np=$slots
[[ "$np" =~ ^[1-9][0-9]*$ ]] || die "NP must be a positive number of ranks, got '$np'"
((np >= 2)) || die "calibration needs at least two ranks"
((np <= slots)) || die "NP=$np exceeds the $slots host slots of $hostfile"

# The run itself: scripts/simulate.sh's pinned configuration (it prints it), the topology
# given here (the calibration records it) rather than the platform's default.
cd "$repo"
simulate_args=(--program topocoll-calibrate --model "$model" --topology none)
for setting in "${extra_cfg[@]}"; do simulate_args+=(--cfg "$setting"); done
# --eager-limit: SMPI charges smpi/or to messages below smpi/send-is-detached-thresh only (the
# 65536 that simulate.sh pins); a --eager-limit among CALIBRATE-ARGS comes later and wins.
scripts/simulate.sh "${simulate_args[@]}" "$platform_xml" "$np" -- \
  --topology "$topology" --platform "$name" --output "$output" --eager-limit 65536 "$@"
echo "# calibrate.sh: wrote $output" >&2
