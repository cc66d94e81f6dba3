#!/usr/bin/env bash
# scripts/demo.sh, the tour, end to end: its five sections in order, each table's header with
# the stable columns, every row validated (no "no", no INVALID), and the last line naming five
# pictures that exist. Needs the mpi preset's tools (topocoll-platform, topocoll-plan) beside
# the smpi build it runs from.
# Usage: tour_check.sh REPO WORK-DIR
set -euo pipefail
repo=$1 work=$2
for tool in "$repo/build/mpi/tools/topocoll-platform" "$repo/build/mpi/tools/topocoll-plan" \
            "$repo/build/smpi/tools/topocoll-bench"; do
  [[ -x $tool ]] || { echo "tour_check: $tool is missing: build the mpi and smpi presets" >&2; exit 1; }
done
rm -rf "$work"
output=$(TOPOCOLL_TOUR_BUILT=1 "$repo/scripts/demo.sh" "$work")
echo "$output"
fail() { echo "tour_check: FAILED: $*" >&2; exit 1; }
sections=$(grep '^== tour: ' <<<"$output" | sed 's/^== tour: \([^,]*\),.*/\1/')
expected=$'two clusters (LG)\nswitch tree (topo)\nmulti-layer full mesh (MLFM)\ncrossbar (Tam and Wang)\nskewed alltoallv (Liu)'
[[ "$sections" == "$expected" ]] || fail "sections: $sections"
# A table's header: the line after its title that names the columns every section shares.
headers=$(awk '/ valid$/ && /auto/ && /native ompi/ && /native mpich/ && /bound/ && /speed-up/' <<<"$output" | wc -l)
[[ $headers -eq 5 ]] || fail "$headers of 5 tables have the stable columns"
grep -q INVALID <<<"$output" && fail "a result is invalid"
grep -E ' no$' <<<"$output" && fail "a row is not validated"
last=$(tail -n 1 <<<"$output")
[[ $last == "tour: done in "*"; pictures: "* ]] || fail "last line: $last"
count=0
for picture in ${last#*pictures: }; do
  [[ -s $picture ]] || fail "picture $picture missing or empty"
  count=$((count + 1))
done
[[ $count -eq 5 ]] || fail "$count pictures listed"
echo "tour_check: five sections, every row validated, five pictures"
