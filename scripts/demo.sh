#!/usr/bin/env bash
# The main job: a tour of the networks of topocoll's five papers, each reduced to seconds of
# simulation (SimGrid's SMPI), topocoll against the MPI libraries' own algorithms (SMPI runs
# Open MPI's and MPICH's decision logic) with each network's lower bound, every number validated
# byte for byte against the MPI library's result where the buffers are real. Sections, in order
# (each a script of its own that also runs alone, with its table and picture):
#   two clusters (LG)        scripts/two-cluster-demo.sh  alltoall on the LG paper's grid
#   switch tree (topo)       scripts/tour-switch-tree.sh  gather and scatter on an InfiniBand tree
#   multi-layer full mesh    scripts/tour-mlfm.sh         congestion-free alltoall, flows per link
#   crossbar (Tam and Wang)  scripts/tour-crossbar.sh     the four schedules against their model
#   skewed alltoallv (Liu)   scripts/tour-alltoallv.sh    irregular traffic on two clusters
# Every table starts with "== tour: <section>" and has the columns auto, native ompi, native
# mpich, bound, speed-up (the better native over auto) and valid. About three minutes on 2 cores
# after the build; installs what is missing and builds first. The last line lists the pictures.
# Full studies: docs/results.md, each beside its script. Usage: scripts/demo.sh [OUT-DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-$PWD/build/tour}
mkdir -p "$out"
start=$SECONDS
# shellcheck source=tour-build.sh
source scripts/tour-build.sh
export TOPOCOLL_TOUR_BUILT=1  # the sections need not look again

sections=(two-clusters switch-tree mlfm crossbar alltoallv)
pictures=()
for section in "${sections[@]}"; do
  echo "tour: $section ($((SECONDS - start)) s)..." >&2
  echo
  case $section in
    two-clusters)
      scripts/two-cluster-demo.sh "$out/$section"
      pictures+=("$out/$section/two-cluster-demo.png") ;;
    *)
      scripts/tour-$section.sh "$out/$section"
      pictures+=("$out/$section/$section.png") ;;
  esac
done
echo
echo "tour: done in $((SECONDS - start)) s; pictures: ${pictures[*]}"
